/**
 * Honest messages at the terminal (issue #14): plan problems on stderr with a summary that never
 * claims a match, a number held by a sub-account named as such, one plain sentence for file-system,
 * TLS and non-JSON answers, and the export of same-named sub-accounts that plans clean.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml, type CliRun } from "../helpers/cli";

const KEY = "test-key-honest";
const SUB_KEY = "test-sub-key-honest";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(seed: SimSeed, extra: Parameters<typeof startSimulator>[0] = {}) {
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], ...extra });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

const noStack = (r: CliRun) => expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|node:internal|ERR_|ssl3_|EISDIR|EEXIST/);

describe("plan with a problem", () => {
  it("prints the problem on stderr only, and a summary that does not claim the account matches", async () => {
    const env = await start({ numbers: [{ id: 1, number: "15550000001", sms_enabled: true }] });
    const f = writeYaml(scratch(), "w.yaml", 'version: 1\nnumbers:\n  - number: "15550000001"\n    sms_enabled: true\n  - number: "19990000000"\n');
    const r = await runCli(["plan", "-f", f], env);
    expect(r.code).toBe(1);
    // Where the item is declared, as the file's own errors read (issue #36).
    expect(r.stderr).toContain(`${f}:5:5: number "19990000000": number 19990000000 is not owned by the account (wavix-sync never buys numbers; buy it first) (at numbers[1])\n`);
    expect(r.stdout).not.toContain("not owned");
    expect(r.stdout).not.toContain("The account matches");
    expect(r.stdout).toContain(`No changes can be planned, but the account does not match ${f}: 1 declared item could not be planned (see the errors); 1 unchanged.`);
  });

  it("names the sub-account that owns a declared number, and how to declare it", async () => {
    const env = await start({
      subAccounts: [{ id: 2001, name: "Acme Support", api_key: SUB_KEY }],
      numbers: [{ id: 5, number: "15550000005", organization: 2001 } as never],
    });
    const f = writeYaml(scratch(), "w.yaml", 'version: 1\nnumbers:\n  - number: "15550000005"\n    sms_enabled: true\n');
    const r = await runCli(["plan", "-f", f], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'number "15550000005": number 15550000005 belongs to sub-account "Acme Support" (id 2001), not to the account itself: ' +
        'declare it with sub_account: "Acme Support" (the API cannot move a number between the account and its sub-accounts)',
    );
    expect(r.stderr + r.stdout).not.toContain("buy it first");
    expect(r.stderr + r.stdout).not.toContain(SUB_KEY);
  });
});

describe("one plain sentence", () => {
  it("export --out DIR: the folder is named, not EISDIR", async () => {
    const env = await start({ numbers: [] });
    const dir = scratch();
    const r = await runCli(["export", "--out", dir], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: cannot write ${dir}: it is a directory (give a file name)\n`);
    noStack(r);
  });

  it("audit --out where a file is in the way: not EEXIST … mkdir", async () => {
    const env = await start({ numbers: [] });
    const dir = scratch();
    const blocker = join(dir, "report");
    writeFileSync(blocker, "x");
    const f = writeYaml(dir, "w.yaml", "version: 1\naudit:\n  ten_dlc:\n    brands: all\n");
    const r = await runCli(["audit", "-f", f, "--out", join(blocker, "sub")], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error: cannot write ${blocker.replace(/[/.]/g, "\\$&")}(/sub)?(/manifest\\.sha256)?: a file is in the way where a folder is needed\\n$`));
    noStack(r);
  });

  it("https:// to a server speaking plain http: says so, no OpenSSL internals", async () => {
    const env = await start({ numbers: [] });
    const f = writeYaml(scratch(), "w.yaml", 'version: 1\nnumbers:\n  - number: "15550000001"\n');
    const r = await runCli(["plan", "-f", f], { ...env, WAVIX_BASE_URL: env.WAVIX_BASE_URL.replace("http://", "https://") });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/v1\/numbers\S*: could not start a TLS \(https\) connection: the server there seems to speak plain http; check the scheme in WAVIX_BASE_URL\n$/);
    noStack(r);
  });

  it("a 500 in plain text: one sentence quoting its start, not `expected JSON, got text/plain`", async () => {
    const env = await start(
      { numbers: [] },
      { faults: [{ kind: "status", status: 500, body: "upstream connect error or disconnect/reset before headers", contentType: "text/plain", pathPrefix: "/v1/numbers" }] },
    );
    const f = writeYaml(scratch(), "w.yaml", 'version: 1\nnumbers:\n  - number: "15550000001"\n');
    const r = await runCli(["plan", "-f", f], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      // A GET answered 500 is retried (a notice line per retry), then the one error.
      /^(Retrying GET [^\n]* after 500 server error[^\n]*\n)*Error: GET \/v1\/numbers\S*: the API answered with a server error \(500\) as plain text \("upstream connect error or disconnect\/reset before headers"\) instead of JSON; the fault is on the API's side or a proxy in between: try again later\n$/,
    );
    expect(r.stderr).not.toContain("expected JSON");
  });
});

describe("export round trip with two sub-accounts of one name", () => {
  it("writes each with its id; the file validates and plans clean", async () => {
    const env = await start({
      subAccounts: [
        { id: 2001, name: "Twin", api_key: "k-twin-1" },
        { id: 2002, name: "Twin", api_key: "k-twin-2", status: "disabled" },
      ],
      numbers: [],
    });
    const dir = scratch();
    const out = join(dir, "exported.yaml");
    const e = await runCli(["export", "--out", out], env);
    expect(e.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain("id: 2001");
    expect(text).toContain("id: 2002");
    const v = await runCli(["validate", "-f", out]);
    expect(v.stderr).toBe("");
    expect(v.code).toBe(0);
    const p = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(p.stdout).toContain("No changes.");
    expect(p.code).toBe(0);
  });
});

describe("--wait running out", () => {
  it("reports the lagging numbers as pending (not failed) in --json, and exits 1 as the README says", async () => {
    const env = await start({ numbers: [{ id: 1, number: "15550000001" }, { id: 2, number: "15550000002" }] }, { asyncDelayMs: 60_000 });
    const f = writeYaml(
      scratch(),
      "w.yaml",
      'version: 1\nnumbers:\n  - number: "15550000001"\n    sms_relay_url: https://h.example/sms\n  - number: "15550000002"\n    sms_relay_url: https://h.example/sms\n',
    );
    const r = await runCli(["apply", "-f", f, "--auto-approve", "--json", "--wait", "0"], env);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as { results: { key: string; outcome: string; error?: string }[]; pending: string[]; ok: boolean };
    expect(j.results.map((x) => [x.key, x.outcome])).toEqual([
      ["15550000001", "pending"],
      ["15550000002", "pending"],
    ]);
    expect(j.results[0].error).toMatch(/had not shown when --wait ran out; re-run plan later to confirm/);
    expect(j.pending).toEqual(["15550000001", "15550000002"]);
    expect(j.ok).toBe(false);
  });
});
