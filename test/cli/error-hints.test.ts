/**
 * Errors that say what to do (issue #36, item 5): each is one line on stderr, with its hint, and no
 * stack. Run through the CLI (a child process) against real servers on loopback: the simulator, a
 * port nothing listens on, a plain HTML server, a server that answers 429 to everything.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { DEMO_SUB_ACCOUNT_KEYS, startSimulator, type SimApiKey, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { createHttpTestServer, type HttpTestServer } from "../helpers/http-test-server";

const KEY = "hint-key-7c1d";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const FILE = 'version: 1\ncall_webhooks:\n  post-call: "https://hooks.example/post"\n';
const file = () => writeYaml(scratch(), "wavix.yaml", FILE);

/**
 * A loopback port nothing listens on (taken, then let go). Below Linux's ephemeral range (32768 and
 * up): a port there let go could be handed to the next `listen(0)` of a simulator in another test
 * file while the CLI is still retrying it, which then answered instead of refusing.
 */
async function deadPort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    const port = await new Promise<number | undefined>((done) => {
      const s = createServer();
      s.once("error", () => done(undefined));
      s.listen(candidate, "127.0.0.1", () => s.close(() => done(candidate)));
    });
    if (port !== undefined) return port;
  }
}

async function server(): Promise<HttpTestServer> {
  const s = await createHttpTestServer();
  closers.push(() => s.close());
  return s;
}

async function sim(apiKeys: SimApiKey[]): Promise<Simulator> {
  const s = await startSimulator({ port: 0, seed: "demo", apiKeys, asyncDelayMs: 20 });
  closers.push(() => s.close());
  return s;
}

/** stderr's lines other than retry notices (progress, not the error). */
const errorLines = (stderr: string) => stderr.split("\n").filter((l) => l !== "" && !l.startsWith("Retrying "));

