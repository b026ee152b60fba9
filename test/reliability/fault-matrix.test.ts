/**
 * The fault matrix (docs/CONTRACT.md part 8, Reliability): apply and audit against the real simulator over
 * loopback HTTP while it injects 429s (with and without `Retry-After`, in both forms), 5xx, dropped
 * connections, timeouts, slow answers, a create that commits then drops and asynchronous lag longer
 * than `--wait`. Every row records outcome, requests, duplicates (must be 0) and settings lost (must
 * be 0). `WRITE_RELIABILITY_DOC=1` writes the measured rows into docs/RELIABILITY.md (its
 * `fault-matrix` block).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { WavixClient } from "../../src/client";
import { applyPlan, computePlan } from "../../src/plan";
import type { ApplyResult } from "../../src/plan/types";
import { audit } from "../../src/audit";
import type { AuditConfig } from "../../src/config/types";
import { startSimulator, type FaultRule, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { replaceDocBlock } from "./doc-block";
import { desiredState, DESIRED_YAML, duplicates, MASTER_KEY, reliabilitySeed, settingsLost, unmanagedSnapshot } from "./scenario";

interface Row {
  area: "apply" | "audit";
  fault: string;
  via: "library" | "CLI";
  outcome: string;
  requests: number;
  duplicates: number | "n/a";
  settingsLost: number | "n/a";
  ms: number;
}
const rows: Row[] = [];

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Short backoffs so the matrix runs in seconds; the policy (what is retried) is the default one. */
function client(s: Simulator, timeoutMs = 2_000, retryLimit?: number): WavixClient {
  return new WavixClient({
    apiKey: MASTER_KEY,
    baseUrl: s.url,
    timeoutMs,
    requestsPerSecond: Number.POSITIVE_INFINITY,
    retry: { backoffBaseMs: 20, backoffLimitMs: 200, maxRetryAfterMs: 5_000, ...(retryLimit === undefined ? {} : { limit: retryLimit }) },
  });
}

async function start(faults: FaultRule[] = [], extra: Parameters<typeof startSimulator>[0] = {}): Promise<Simulator> {
  sim = await startSimulator({ port: 0, seed: reliabilitySeed(), apiKeys: [{ key: MASTER_KEY }], asyncDelayMs: 30, faults, ...extra });
  return sim;
}

interface Attempt {
  ok: boolean;
  message: string;
  result?: ApplyResult;
  requests: number;
  ms: number;
}

/** Plan then apply through the library, as the CLI does; a thrown error is an outcome, not a crash. */
async function applyOnce(s: Simulator, timeoutMs?: number): Promise<Attempt> {
  const before = s.log.length;
  const t0 = Date.now();
  try {
    const c = client(s, timeoutMs);
    const prepared = await computePlan(c, desiredState());
    const result = await applyPlan(c, prepared, { waitSeconds: 5, pollBaseMs: 20 });
    const failed = result.results.filter((r) => r.outcome === "failed");
    const message = failed.map((r) => `${r.kind} "${r.key}": ${r.error}`).join("; ");
    return { ok: result.ok, message, result, requests: s.log.length - before, ms: Date.now() - t0 };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err), requests: s.log.length - before, ms: Date.now() - t0 };
  }
}

/** A fault-free plan finds nothing left to do. */
async function planIsClean(s: Simulator): Promise<boolean> {
  const { plan } = await computePlan(client(s), desiredState());
  return plan.changes.length === 0 && plan.problems.length === 0;
}

