/**
 * Secrets (docs/CONTRACT.md part 8, Security): the API key and every sub-account key never appear in any
 * output channel — stdout, stderr, `--json`, audit files, export files, error messages, verbose
 * logs — nor in a request URL; Bearer only, never `appid`; plain `http://` only to loopback; a
 * read-only restricted key can plan but not apply, and says which scope is missing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InsecureBaseUrlError, WavixClient } from "../../src/client";
import { demoSeed, startSimulator, type FaultRule, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml, type CliRun } from "../helpers/cli";

// Distinctive keys, so a leak of any of them (or a recognisable half) is found by a substring search.
const MASTER = "SECRET-master-Zq8Rw3Lp5Tn1";
const READ_ONLY = "SECRET-readonly-Kd4Vb7Hs2Xm9";
const SUB_KEYS = ["SECRET-sub-acme-Qw1Er2Ty3Ui4", "SECRET-sub-legacy-As5Df6Gh7Jk8"];
const ALL = [MASTER, READ_ONLY, ...SUB_KEYS];

function seed(): SimSeed {
  const demo = demoSeed();
  return {
    ...demo,
    subAccounts: [
      { id: 2001, name: "Acme Support", api_key: SUB_KEYS[0], default_destinations: { sms_endpoint: "https://a.example/sms" } },
      { id: 2002, name: "Legacy", api_key: SUB_KEYS[1] },
    ],
  };
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(faults: FaultRule[] = []) {
  sim = await startSimulator({
    port: 0,
    seed: seed(),
    apiKeys: [{ key: MASTER }, { key: READ_ONLY, restricted: { numbers: "read", subaccounts: "read", webhooks: "read" } }],
    asyncDelayMs: 20,
    faults,
  });
  return { WAVIX_API_KEY: MASTER, WAVIX_BASE_URL: sim.url, WAVIX_SYNC_VERBOSE: "1" };
}

/** The key in full, and its first and last halves (a truncated echo is still a leak). */
function expectNoSecret(text: string, where: string) {
  for (const key of ALL) {
    for (const part of [key, key.slice(0, Math.ceil(key.length / 2) + 4), key.slice(Math.floor(key.length / 2) - 4)]) {
      expect(text.includes(part), `${where} contains (part of) a key`).toBe(false);
    }
  }
}

function expectCleanRun(r: CliRun, where: string) {
  expectNoSecret(r.stdout, `${where} stdout`);
  expectNoSecret(r.stderr, `${where} stderr`);
}

/** Every request the simulator saw: no key in a path or query, Bearer auth every time. */
function expectCleanWire() {
  expect(sim!.log.length).toBeGreaterThan(0);
  for (const e of sim!.log) {
    expectNoSecret(`${e.path}?${e.query}`, `request URL ${e.method} ${e.path}`);
    expect(e.query).not.toMatch(/appid/i);
    expect(e.auth).toBe("bearer");
  }
}

function readAll(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}


const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: Brand New
    default_destinations:
      sms_endpoint: https://new.example/sms
numbers:
  - number: "15551230001"
    call_status_url: https://hooks.example/status
call_webhooks:
  on-call: https://hooks.example/on
audit:
  two_fa:
    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]
  ten_dlc:
    brands: all
