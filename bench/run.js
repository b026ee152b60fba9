"use strict";
/**
 * `npm run bench`: wavix-sync at account scale against the local simulator (20 ms latency), as
 * users run it: whole processes (`node bin/wavix-sync.js ...`, Node start-up included), each
 * figure the median of several runs, beside a per-resource baseline measured in the same run
 * (docs/CONTRACT.md part 8, issue #15). Prints every target with its limit and writes bench/results.json.
 *
 * Env: BENCH_RUNS (runs per figure, default 5), BENCH_BASELINE_RUNS (default 1, 3 with --full),
 * BENCH_LATENCY_MS (default 20), BENCH_NUMBERS (default 10000), BENCH_BIG_NUMBERS (default 100000),
 * BENCH_TENANTS (sub-accounts, default 100) × BENCH_TENANT_NUMBERS (numbers each, default 100),
 * BENCH_AUDIT_SESSIONS (2FA sessions in the audited 30 days, and as many in the 30 before; default 10000,
 * 100000 with --full), BENCH_AUDIT_SERVICES (2FA services sharing them, default 10), BENCH_AUDIT_BRANDS
 * (10DLC brands, two vettings each, default 200),
 * BENCH_ONLY (comma-separated sections to run: numbers, big, tenants, audit, pulumi, tofu; default all).
 *
 * The defaults run in under 8 minutes on an idle 2-core machine (docs/SPEED.md, "What the bench
 * runs"): the audit at 10,000 sessions, each baseline once, Pulumi at 1,000 numbers with one adopting
 * `up` under the engine's per-step checkpoints (the native provider's; the others under
 * PULUMI_SKIP_CHECKPOINTS), each step once. `npm run bench -- --full` adds the large figures: the
 * audit at 100,000 sessions, the baselines' medians of 3, Pulumi's no-change steps as the median of
 * 3, every adopting `up` with the checkpoints, the steps no target reads, PULUMI_SKIP_CHECKPOINTS
 * at 1,000 and at 10,000 numbers, the tofu section's 3 rounds. An environment variable still sets
 * each size. Each section's wall time is printed at the end.
 */
const { spawn } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { cpus, loadavg, tmpdir } = require("node:os");
const { join } = require("node:path");
const { startSimulator, generateAccount, demoSeed } = require("../dist/simulator");
const { stringifyDesiredState } = require("../dist/config");

const KEY = "bench-local-key";
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const NUMBERS = Number(process.env.BENCH_NUMBERS ?? 10000);
const BIG = Number(process.env.BENCH_BIG_NUMBERS ?? 100000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SUBS = 200;
const TENANTS = Number(process.env.BENCH_TENANTS ?? 100);
const TENANT_NUMBERS = Number(process.env.BENCH_TENANT_NUMBERS ?? 100);
/** `npm run bench -- --full`: the large figures as well (see above). */
const FULL = process.argv.slice(2).includes("--full");
/**
 * Runs of each per-request baseline (10,000 requests at 10 in flight, some 21 s each): 1 at the
 * defaults, where the ratios they stand beside are far past their limits (22× and 21× for ≥ 15× and
 * ≥ 5× in the last whole run), 3 with --full. Each run is the whole baseline: the same requests,
 * concurrency and latency.
 */
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? (FULL ? 3 : 1));
const AUDIT_SESSIONS = Number(process.env.BENCH_AUDIT_SESSIONS ?? (FULL ? 100000 : 10000));
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((x) => x.trim())) : undefined;
/** Whether a section runs (BENCH_ONLY). */
const want = (section) => ONLY === undefined || ONLY.has(section);
const ROOT = join(__dirname, "..");
const CLI = join(ROOT, "bin", "wavix-sync.js");
const PROBE = join(__dirname, "probe.js");
const SCENARIO = join(__dirname, "scenario.js");

const dir = mkdtempSync(join(tmpdir(), "wavix-bench-"));

/** Each section's own wall time, seconds, in the order run (printed at the end: docs/SPEED.md, "What the bench runs"). */
const sectionSeconds = {};
const benchStarted = process.hrtime.bigint();
/** A stopwatch for one section: call it at the section's end to record its time under `name`. */
function stopwatch(name) {
  const started = process.hrtime.bigint();
  return () => {
    sectionSeconds[name] = Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(1));
  };
}
let probeCount = 0;