const RETRYABLE_ROWS: Array<{ fault: string; rules: FaultRule[]; timeoutMs?: number; minMs?: number; expectStatus?: number }> = [
  { fault: "none (baseline)", rules: [] },
  { fault: "429 without Retry-After, every 3rd request", rules: [{ kind: "status", status: 429, everyNth: 3 }], expectStatus: 429 },
  {
    fault: "429 with Retry-After: 1 (seconds), twice",
    rules: [{ kind: "status", status: 429, retryAfter: "1", times: 2 }],
    minMs: 1_000,
    expectStatus: 429,
  },
  { fault: "429 with Retry-After as an HTTP-date, twice", rules: [], expectStatus: 429 }, // rules set at run time
  { fault: "502 every 4th request", rules: [{ kind: "status", status: 502, everyNth: 4 }], expectStatus: 502 },
  { fault: "503 every 4th request", rules: [{ kind: "status", status: 503, everyNth: 4 }], expectStatus: 503 },
  { fault: "504 every 4th request", rules: [{ kind: "status", status: 504, everyNth: 4 }], expectStatus: 504 },
  { fault: "connection reset (drop) every 5th request", rules: [{ kind: "drop", everyNth: 5 }], expectStatus: 0 },
  {
    fault: "timeout: 3 GETs stall 400 ms, client timeout 150 ms",
    rules: [{ kind: "delay", delayMs: 400, method: "GET", times: 3 }],
    timeoutMs: 150,
  },
  { fault: "slow: every response +40 ms", rules: [{ kind: "delay", delayMs: 40 }], minMs: 40 },
  {
    fault: "create commits, then the connection drops",
    rules: [{ kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 }],
    expectStatus: 0,
  },
  {
    fault: "500 on POST create (non-idempotent), once",
    rules: [{ kind: "status", status: 500, method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 }],
    expectStatus: 500,
  },
  {
    fault: "timeout on POST create; the server commits late",
    rules: [{ kind: "delay", delayMs: 400, method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 }],
    timeoutMs: 200,
  },
  {
    fault: "acceptance: 429 every 5th, 503 every 7th, a create that commits then drops",
    rules: [
      { kind: "status", status: 429, everyNth: 5 },
      { kind: "status", status: 503, everyNth: 7 },
      { kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 },
    ],
    expectStatus: 503,
  },
  {
    fault: "webhook upsert: 503 once, then dropped once (retried like a PUT)",
    rules: [
      { kind: "status", status: 503, method: "POST", pathPrefix: "/v1/calls/webhooks", times: 1 },
      { kind: "drop", method: "POST", pathPrefix: "/v1/calls/webhooks", times: 1 },
    ],
    expectStatus: 503,
  },
  {
    fault: "mixed: 429 (Retry-After 0) every 5th, 503 every 7th, drop every 11th",
    rules: [
      { kind: "status", status: 429, retryAfter: "0", everyNth: 5 },
      { kind: "status", status: 503, everyNth: 7 },
      { kind: "drop", everyNth: 11 },
    ],
  },
];

// dist/ is built once for the whole run by test/global-setup.ts (a build per file raced).

describe("apply under transient faults converges with no duplicate and no lost setting", () => {
  for (const row of RETRYABLE_ROWS) {
    it(row.fault, async () => {
      const rules =
        row.fault.includes("HTTP-date")
          ? [{ kind: "status" as const, status: 429, retryAfter: new Date(Date.now() + 1_000).toUTCString(), times: 2 }]
          : row.rules;
      const s = await start(rules);
      const before = unmanagedSnapshot(s);
      const a = await applyOnce(s, row.timeoutMs);
      // A request the client gave up on may still be running on the server: let it land before
      // counting requests and duplicates.
      const stall = Math.max(0, ...rules.map((r) => r.delayMs ?? 0));
      if (stall > 0) await new Promise((r) => setTimeout(r, stall + 100));
      a.requests = s.log.length;
      expect(a.message).toBe("");
      expect(a.ok).toBe(true);
      if (row.minMs !== undefined) expect(a.ms).toBeGreaterThanOrEqual(row.minMs);
      if (row.expectStatus !== undefined) expect(s.log.some((e) => e.status === row.expectStatus)).toBe(true);
      if (row.fault.includes("commits") || row.fault.includes("500 on POST")) {
        expect(a.result!.results.find((r) => r.key === "New Co")?.outcome).toBe("ok");
        // Found by re-reading rather than sent again, whenever the lost POST had in fact committed.
        if (row.fault.includes("commits")) expect(a.result!.results.find((r) => r.key === "New Co")?.reconciled).toBe(true);
      }
      s.setFaults([]);
      const dup = duplicates(s);
      const lost = settingsLost(before, unmanagedSnapshot(s));
      expect(dup).toBe(0);
      expect(lost).toEqual([]);
      expect(await planIsClean(s)).toBe(true);
      // What the file manages did change: the run is not vacuous.
      expect(s.store.subAccounts.get(2001)!.data.status).toBe("disabled");
      expect(s.store.numbers.get(12)!.data.sms_relay_url).toBe("https://hooks.example/inbound");
      rows.push({ area: "apply", fault: row.fault, via: "library", outcome: "converged", requests: a.requests, duplicates: dup, settingsLost: lost.length, ms: a.ms });
    });
  }
});