describe("errors that say what to do", () => {
  it("connection refused: one line naming the address, and to check WAVIX_BASE_URL", async () => {
    const port = await deadPort();
    const r = await runCli(["plan", "-f", file()], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    // Whichever read fails first (they run at once) is named.
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: GET \/v1\/[a-z/-]+: connection refused by 127\.0\.0\.1:(\d+): nothing answers there; /);
    expect(lines[0]).toContain(`127.0.0.1:${port}`);
    expect(lines[0]).toMatch(/; check WAVIX_BASE_URL \(the API root; unset, it is https:\/\/api\.wavix\.com\) and that the server there is running$/);
  }, 60_000);

  it("an HTML 404 (a web server, not the API): one line saying it is not the Wavix API, and to check WAVIX_BASE_URL", async () => {
    const s = await server();
    s.handle((_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><head><title>404 Not Found</title></head><body>nope</body></html>");
    });
    const r = await runCli(["plan", "-f", file()], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Error: GET \/v1\/[a-z/-]+: the API answered with status 404 \(404\) as an HTML page \("404 Not Found"\) instead of JSON: this is not the Wavix API; check WAVIX_BASE_URL \(the API root, with no path: unset, it is https:\/\/api\.wavix\.com\)$/,
    );
  });

  it("the final 429: one line saying to lower the rate with --max-rps", async () => {
    const s = await server();
    s.handle((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
      res.end(JSON.stringify({ success: false, message: "Too many requests" }));
    });
    const r = await runCli(["plan", "-f", file()], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: GET \/v1\/[a-z/-]+: rate limited \(429\).*; the API still limited the rate after every retry: lower it with --max-rps \(e\.g\. --max-rps 5\) or --concurrency 2, or run again later$/);
    expect(s.requests.length).toBeGreaterThan(1);
  }, 60_000);

  it("a 403 at apply: the failure names the scope, and the summary does not promise that a re-run finishes it", async () => {
    const s = await sim([{ key: KEY, restricted: { account: "read", numbers: "read", subaccounts: "read", webhooks: "read", trunks: "read", messages: "read", campaigns: "read" } }]);
    const r = await runCli(["apply", "-f", file(), "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Failed: call_webhook "post-call" \(update\): .*forbidden \(403\).*webhooks:write/);
    expect(r.stdout).toContain("(a re-run will not fix it: see each message)");
    expect(r.stdout).not.toContain("a re-run finishes the rest");
  });

  it("a SIP trunk's password_env unset at apply: refused before any write, saying what to set, no promise that a re-run finishes it", async () => {
    const s = await sim([{ key: KEY }]);
    const trunk = "version: 1\nsip_trunks:\n  - label: hint-pbx\n    password_env: HINT_PBX_PASSWORD\n    multiple_numbers: true\n";
    const r = await runCli(["apply", "-f", writeYaml(scratch(), "wavix.yaml", trunk), "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url, HINT_PBX_PASSWORD: undefined });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("HINT_PBX_PASSWORD (password_env) is not set or empty");
    // Since every trunk write needs its password (the API requires it with each PUT), apply refuses
    // before any write when one is unset (docs/GUARD-RAILS.md): the hint is the variable to set.
    expect(r.stderr).toContain("Apply refused (nothing was written): 1 item needs a secret this run cannot read. Set the variable named, then run apply again.");
    expect(s.log.filter((q) => q.method !== "GET")).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain("a re-run finishes the rest");
  });

  it("a sub-account's key with the master's file and no pin: one line naming the key's account and what to do, not one per item", async () => {
    // Seed 5.11: a sub-account's own key authenticates as that sub-account (account 2001 of the demo seed).
    const s = await sim([{ key: KEY }]);
    const master = [
      "version: 1",
      "sub_accounts:",
      "  - { name: Acme Support, id: 2001 }",
      "  - { name: Legacy Team, id: 2002 }",
      "numbers:",
      ...["15551230001", "15551230002", "15551230003", "15551230004"].map((n) => `  - number: "${n}"`),
      'call_webhooks:\n  post-call: "https://hooks.example/post"',
      "",
    ].join("\n");
    const file = writeYaml(scratch(), "wavix.yaml", master);
    const r = await runCli(["plan", "-f", file], { WAVIX_API_KEY: DEMO_SUB_ACCOUNT_KEYS.acmeSupport, WAVIX_BASE_URL: s.url });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toEqual([
      `Error: WAVIX_API_KEY is for account 2001, which owns none of the 4 numbers ${file} declares, and 6 declared items could not be planned: ` +
        `this looks like another account's key, or a sub-account's. Use the key of the account ${file} describes, and pin that account with \`account_id: <its id>\` ` +
        `in ${file} so that a wrong key is refused before anything is read (--json lists every item).`,
    ]);
    // Each item is still in the machine-readable plan, and apply refuses with the same one line.
    const json = await runCli(["plan", "-f", file, "--json"], { WAVIX_API_KEY: DEMO_SUB_ACCOUNT_KEYS.acmeSupport, WAVIX_BASE_URL: s.url });
    expect(JSON.parse(json.stdout).errors).toHaveLength(6);
    const apply = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: DEMO_SUB_ACCOUNT_KEYS.acmeSupport, WAVIX_BASE_URL: s.url });
    expect(apply.code).toBe(1);
    expect(errorLines(apply.stderr)[0]).toBe(lines[0]);
    expect(s.log.filter((q) => q.method !== "GET")).toEqual([]);
  });

  it("a plan-time error about a declared item: FILE:LINE:COL: message (at path), as the file's own errors read", async () => {
    const s = await startSimulator({ port: 0, apiKeys: [{ key: KEY }], seed: { senderIds: [{ sender_id: "AcmeOld", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" }] } });
    closers.push(() => s.close());
    const text = [
      "version: 1",
      "sender_ids:",
      "  - { sender_id: AcmeNew, type: alphanumeric, countries: [GB], usecase: promo }",
      "  - sender_id: AcmeOld",
      "    type: alphanumeric",
      "    countries: [FR, GB]",
      "    usecase: promo",
      "",
    ].join("\n");
    const file = writeYaml(scratch(), "wavix.yaml", text);
    const r = await runCli(["plan", "-f", file], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url });
    expect(r.code).toBe(1);
    expect(errorLines(r.stderr)).toEqual([
      `${file}:4:5: sender_id "AcmeOld": differs from the file (countries), but the API has no update: it can only be replaced (deleted, then created again, and approved again); ` +
        "add `replace: true` to it in the file to allow that (at sender_ids[1])",
    ]);
    // --json carries the same place.
    const json = JSON.parse((await runCli(["plan", "-f", file, "--json"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: s.url })).stdout);
    expect(json.errors).toEqual([expect.objectContaining({ kind: "sender_id", key: "AcmeOld", at: { path: "sender_ids[1]", file, line: 4, col: 5 } })]);
  });

  it("an unknown option: one line and where the options are, not the whole help", async () => {
    const r = await runCli(["plan", "--bogus"], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: unknown option '--bogus'\n(wavix-sync plan --help lists its options)\n");
  });

  it("Terraform's -auto-approve (one dash): the option to type instead", async () => {
    const r = await runCli(["apply", "-auto-approve"], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: unknown option '-auto-approve': wavix-sync's long options take two dashes: --auto-approve\n(wavix-sync apply --help lists its options)\n");
  });
});