`;

describe("no key in any output channel", () => {
  it("plan, plan --json, apply --json, apply, export (stdout and file), audit (all formats and --out), verbose on", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const runs: Array<[string, string[]]> = [
      ["plan", ["plan", "-f", file]],
      ["plan --json", ["plan", "-f", file, "--json"]],
      ["plan --format md --out", ["plan", "-f", file, "--format", "md", "--out", join(dir, "audit", "plan.md")]],
      ["apply --json", ["apply", "-f", file, "--auto-approve", "--json", "--wait", "5"]],
      ["apply (no changes)", ["apply", "-f", file, "--auto-approve"]],
      ["apply --prune", ["apply", "-f", file, "--auto-approve", "--prune"]],
      ["export", ["export"]],
      ["export --out", ["export", "--out", join(dir, "exported.yaml")]],
      ["audit md", ["audit", "-f", file]],
      ["audit json --out", ["audit", "-f", file, "--format", "json", "--events", "--out", join(dir, "audit")]],
      ["audit csv", ["audit", "-f", file, "--format", "csv"]],
      ["audit html", ["audit", "-f", file, "--format", "html"]],
    ];
    for (const [name, args] of runs) {
      const r = await runCli(args, env);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expectCleanRun(r, name);
    }
    // The sub-account was created: its new key exists in the account and must not be shown either.
    const created = [...sim!.store.subAccounts.values()].find((s) => s.data.name === "Brand New")!;
    expect(created).toBeDefined();
    ALL.push(created.data.api_key);
    try {
      expectNoSecret(readFileSync(join(dir, "exported.yaml"), "utf8"), "export file");
      expectNoSecret(readAll(join(dir, "audit")), "audit files");
      expect(readdirSync(join(dir, "audit")).sort()).toEqual([
        "audit.html",
        "audit.json",
        "audit.md",
        "brands.csv",
        "daily.csv",
        "events.csv",
        "findings.csv",
        "manifest.sha256",
        "plan.md",
        "report.csv",
        "services.csv",
        "sessions.csv",
        "vettings.csv",
      ]);
      // Re-run the outputs that list sub-accounts now that the new one exists.
      for (const args of [["plan", "-f", file, "--json"], ["export"]]) expectCleanRun(await runCli(args, env), args.join(" "));
    } finally {
      ALL.pop();
    }
    expectCleanWire();
  });

  it("error paths: a wrong key, a 401/403/422/500 whose body echoes the key, a dropped create, verbose drift warnings", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);

    const wrong = await runCli(["plan", "-f", file], { ...env, WAVIX_API_KEY: SUB_KEYS[0].replace("acme", "nope") });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/unauthorized \(401\)/);
    expectCleanRun(wrong, "wrong key");
    expect(wrong.stderr).not.toContain("nope");

    // A hostile or buggy server that echoes the credential back in its error bodies.
    const echo = (status: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ success: false, message: `key ${MASTER} rejected (Bearer ${MASTER})`, ...extra });
    const hostile: Array<[string, FaultRule[], string[]]> = [
      ["401 echo", [{ kind: "status", status: 401, body: echo(401), method: "GET", pathPrefix: "/v1/numbers" }], ["plan", "-f", file, "--json"]],
      ["403 echo", [{ kind: "status", status: 403, body: echo(403), method: "GET", pathPrefix: "/v1/calls/webhooks" }], ["plan", "-f", file]],
      ["422 echo", [{ kind: "status", status: 422, body: echo(422, { errors: { [MASTER]: `bad ${MASTER}` } }), method: "PATCH" }], ["apply", "-f", file, "--auto-approve", "--json"]],
      ["500 echo", [{ kind: "status", status: 500, body: echo(500), method: "PUT" }], ["apply", "-f", file, "--auto-approve"]],
      ["HTML echo", [{ kind: "status", status: 200, body: `<html>${MASTER}</html>`, contentType: "text/html", pathPrefix: "/v3/10dlc" }], ["audit", "-f", file, "--format", "json"]],
      ["dropped create", [{ kind: "drop", method: "POST" }], ["apply", "-f", file, "--auto-approve"]],
    ];
    for (const [name, faults, args] of hostile) {
      await sim!.close();
      const e = await start(faults);
      const r = await runCli(args, e);
      expect(r.code, name).toBe(1);
      expect(r.stdout + r.stderr, name).toMatch(/401|403|validation failed|500|JSON|network error/);
      expectCleanRun(r, name);
      expectCleanWire();
    }

    // Verbose drift warnings quote the response, never a key: an extra field holding a sub-account key.
    await sim!.close();
    const e = await start();
    const res = await fetch(`${sim!.url}/v1/numbers?page=1&per_page=100`, { headers: { authorization: `Bearer ${MASTER}` } });
    const page = (await res.json()) as { items: Array<Record<string, unknown>> };
    page.items[0].forwarding_key = SUB_KEYS[1];
    page.items[1].label = 42 as unknown as string; // wrong type: the warning must not quote the value either
    sim!.setFaults([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/numbers", body: JSON.stringify(page) }]);
    const v = await runCli(["plan", "-f", file], e);
    expect(v.stderr).toMatch(/Warning: .*response drift/);
    expectCleanRun(v, "verbose drift");
  });

  it("the library's errors carry no key in message, JSON form or cause", async () => {
    await start([{ kind: "status", status: 500, body: JSON.stringify({ success: false, message: `nope ${MASTER}` }) }]);
    const client = new WavixClient({ apiKey: MASTER, baseUrl: sim!.url, retry: { limit: 0 } });
    const err = await client.listNumbers().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const e = err as Error & { toJSON(): unknown };
    expectNoSecret(e.message, "message");
    expectNoSecret(JSON.stringify(e.toJSON()), "toJSON");
    expectNoSecret(String(e.stack), "stack");
    expectNoSecret(JSON.stringify(client), "client JSON");
    await sim!.close();
    sim = undefined;
    // A connection refused: the cause chain is scrubbed too.
    const down = new WavixClient({ apiKey: MASTER, baseUrl: "http://127.0.0.1:9", retry: { limit: 0 } });
    const net = (await down.listNumbers().catch((x: unknown) => x)) as Error & { cause?: Error };
    expect(net.message).toMatch(/network error/);
    expectNoSecret(`${net.message} ${String(net.cause?.message)} ${String(net.cause?.stack)}`, "network error");
  });
});

describe("transport", () => {
  it("plain http:// to a non-loopback host is refused before any request", async () => {
    let sent = 0;
    const counting = async () => {
      sent++;
      return new Response("{}");
    };
    for (const url of ["http://example.com", "http://localhost.example.com", "http://127.0.0.1.nip.io", "http://10.0.0.1:8080", "ftp://127.0.0.1"]) {
      expect(() => new WavixClient({ apiKey: MASTER, baseUrl: url, fetch: counting }), url).toThrow(InsecureBaseUrlError);
    }
    expect(sent).toBe(0);

    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    for (const args of [["plan", "-f", file], ["export"], ["audit", "-f", file]]) {
      const t0 = Date.now();
      const r = await runCli(args, { WAVIX_API_KEY: MASTER, WAVIX_BASE_URL: "http://example.com" });
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr, args[0]).toMatch(/plain http:\/\/ is only allowed to a loopback host/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expectCleanRun(r, `insecure ${args[0]}`);
      // Refused at once: no connection was attempted (a real one to example.com would fail slowly here).
      expect(Date.now() - t0).toBeLessThan(5_000);
    }
  });

  it("Bearer only, never appid; the key never in a URL (checked over a full apply)", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "5"], env);
    expect(r.code).toBe(0);
    expect(sim!.log.some((e) => e.method === "POST")).toBe(true);
    expectCleanWire();
    expect(sim!.log.every((e) => e.auth === "bearer")).toBe(true);
  });
});

describe("a restricted read-only key", () => {
  it("can plan; apply fails naming the missing scope and writes nothing", async () => {
    const env = { ...(await start()), WAVIX_API_KEY: READ_ONLY };
    const file = writeYaml(
      scratch(),
      "wavix.yaml",
      'version: 1\nnumbers:\n  - number: "15551230001"\n    call_status_url: https://hooks.example/status\nsub_accounts:\n  - name: Acme Support\n    status: disabled\ncall_webhooks:\n  on-call: https://hooks.example/on\n',
    );
    const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(2);
    expectCleanRun(p, "read-only plan");

    const a = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(a.code).toBe(1);
    const out = a.stdout + a.stderr;
    expect(out).toMatch(/Failed: number "15551230001" \(update\): .*numbers:write/);
    expect(out).toMatch(/Failed: sub_account "Acme Support" \(update\): .*subaccounts:write/);
    expect(out).toMatch(/Failed: call_webhook "on-call" \(create\): .*webhooks:write/);
    expectCleanRun(a, "read-only apply");
    expect(sim!.log.filter((e) => e.method !== "GET").every((e) => e.status === 403)).toBe(true);
    expect(sim!.store.subAccounts.get(2001)!.data.status).toBe("enabled");
  });
});