/** One whole process; wall time from spawn to exit, its peak RSS and whether it loaded @pulumi/pulumi. */
function runOnce(sim, args, env = {}) {
  const probeFile = join(dir, `probe-${probeCount++}.json`);
  if (sim) sim.log.length = 0;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ["--require", PROBE, ...args], {
      env: { ...process.env, WAVIX_API_KEY: KEY, ...(sim ? { WAVIX_BASE_URL: sim.url } : {}), BENCH_PROBE_FILE: probeFile, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const stdout = Buffer.concat(out).toString();
      if (code !== 0) return reject(new Error(`${args.join(" ")} exited ${code}: ${Buffer.concat(err).toString().slice(0, 2000)}`));
      const probe = JSON.parse(readFileSync(probeFile, "utf8"));
      const byMethod = {};
      for (const e of sim?.log ?? []) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
      const rateLimited = (sim?.log ?? []).filter((e) => e.status === 429).length;
      resolve({ wallSeconds, ...probe, requests: sim ? sim.log.length : 0, byMethod, rateLimited, stdout });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** `runs` runs of one scenario: median wall time, largest peak RSS, the last run's requests. */
async function measure(runs, sim, args, env, pick = () => ({})) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await runOnce(sim, args, env));
  const last = all[all.length - 1];
  return {
    wallSeconds: median(all.map((r) => r.wallSeconds)),
    runsSeconds: all.map((r) => Number(r.wallSeconds.toFixed(3))),
    peakRssMb: Math.max(...all.map((r) => r.peakRssMb)),
    pulumiLoaded: all.some((r) => r.pulumiLoaded),
    requests: last.requests,
    byMethod: last.byMethod,
    ...pick(all),
  };
}

/** In-process seconds printed by bench/scenario.js, median over the runs. */
const scenarioSeconds = (all) => ({
  seconds: median(all.map((r) => JSON.parse(r.stdout.trim().split("\n").pop()).seconds)),
});

function numbersFile(name, numbers, fields) {
  const state = { version: 1, file: name, numbers: numbers.map((n) => ({ number: n.number, ...fields(n) })) };
  const file = join(dir, name);
  writeFileSync(file, stringifyDesiredState(state, { schemaPath: null }));
  return file;
}

const DAY_MS = 86_400_000;
/** The audit's account: its 2FA services and 10DLC brands (BENCH_AUDIT_SERVICES, BENCH_AUDIT_BRANDS). */
const AUDIT_SERVICES = Number(process.env.BENCH_AUDIT_SERVICES ?? 10);
const AUDIT_BRANDS = Number(process.env.BENCH_AUDIT_BRANDS ?? 200);
/** The limit the audit and the plain loop meet in their second pair of rows: 50 requests/s, a burst of 5. */
const AUDIT_RATE_LIMIT = { perSecond: 50, burst: 5, retryAfterSeconds: 1 };

/**
 * An account to audit over the 30 full UTC days before today (`audit --last 30d`): `n` 2FA sessions
 * spread evenly over those days and as many over the 30 days before (the previous period), shared
 * out among AUDIT_SERVICES services, one session in five not verified; and AUDIT_BRANDS 10DLC brands
 * with two vettings each.
 */
function auditSeed(n) {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const start = today - 30 * DAY_MS;
  const services = Array.from({ length: AUDIT_SERVICES }, (_, k) => ({
    service_id: `be4c${k.toString(16).padStart(4, "0")}201211ee9fb47d093f2f0000`,
    service_name: `Bench logins ${k + 1}`,
    sessions: [],
  }));
  for (const [periodStart, tag] of [[start - 30 * DAY_MS, 1], [start, 2]]) {
    for (let i = 0; i < n; i++) {
      const t = periodStart + Math.floor((i * 30 * DAY_MS) / n);
      const verified = i % 5 !== 0;
      services[i % AUDIT_SERVICES].sessions.push({
        session_id: `b${tag}${i.toString(16).padStart(30, "0")}`,
        phone_number: "15551230001",
        status: verified ? "verified" : "failed",
        charge: "0.0475",
        created_at: new Date(t).toISOString(),
        events: [
          { created_at: new Date(t + 1000).toISOString(), event: "Code sent via SMS", status: "success", charge: "0.0475", error: null },
          { created_at: new Date(t + 30_000).toISOString(), event: "Verification", status: verified ? "success" : "failed", charge: "0", error: verified ? null : "Invalid code" },
        ],
      });
    }
  }
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  // Each brand has every field of the official brand listing (the demo account's first brand's).
  const { vettings: _vettings, ...template } = demoSeed().brands[0];
  const brands = Array.from({ length: AUDIT_BRANDS }, (_, k) => ({
    ...template,
    brand_id: `BB${k.toString(36).toUpperCase().padStart(5, "0")}`,
    company_name: `Bench Brand ${k + 1}`,
    vettings: [0, 1].map((v) => ({
      evp_id: "AEGIS",
      create_date: new Date(today - (20 + 40 * v) * DAY_MS).toISOString().slice(0, 19),
      vetted_date: new Date(today - (20 + 40 * v) * DAY_MS + 60_000).toISOString().slice(0, 19),
      vetting_id: `00000000-0000-4000-8000-${(k * 2 + v).toString(16).padStart(12, "0")}`,
      vetting_token: null,
      vetting_score: 80 - v * 5,
      vetting_class: "STANDARD",
      vetting_status: "ACTIVE",
      reasons: null,
    })),
  }));
  return {
    seed: { twoFaServices: services, brands },
    serviceIds: services.map((x) => x.service_id),
    periods: [
      { from: day(start), to: day(today - DAY_MS) },
      { from: day(start - 30 * DAY_MS), to: day(start - DAY_MS) },
    ],
    // The headline data's least requests: the profile, one listing per service and period, the
    // brand pages (100 a page) and each brand's vettings.
    minimumRequests: 1 + 2 * AUDIT_SERVICES + Math.max(1, Math.ceil(AUDIT_BRANDS / 100)) + AUDIT_BRANDS,
  };
}

/**
 * `runs` runs of each of `scenarios` ([key, sim, args, env]) taken in turn (a, b, a, b, …), so that
 * a change of load during the section weighs on both alike; each as `measure` gives it.
 */
async function measureInTurn(runs, scenarios) {
  const all = Object.fromEntries(scenarios.map(([key]) => [key, []]));
  for (let i = 0; i < runs; i++) {
    for (const [key, sim, args, env] of scenarios) all[key].push(await runOnce(sim, args, env));
  }
  const out = {};
  for (const [key] of scenarios) {
    const rs = all[key];
    const last = rs[rs.length - 1];
    out[key] = {
      wallSeconds: median(rs.map((r) => r.wallSeconds)),
      runsSeconds: rs.map((r) => Number(r.wallSeconds.toFixed(3))),
      peakRssMb: Math.max(...rs.map((r) => r.peakRssMb)),
      requests: last.requests,
      byMethod: last.byMethod,
      rateLimited: last.rateLimited,
    };
  }
  return out;
}

function row(name, r, base) {
  const speed = base ? `  ${(base.wallSeconds / r.wallSeconds).toFixed(1)}× the baseline` : "";
  const methods = Object.entries(r.byMethod ?? {}).map(([m, n]) => `${m} ${n}`).join(", ");
  const req = r.requests ? `${String(r.requests).padStart(6)} req (${methods})` : "".padEnd(12);
  const inproc = r.seconds !== undefined ? `  (in-process ${r.seconds.toFixed(2)} s)` : "";
  return `${name.padEnd(36)} ${req.padEnd(34)} ${r.wallSeconds.toFixed(2).padStart(6)} s ${r.peakRssMb.toFixed(0).padStart(5)} MB${speed}${inproc}`;
}

async function main() {
  const results = {
    latencyMs: LATENCY_MS,
    numbers: NUMBERS,
    bigNumbers: BIG,
    subAccounts: SUBS,
    tenants: TENANTS,
    tenantNumbers: TENANT_NUMBERS,
    auditSessions: AUDIT_SESSIONS,
    full: FULL,
    runs: RUNS,
    baselineRuns: BASELINE_RUNS,
    node: process.version,
    machine: { cpus: cpus().length, loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))) },
    scenarios: {},
  };
  const s = results.scenarios;
  const lines = [];
  const cli = (...a) => [CLI, ...a];

  // ---- account of NUMBERS numbers ----
  let sim;
  if (want("numbers")) {
  const done = stopwatch("numbers");
  const seed = generateAccount({ numbers: NUMBERS, subAccounts: SUBS });
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS, asyncDelayMs: 500 });
  try {
    const all = seed.numbers;
    const ids = JSON.stringify(all.map((n) => n.id));
    const current = (n) => ({ sms_enabled: n.sms_enabled, sms_relay_url: n.sms_relay_url ?? null });
    const clean = numbersFile("clean.yaml", all, current);
    const dirty = numbersFile("dirty.yaml", all, (n) => ({ ...current(n), call_status_url: `https://status.bench.example/${n.number}` }));
    const uniform = numbersFile("uniform.yaml", all, () => ({ call_status_url: "https://status.bench.example/all" }));

    s.planNoChanges = await measure(RUNS, sim, cli("plan", "-f", clean, "--json"));
    s.baselinePlan = await measure(BASELINE_RUNS, sim, [SCENARIO, "baseline-plan", clean], { BENCH_IDS: ids });
    s.planAllChange = await measure(RUNS, sim, cli("plan", "-f", dirty, "--json"));
    // These two change the account: one run each.
    s.applyUniform = await measure(1, sim, cli("apply", "-f", uniform, "--auto-approve", "--json", "--wait", "60"));
    s.baselineApply = await measure(1, sim, [SCENARIO, "baseline-apply", uniform], {
      BENCH_IDS: ids,
      BENCH_BASELINE_URL: "https://status.bench.example/baseline",
    });
    s.applyUniform.writeRequests = ["PATCH", "POST", "PUT"].reduce((n, m) => n + (s.applyUniform.byMethod[m] ?? 0), 0);
    s.validate10k = await measure(RUNS, null, cli("validate", "-f", clean));
    s.load10k = await measure(RUNS, null, [SCENARIO, "load", clean], {}, scenarioSeconds);
    s.validateSmall = await measure(RUNS, null, cli("validate", "-f", join(ROOT, "examples", "wavix.yaml")));
    lines.push(row("plan, nothing to change", s.planNoChanges, s.baselinePlan));
    lines.push(row("  baseline: GET per number", s.baselinePlan));
    lines.push(row("plan, everything to change", s.planAllChange, s.baselinePlan));
    lines.push(row("apply, one change to all", s.applyUniform, s.baselineApply));
    lines.push(row("  baseline: PATCH per number", s.baselineApply));
    lines.push(row(`validate, ${NUMBERS} numbers`, s.validate10k));
    lines.push(row(`load + validate, ${NUMBERS} numbers`, s.load10k));
    lines.push(row("validate, examples/wavix.yaml", s.validateSmall));
  } finally {
    await sim.close();
  }
  done();
  }

  // ---- account of BIG numbers ----
  if (want("big")) {
  const done = stopwatch("big");
  const bigSeed = generateAccount({ numbers: BIG, subAccounts: 0 });
  sim = await startSimulator({ port: 0, seed: bigSeed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS });
  try {
    const bigFile = numbersFile("big.yaml", bigSeed.numbers, (n) => ({ sms_enabled: n.sms_enabled, sms_relay_url: n.sms_relay_url ?? null }));
    const bigRuns = Math.min(RUNS, 3);
    s.load100k = await measure(bigRuns, null, [SCENARIO, "load", bigFile], {}, scenarioSeconds);
    const exported = join(dir, "exported.yaml");
    s.export100k = await measure(bigRuns, sim, cli("export", "--out", exported));
    s.export100k.bytes = statSync(exported).size;
    const picked = bigSeed.numbers.filter((_, i) => i % 2000 === 7).slice(0, 50);
    const few = numbersFile("few.yaml", picked, (n) => ({ sms_enabled: n.sms_enabled }));
    s.planFewOfMany = await measure(RUNS, sim, cli("plan", "-f", few, "--json"));
    lines.push(row(`load + validate, ${BIG} numbers`, s.load100k));
    lines.push(row(`export, ${BIG} numbers`, s.export100k));
    lines.push(row(`plan, 50 of ${BIG}`, s.planFewOfMany));
  } finally {
    await sim.close();
  }
  done();
  }

  // ---- tenants: TENANTS sub-accounts × TENANT_NUMBERS numbers, each read with its own key (issue #20) ----
  if (want("tenants")) {
    const done = stopwatch("tenants");
    const tenantSeed = generateAccount({ numbers: 0, subAccounts: TENANTS, numbersPerSubAccount: TENANT_NUMBERS });
    sim = await startSimulator({ port: 0, seed: tenantSeed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS });
    try {
      const subs = tenantSeed.subAccounts;
      const nameOf = new Map(subs.map((x) => [x.id, x.name]));
      // The file `export` writes: every sub-account pinned, each number with its sub_account.
      const state = {
        version: 1,
        file: "tenants.yaml",
        sub_accounts: subs.map((x) => ({ name: x.name, id: x.id, status: x.status })),
        numbers: tenantSeed.numbers.map((n) => ({ number: n.number, sub_account: nameOf.get(n.organization), sms_enabled: n.sms_enabled })),
      };
      const file = join(dir, "tenants.yaml");
      writeFileSync(file, stringifyDesiredState(state, { schemaPath: null }));
      const keyOf = new Map(subs.map((x) => [x.id, x.api_key]));
      const pairsFile = join(dir, "tenant-ids.json");
      writeFileSync(pairsFile, JSON.stringify(tenantSeed.numbers.map((n) => [keyOf.get(n.organization), n.id])));
      s.planTenants = await measure(RUNS, sim, cli("plan", "-f", file, "--json"));
      s.baselineTenants = await measure(BASELINE_RUNS, sim, [SCENARIO, "baseline-tenants", file], { BENCH_KEYED_IDS_FILE: pairsFile });
      const label = `${TENANTS} tenants × ${TENANT_NUMBERS}`;
      lines.push(row(`plan, ${label}`, s.planTenants, s.baselineTenants));
      lines.push(row("  baseline: GET per number, its key", s.baselineTenants));
    } finally {
      await sim.close();
    }
    done();
  }
  // ---- audit: AUDIT_SESSIONS 2FA sessions a period over AUDIT_SERVICES services, AUDIT_BRANDS brands,
  // beside a plain loop fetching the same headline data (issue #35), without a rate limit and under
  // 50 requests/s ----
  if (want("audit")) {
    const done = stopwatch("audit");
    const { seed, serviceIds, periods, minimumRequests } = auditSeed(AUDIT_SESSIONS);
    const file = join(dir, "audit.yaml");
    writeFileSync(file, `version: 1\naudit:\n  two_fa:\n    services:\n${serviceIds.map((id) => `      - service_id: ${id}\n`).join("")}    max_failure_ratio: 0.25\n  ten_dlc:\n    brands: all\n`);
    const loopEnv = { BENCH_AUDIT_SERVICES: JSON.stringify(serviceIds), BENCH_AUDIT_PERIODS: JSON.stringify(periods) };
    const auditArgs = cli("audit", "-f", file, "--last", "30d", "--out", join(dir, "audit-report"));
    const loopArgs = [SCENARIO, "loop-audit", join(dir, "loop-audit.json")];
    const auditRuns = Math.min(RUNS, 3);
    for (const [key, rateLimit] of [["free", undefined], ["limited", AUDIT_RATE_LIMIT]]) {
      sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS, ...(rateLimit ? { rateLimit } : {}) });
      try {
        // The simulator's first request compiles its request schemas (1–2 s of its own CPU): paid
        // here, not by whichever process is measured first.
        await (await fetch(`${sim.url}/v1/profile`, { headers: { authorization: `Bearer ${KEY}` } })).text();
        const r = await measureInTurn(auditRuns, [
          ["audit", sim, auditArgs, {}],
          ["loop", sim, loopArgs, loopEnv],
        ]);
        s[key === "free" ? "audit" : "auditRateLimited"] = { ...r.audit, sessions: AUDIT_SESSIONS, services: AUDIT_SERVICES, brands: AUDIT_BRANDS, minimumRequests };
        s[key === "free" ? "loopAudit" : "loopAuditRateLimited"] = r.loop;
      } finally {
        await sim.close();
      }
    }
    s.audit.reportBytes = statSync(join(dir, "audit-report", "audit.json")).size;
    const label = `audit, ${AUDIT_SESSIONS} sessions a period, ${AUDIT_SERVICES} services, ${AUDIT_BRANDS} brands`;
    const vsLoop = (a, l) => `  ${(a.wallSeconds / l.wallSeconds).toFixed(2)}× the loop's time, ${(a.peakRssMb / l.peakRssMb).toFixed(2)}× its RSS`;
    const refused = (r) => (r.rateLimited ? ` (${r.rateLimited} refused)` : "");
    lines.push(row(label, s.audit) + vsLoop(s.audit, s.loopAudit));
    lines.push(row("  plain loop, same headline data", s.loopAudit));
    lines.push(row(`  audit under 50 req/s${refused(s.auditRateLimited)}`, s.auditRateLimited) + vsLoop(s.auditRateLimited, s.loopAuditRateLimited));
    lines.push(row(`  plain loop under 50 req/s${refused(s.loopAuditRateLimited)}`, s.loopAuditRateLimited));
    done();
  }

  // Pulumi under the real engine (bench/pulumi.js): BENCH_PULUMI=0 skips it. 1,000 numbers; with
  // --full, also the root program wholly under PULUMI_SKIP_CHECKPOINTS, and 10,000 (BENCH_PULUMI_BIG,
  // 0 skips) with PULUMI_SKIP_CHECKPOINTS only (see bench/pulumi.js). Each on the dynamic resources
  // and on the native provider (pulumi-resource-wavix), in the same run. The engine rewrites its
  // whole checkpoint after every step of an adopting `up` (1.2–2 GB written for 1,000 numbers, about
  // a minute): at the defaults ONE adopting `up` runs with the checkpoints on, the native provider's
  // behind the root program (what a user sees); the others run under PULUMI_SKIP_CHECKPOINTS and
  // are labelled so (docs/SPEED.md, "What the bench runs").
  const pulumiTargets = [];
  if (process.env.BENCH_PULUMI !== "0" && want("pulumi")) {
    const { runPulumiScenario, pulumiLines } = require("./pulumi");
    const small = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
    // The engine's floor (docs/SPEED.md, "The floor"): a YAML program of N PhoneNumbers behind the
    // native plugin and behind the two no-op floor providers, interleaved in the same run; every
    // figure printed beside each floor's, as a ratio to it. All three under PULUMI_SKIP_CHECKPOINTS:
    // the checkpoint's rewrites are the engine's, the same for all three, and with them the adopting
    // `up`s took some 95 s each and their ratios said only that (1.03–1.04×).
    let done = stopwatch("pulumi: floors (YAML program, ours + Node.js + Go)");
    results.pulumiNativeYamlFloors = await runPulumiScenario({ numbers: small, latencyMs: LATENCY_MS, parallel: 16, provider: "native", program: "yaml", floors: true, skipCheckpoints: true, samples: FULL ? 3 : 1 });
    lines.push(...pulumiLines("pulumi native yaml program (skip checkpoints)", small, results.pulumiNativeYamlFloors));
    done();
    // One wavix:index:Account for the whole file: within the floor for ONE resource + 2 × the CLI's plan.
    const { runAccountScenario, accountLines } = require("./pulumi");
    for (const n of [small, ...(FULL ? [10000] : [])]) {
      done = stopwatch(`pulumi: Account resource (${n})`);
      const r = await runAccountScenario({ numbers: n, latencyMs: LATENCY_MS, samples: FULL ? 3 : 1 });
      results[n === small ? "pulumiAccount" : "pulumiAccountBig"] = r;
      lines.push(...accountLines(r));
      if (!r.skipped) pulumiTargets.push([`pulumi Account resource: no-change up with preview of ${n} numbers ÷ (floor for one resource + 2 × CLI plan)`, r.ratioToTarget, 1, "<=", "×"]);
      done();
    }
    const big = Number(process.env.BENCH_PULUMI_BIG ?? (FULL ? 10000 : 0));
    // [key, numbers, PULUMI_SKIP_CHECKPOINTS throughout, provider, options]. At the defaults the
    // dynamic resources' adopting up runs under PULUMI_SKIP_CHECKPOINTS (the native one is the
    // checkpointed up), and without the steps no target reads: their no-change up with its preview
    // and preview (the targets read the native provider's), and the root program's profiled ups (the
    // floors' YAML program above profiles the native plugin beside the floors): --full runs them.
    const lean = FULL ? {} : { profile: false };
    const runs = [
      ["pulumi", small, false, "dynamic", FULL ? {} : { ...lean, adoptSkipCheckpoints: true, previews: false }],
      ["pulumiNative", small, false, "native", lean],
      ...(FULL ? [["pulumiSkipCheckpoints", small, true, "dynamic", {}], ["pulumiNativeSkipCheckpoints", small, true, "native", {}]] : []),
      ...(big > 0 ? [["pulumiBigSkipCheckpoints", big, true, "dynamic", {}], ["pulumiNativeBigSkipCheckpoints", big, true, "native", {}]] : []),
    ];
    for (const [key, numbers, skipCheckpoints, provider, options] of runs) {
      const label = `pulumi ${provider}${skipCheckpoints ? " (skip checkpoints)" : ""}`;
      done = stopwatch(`pulumi: root program, ${provider}${skipCheckpoints ? ", skip checkpoints" : ""} (${numbers})`);
      results[key] = {
        numbers,
        skipCheckpoints,
        provider,
        ...(await runPulumiScenario({ numbers, latencyMs: LATENCY_MS, parallel: 16, skipCheckpoints, provider, samples: FULL ? 3 : 1, ...options })),
      };
      done();
      if (results[key].skipped) {
        lines.push(`${label}: skipped: ${results[key].skipped}`);
        continue;
      }
      for (const [name, r] of Object.entries(results[key])) {
        if (typeof r !== "object" || r === null || r.wallSeconds === undefined || r.requests === undefined) continue;
        const written = r.bytesWritten === null ? "" : `, ${(r.bytesWritten / 1e6).toFixed(1)} MB written`;
        const runs = r.samples ? ` (median of ${r.samples.map((x) => x.toFixed(2)).join(" / ")})` : "";
        const how = !skipCheckpoints ? (r.skipCheckpoints ? " (skip checkpoints)" : name === "upAdopt" ? " (checkpoints on)" : "") : "";
        lines.push(`${`${label} ${name}${how} (${numbers})`.padEnd(60)} ${String(r.requests).padStart(6)} req  ${r.wallSeconds.toFixed(2).padStart(7)} s  checkpoint ${(r.checkpointBytes / 1e6).toFixed(2)} MB (${r.bytesPerNumber} B a number${written})${runs}`);
      }
      const r = results[key];
      const p = r.profile;
      if (!r.upNoChangeWithPreview) lines.push(`${`${label} upNoChangeWithPreview, preview (${numbers})`.padEnd(60)} with --full`);
      if (p) {
        lines.push(
          `${`${label} where an up's time goes (${numbers})`.padEnd(60)} ${p.wallSeconds.toFixed(2)} s: provider busy ${p.providerBusySeconds.toFixed(2)} s (${Object.entries(p.providerCalls).map(([m, c]) => `${m} ${c.calls} calls ${c.busySeconds.toFixed(2)} s`).join(", ")}), CLI + program + engine ${p.otherSeconds.toFixed(2)} s` +
            (r.pluginStartMs !== undefined ? `; plugin start ${r.pluginStartMs} ms` : ""),
        );
      } else {
        lines.push(`${`${label} where an up's time goes (${numbers})`.padEnd(60)} with --full${r.pluginStartMs !== undefined ? `; plugin start ${r.pluginStartMs} ms` : ""}`);
      }
      const tag = `${provider}${skipCheckpoints ? ", skip checkpoints" : ""}`;
      pulumiTargets.push([`pulumi no-change up --skip-preview of ${numbers} numbers (${tag})`, r.upNoChange.wallSeconds, numbers <= 1000 ? 5 : 40, "<=", "s"]);
      // The issue's figure: the no-change up users run (with its preview), native: 5 s at 1,000, 15 s at 10,000.
      if (provider === "native") pulumiTargets.push([`pulumi no-change up with its preview of ${numbers} numbers (${tag})`, r.upNoChangeWithPreview.wallSeconds, numbers <= 1000 ? 5 : 15, "<=", "s"]);
      if (r.pluginStartMs !== undefined && !skipCheckpoints && numbers === small) pulumiTargets.push(["pulumi-resource-wavix start (spawn to port)", r.pluginStartMs, 300, "<=", "ms"]);
      // 1,000 numbers: at most 120 requests at any --parallel. Beyond, the listing alone is one page
      // per 100 numbers: the reader's bound is twice the pages (rent-or-buy, src/kinds/number/reader.ts).
      const pages = Math.ceil(numbers / 100);
      pulumiTargets.push([`pulumi refresh of ${numbers} numbers: requests (${tag})`, r.refresh.requests, numbers <= 1000 ? 120 : 2 * pages + 1, "<=", ""]);
      pulumiTargets.push([`pulumi checkpoint per number (${numbers}, ${tag})`, r.upNoChange.bytesPerNumber, 1024, "<=", "B"]);
    }
  }

  // The Terraform provider under the real OpenTofu (bench/tofu.js): a no-change `tofu plan` of
  // 1,000 numbers (BENCH_TOFU_NUMBERS), beside the native Pulumi provider's no-change preview (and
  // preview --refresh) of the same numbers, measured in this section round by round with it.
  if (want("tofu")) {
    const done = stopwatch("tofu");
    const { runTofuScenario, tofuLines } = require("./tofu");
    const numbers = Number(process.env.BENCH_TOFU_NUMBERS ?? 1000);
    const r = (results.tofu = await runTofuScenario({ numbers, latencyMs: LATENCY_MS, adoptWithCheckpoints: FULL, rounds: FULL ? 3 : 1 }));
    lines.push(...tofuLines(numbers, r));
    if (!r.skipped) pulumiTargets.push([`tofu no-change plan of ${numbers} numbers`, r.planNoChange.wallSeconds, 15, "<=", "s"]);
    done();
  }

  // After the last section (it was taken before the Pulumi and tofu sections, most of the run).
  results.machine.loadAverageAtEnd = loadavg().map((x) => Number(x.toFixed(2)));
  const ratio = s.baselinePlan?.wallSeconds / s.planNoChanges?.wallSeconds;
  const cliRuns = ["planNoChanges", "planAllChange", "applyUniform", "validate10k", "validateSmall", "export100k", "planFewOfMany"];
  const earlierRss = ["planNoChanges", "planAllChange", "applyUniform", "planFewOfMany", "validate10k", "validateSmall", "load10k"];
  // [name, value, limit, "<=" | ">=" | "<", unit]
  const tenantPages = TENANTS * Math.max(1, Math.ceil(TENANT_NUMBERS / 100));
  const all = [
    ["plan of 10,000 declared numbers (whole process)", s.planNoChanges?.wallSeconds, 1.5, "<=", "s"],
    ["plan vs per-resource baseline", ratio, 15, ">=", "×"],
    ["plan requests", s.planNoChanges?.requests, 120, "<=", ""],
    ["uniform apply writes", s.applyUniform?.writeRequests, 120, "<=", ""],
    ["plan, 50 of 100,000: requests", s.planFewOfMany?.requests, 60, "<=", ""],
    ["10,000-number file: load + validate", s.load10k?.seconds, 0.4, "<=", "s"],
    ["100,000-number file: load + validate", s.load100k?.seconds, 4, "<=", "s"],
    ["100,000-number file: peak RSS", s.load100k?.peakRssMb, 500, "<=", "MB"],
    ["export of 100,000 numbers: requests", s.export100k?.requests, 1010, "<=", ""],
    ["export of 100,000 numbers (whole process)", s.export100k?.wallSeconds, 8, "<=", "s"],
    ["export of 100,000 numbers: peak RSS", s.export100k?.peakRssMb, 300, "<=", "MB"],
    ["validate of a small file (whole process)", s.validateSmall?.wallSeconds, 0.35, "<=", "s"],
    ["peak RSS of plan/apply/validate runs", Math.max(...earlierRss.filter((k) => s[k]).map((k) => s[k].peakRssMb)), 300, "<", "MB"],
    ["CLI processes that loaded @pulumi/pulumi", cliRuns.filter((k) => s[k]?.pulumiLoaded).length, 0, "<=", ""],
    // Tenants (issue #20): pages per tenant (one sub-account listing, then each tenant's pages with its key).
    [`plan of ${TENANTS} tenants × ${TENANT_NUMBERS} numbers (whole process)`, s.planTenants?.wallSeconds, 3, "<=", "s"],
    [`plan of ${TENANTS} tenants × ${TENANT_NUMBERS}: requests`, s.planTenants?.requests, tenantPages + Math.ceil(TENANTS / 100) + 1, "<=", ""],
    ["tenants plan vs per-resource baseline", s.baselineTenants?.wallSeconds / s.planTenants?.wallSeconds, 5, ">=", "×"],
    // Audit (issue #35): the headline figures at the API's minimum of requests (the profile, one
    // listing per service and period, the brand pages and each brand's vettings) + 1 %, in no more
    // than 1.1× the time of a plain loop fetching the same data in the same run (without a limit and
    // under 50 requests/s), in half its memory (the audit spools its sessions to a file; the loop
    // keeps them). Memory bounded whatever the sessions (src/audit/collect.ts).
    [`audit of ${AUDIT_SESSIONS} sessions a period: requests`, s.audit?.requests, s.audit ? Math.floor(s.audit.minimumRequests * 1.01) : 0, "<=", ""],
    [`audit of ${AUDIT_SESSIONS} sessions a period: peak RSS`, s.audit?.peakRssMb, 250, "<=", "MB"],
    ["audit vs plain loop: time, no rate limit", s.audit?.wallSeconds / s.loopAudit?.wallSeconds, 1.1, "<=", "×"],
    ["audit vs plain loop: time, under 50 requests/s", s.auditRateLimited?.wallSeconds / s.loopAuditRateLimited?.wallSeconds, 1.1, "<=", "×"],
    ["audit vs plain loop: peak RSS", s.audit?.peakRssMb / s.loopAudit?.peakRssMb, 0.5, "<=", "×"],
    ...pulumiTargets,
  ];
  const targets = all.filter(([, value]) => typeof value === "number" && Number.isFinite(value));
  const check = (v, limit, op) => (op === "<=" ? v <= limit : op === ">=" ? v >= limit : v < limit);
  results.targets = Object.fromEntries(
    targets.map(([name, value, limit, op, unit]) => [name, { value: Number(value.toFixed(3)), limit, op, unit, met: check(value, limit, op) }]),
  );
  for (const r of Object.values(s)) delete r.stdout;
  results.sectionSeconds = sectionSeconds;
  results.totalSeconds = Number((Number(process.hrtime.bigint() - benchStarted) / 1e9).toFixed(1));
  // A partial run (BENCH_ONLY) never replaces the full run's bench/results.json.
  const resultsFile = ONLY ? join(dir, "results.json") : join(__dirname, "results.json");
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + "\n");

  const out = process.stdout;
  out.write(
    `wavix-sync bench: ${NUMBERS} numbers, ${SUBS} sub-accounts; ${TENANTS} tenants × ${TENANT_NUMBERS} numbers; ${AUDIT_SESSIONS} 2FA sessions; ${LATENCY_MS} ms simulated latency (local simulator); ` +
      `whole processes, median of ${RUNS} runs (baselines ${BASELINE_RUNS}); ${results.machine.cpus} CPUs, ` +
      `load average ${results.machine.loadAverageAtStart[0]} at start, ${results.machine.loadAverageAtEnd[0]} at end\n\n`,
  );
  out.write(lines.join("\n") + "\n\n");
  for (const [name, t] of Object.entries(results.targets)) {
    const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
    out.write(`${t.met ? "met   " : "MISSED"}  ${name}: ${fmt(t.value)}${t.unit ? ` ${t.unit}` : ""} (limit ${t.op} ${t.limit}${t.unit ? ` ${t.unit}` : ""})\n`);
  }
  // Where the bench's own time went: each section's wall time, then the whole (this process, from
  // its start; `npm run bench`'s build before it is not counted).
  out.write("\nsection times:\n");
  for (const [name, secs] of Object.entries(sectionSeconds)) out.write(`  ${name.padEnd(58)} ${secs.toFixed(1).padStart(7)} s\n`);
  out.write(`  ${"total (node bench/run.js, start to end)".padEnd(58)} ${results.totalSeconds.toFixed(1).padStart(7)} s\n`);
  out.write(ONLY ? `\n(BENCH_ONLY: bench/results.json left as it was)\n` : `\nWrote bench/results.json\n`);
  if (!FULL) out.write("(the defaults; `npm run bench -- --full` adds the large figures: docs/SPEED.md)\n");
  if (!Object.values(results.targets).every((t) => t.met)) process.exitCode = 1;
}

main()
  .catch((e) => {
    process.stderr.write(`bench failed: ${e.message}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