describe("apply under faults that are not retried fails clearly, and a re-run completes", () => {
  const cases: Array<{ fault: string; rules: FaultRule[]; expectMessage: RegExp; partial: boolean }> = [
    {
      fault: "500 on every number listing request (retries exhausted)",
      rules: [{ kind: "status", status: 500, method: "GET", pathPrefix: "/v1/numbers" }],
      expectMessage: /GET \/v1\/numbers\?page=1&per_page=100: server error \(500\)/,
      partial: false,
    },
    {
      fault: "500 on one number's PATCH",
      rules: [{ kind: "status", status: 500, method: "PATCH", pathPrefix: "/v1/numbers/11" }],
      expectMessage: /number "15550000001": PATCH \/v1\/numbers\/11: server error \(500\)/,
      partial: true,
    },
    {
      fault: "503 on every sub-account PUT (retries exhausted)",
      rules: [{ kind: "status", status: 503, method: "PUT" }],
      expectMessage: /sub_account "Acme Support": PUT \/v1\/sub-organizations\/2001: server error \(503\)/,
      partial: true,
    },
    {
      fault: "every webhook POST dropped",
      rules: [{ kind: "drop", method: "POST", pathPrefix: "/v1/calls/webhooks" }],
      expectMessage: /call_webhook "on-call": POST \/v1\/calls\/webhooks: network error/,
      partial: true,
    },
  ];
  for (const c of cases) {
    it(c.fault, async () => {
      const s = await start(c.rules);
      const before = unmanagedSnapshot(s);
      const a = await applyOnce(s);
      expect(a.ok).toBe(false);
      expect(a.message).toMatch(c.expectMessage);
      expect(a.message).not.toContain(MASTER_KEY);
      if (c.partial) {
        // Independent items went through despite the failure.
        expect(a.result!.results.some((r) => r.outcome === "ok")).toBe(true);
        expect(s.store.numbers.get(12)!.data.sms_relay_url).toBe("https://hooks.example/inbound");
      } else {
        expect(s.log.filter((e) => e.method !== "GET")).toEqual([]);
      }
      s.setFaults([]);
      const again = await applyOnce(s);
      expect(again.message).toBe("");
      expect(again.ok).toBe(true);
      const dup = duplicates(s);
      const lost = settingsLost(before, unmanagedSnapshot(s));
      expect(dup).toBe(0);
      expect(lost).toEqual([]);
      expect(await planIsClean(s)).toBe(true);
      rows.push({
        area: "apply",
        fault: c.fault,
        via: "library",
        outcome: `failed, exit 1 (\`${a.message.split(";")[0].slice(0, 90)}\`); re-run converged`,
        requests: a.requests,
        duplicates: dup,
        settingsLost: lost.length,
        ms: a.ms,
      });
    });
  }
});

describe("asynchronous bulk lag longer than --wait", () => {
  it("fails naming the numbers and the wait, says a later plan confirms; a later plan is clean", async () => {
    const s = await start([], { asyncDelayMs: 2_500 });
    const before = unmanagedSnapshot(s);
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: s.url };
    const file = writeYaml(scratch(), "wavix.yaml", DESIRED_YAML);
    const t0 = Date.now();
    const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "0.5"], env);
    const ms = Date.now() - t0;
    const requests = s.log.length;
    expect(a.code).toBe(1);
    const out = a.stdout + a.stderr;
    expect(out).toContain('Pending: number "15550000002"');
    expect(out).toContain('Pending: number "15550000003"');
    expect(out).toMatch(/asynchronous change \(sms_relay_url\) had not shown when --wait ran out; re-run plan later to confirm/);
    expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // Everything else went through.
    expect(s.store.subAccounts.get(2001)!.data.status).toBe("disabled");
    await new Promise((r) => setTimeout(r, 2_600));
    const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(p.stdout).toContain("No changes.");
    expect(p.code).toBe(0);
    const dup = duplicates(s);
    const lost = settingsLost(before, unmanagedSnapshot(s));
    expect(dup).toBe(0);
    expect(lost).toEqual([]);
    rows.push({
      area: "apply",
      fault: "bulk change lags 2.5 s, `--wait 0.5`",
      via: "CLI",
      outcome: "exit 1 naming both numbers and `--wait`, \"re-run plan later to confirm\"; plan after the lag: no changes",
      requests,
      duplicates: dup,
      settingsLost: lost.length,
      ms,
    });
  });
});

describe("audit under faults", () => {
  const config: AuditConfig = {
    two_fa: {
      sessions: ["8753d4308f2e11ecb75fcdafd6d2d690"],
      services: [{ service_id: "7204a030201211ee9fb47d093f2f127c", from: "2026-11-01", to: "2026-11-21" }],
      max_failure_ratio: 0.2,
    },
    ten_dlc: { brands: "all", min_vetting_score: 75 },
  };
  const NOW = new Date("2026-11-22T10:00:00Z");
  const demo = (faults: FaultRule[] = []) => startSimulator({ port: 0, apiKeys: [{ key: MASTER_KEY }], faults });

  const transient: Array<{ fault: string; rules: FaultRule[]; timeoutMs?: number }> = [
    { fault: "429 with Retry-After: 0 every 2nd request", rules: [{ kind: "status", status: 429, retryAfter: "0", everyNth: 2 }] },
    { fault: "502 / 503 / 504 every 3rd / 4th / 5th", rules: [{ kind: "status", status: 502, everyNth: 3 }, { kind: "status", status: 503, everyNth: 4 }, { kind: "status", status: 504, everyNth: 5 }] },
    { fault: "connection reset every 3rd request", rules: [{ kind: "drop", everyNth: 3 }] },
    { fault: "timeout: 2 requests stall 400 ms, client timeout 150 ms", rules: [{ kind: "delay", delayMs: 400, times: 2 }], timeoutMs: 150 },
  ];

  it("reports exactly what a fault-free run reports", async () => {
    sim = await demo();
    const baseline = JSON.stringify(await audit(client(sim), config, { now: NOW }));
    expect(JSON.parse(baseline).two_fa.sessions.length).toBeGreaterThan(0);
    await sim.close();
    for (const t of transient) {
      sim = await demo(t.rules);
      const t0 = Date.now();
      // The rules count the simulator's requests, not one request's attempts: with the audit's
      // requests in flight together, one request's retries can land on fault after fault (up to
      // half of all requests fail here), and the default 4 retries ran out once on a loaded CI
      // machine. Transient means "gives way to retrying": 20 retries (20–200 ms apart) make a
      // run of failures that long out of reach (0.53^21 ≈ 2e-6 a request), and an exhausted
      // budget still fails the test, as it should.
      const report = JSON.stringify(await audit(client(sim, t.timeoutMs, 20), config, { now: NOW }));
      const ms = Date.now() - t0;
      expect(report, t.fault).toBe(baseline);
      expect(sim.log.length).toBeGreaterThan(0);
      rows.push({ area: "audit", fault: t.fault, via: "library", outcome: "same report as without faults", requests: sim.log.length, duplicates: "n/a", settingsLost: "n/a", ms });
      await sim.close();
      sim = undefined;
    }
  });

  it("a persistent 500 fails the CLI audit clearly: exit 1, the path named, no stack trace, no file half-written", async () => {
    sim = await demo([{ kind: "status", status: 500, pathPrefix: "/v3/10dlc" }]);
    const dir = scratch();
    const file = writeYaml(
      dir,
      "wavix.yaml",
      "version: 1\naudit:\n  two_fa:\n    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]\n  ten_dlc:\n    brands: all\n",
    );
    const out = join(dir, "report");
    const t0 = Date.now();
    const r = await runCli(["audit", "-f", file, "--out", out], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: sim.url });
    const ms = Date.now() - t0;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/v3\/10dlc\/brands.*server error \(500\)/m);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(r.stdout).toBe("");
    // No report files: a partial report is never written as if complete.
    expect(existsSync(out)).toBe(false);
    rows.push({ area: "audit", fault: "500 on every 10DLC request", via: "CLI", outcome: "exit 1, `Error: GET /v3/10dlc/brands…: server error (500)`, no files written", requests: sim.log.length, duplicates: "n/a", settingsLost: "n/a", ms });
  });
});

afterAll(() => {
  if (process.env.WRITE_RELIABILITY_DOC !== "1") return;
  const order = (r: Row) => (r.area === "apply" ? 0 : 1);
  const sorted = [...rows].sort((a, b) => order(a) - order(b));
  replaceDocBlock("fault-matrix", [
    "| area | fault | via | outcome | requests | duplicates | settings lost | wall ms |",
    "|---|---|---|---|---:|---:|---:|---:|",
    ...sorted.map((r) => `| ${r.area} | ${r.fault} | ${r.via} | ${r.outcome.replace(/\|/g, "\\|")} | ${r.requests} | ${r.duplicates} | ${r.settingsLost} | ${r.ms} |`),
  ]);
});
