"use strict";
/**
 * `npm run bench`: wavix-sync at account scale against the local simulator (20 ms latency),
 * beside a per-resource baseline measured in the same run (PRODUCT.md part 8).
 * Writes bench/results.json.
 */
const { execFile } = require("node:child_process");
const { mkdtempSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { stringify } = require("yaml");
const { startSimulator, generateAccount } = require("../dist/simulator");

const KEY = "bench-local-key";
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const NUMBERS = Number(process.env.BENCH_NUMBERS ?? 10000);
const SUBS = 200;

function runScenario(sim, what, file, extraEnv = {}) {
  sim.log.length = 0;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(__dirname, "scenario.js"), what, file ?? ""],
      { env: { ...process.env, WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`${what}: ${stderr || err.message}`));
        const result = JSON.parse(stdout.trim().split("\n").pop());
        const byMethod = {};
        for (const e of sim.log) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
        resolve({ ...result, requests: sim.log.length, byMethod });
      },
    );
  });
}

function numbersFile(dir, name, numbers, fields) {
  const doc = { version: 1, numbers: numbers.map((n) => ({ number: n.number, ...fields(n) })) };
  const file = join(dir, name);
  writeFileSync(file, stringify(doc, { lineWidth: 0 }));
  return file;
}

function row(name, r, base) {
  const speed = base ? `${(base.wallSeconds / r.wallSeconds).toFixed(1)}× faster than baseline` : "";
  const methods = Object.entries(r.byMethod).map(([m, n]) => `${m} ${n}`).join(", ");
  return `${name.padEnd(34)} ${String(r.requests).padStart(6)} req (${methods})  ${r.wallSeconds.toFixed(2).padStart(7)} s  ${r.peakRssMb.toFixed(0).padStart(4)} MB  ${speed}`;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "wavix-bench-"));
  const results = { latencyMs: LATENCY_MS, numbers: NUMBERS, subAccounts: SUBS, node: process.version, scenarios: {} };
  const lines = [];
  const seed = generateAccount({ numbers: NUMBERS, subAccounts: SUBS });
  let sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS, asyncDelayMs: 500 });
  try {
    const all = seed.numbers;
    const ids = JSON.stringify(all.map((n) => n.id));
    const current = (n) => ({ sms_enabled: n.sms_enabled, sms_relay_url: n.sms_relay_url });
    const clean = numbersFile(dir, "clean.yaml", all, current);
    const dirty = numbersFile(dir, "dirty.yaml", all, (n) => ({ ...current(n), call_status_url: `https://status.bench.example/${n.number}` }));
    const uniform = numbersFile(dir, "uniform.yaml", all, () => ({ call_status_url: "https://status.bench.example/all" }));

    const s = results.scenarios;
    s.planNoChanges = await runScenario(sim, "plan", clean);
    s.baselinePlan = await runScenario(sim, "baseline-plan", clean, { BENCH_IDS: ids });
    s.planAllChange = await runScenario(sim, "plan", dirty);
    s.applyUniform = await runScenario(sim, "apply", uniform);
    s.baselineApply = await runScenario(sim, "baseline-apply", uniform, { BENCH_IDS: ids, BENCH_BASELINE_URL: "https://status.bench.example/baseline" });
    s.export = await runScenario(sim, "export");
    lines.push(row("plan, nothing to change", s.planNoChanges, s.baselinePlan));
    lines.push(row("  baseline: GET per number", s.baselinePlan));
    lines.push(row("plan, everything to change", s.planAllChange, s.baselinePlan));
    lines.push(row("apply, one change to all", s.applyUniform, s.baselineApply));
    lines.push(row("  baseline: PATCH per number", s.baselineApply));
    lines.push(row("export", s.export));
    s.applyUniform.writeRequests = (s.applyUniform.byMethod.PATCH ?? 0) + (s.applyUniform.byMethod.POST ?? 0) + (s.applyUniform.byMethod.PUT ?? 0);
  } finally {
    await sim.close();
  }

  // A large account that declares few numbers: search number by number, not the whole listing.
  const bigSeed = generateAccount({ numbers: 100000, subAccounts: 0 });
  sim = await startSimulator({ port: 0, seed: bigSeed, apiKeys: [{ key: KEY }], latencyMs: LATENCY_MS });
  try {
    const picked = bigSeed.numbers.filter((_, i) => i % 2000 === 7).slice(0, 50);
    const few = numbersFile(dir, "few.yaml", picked, (n) => ({ sms_enabled: n.sms_enabled }));
    results.scenarios.planFewOfMany = await runScenario(sim, "plan", few);
    lines.push(row("plan, 50 of 100,000", results.scenarios.planFewOfMany));
  } finally {
    await sim.close();
  }

  // Pulumi through the engine emulator (bench/pulumi.js, issue #11); BENCH_PULUMI=0 skips it.
  if (process.env.BENCH_PULUMI !== "0") {
    const pulumiNumbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
    results.pulumi = { numbers: pulumiNumbers, ...(await require("./pulumi").runPulumiScenario({ numbers: pulumiNumbers, latencyMs: LATENCY_MS })) };
    for (const [name, r] of Object.entries(results.pulumi)) {
      if (typeof r !== "object") continue;
      lines.push(`${`pulumi ${name.replace(/^pulumi/, "")} (${pulumiNumbers})`.padEnd(34)} ${String(r.requests).padStart(6)} req  ${r.wallSeconds.toFixed(2).padStart(7)} s  checkpoint ${(r.checkpointBytes / 1e6).toFixed(2)} MB`);
    }
  }

  const s = results.scenarios;
  const targets = {
    planRequestsAtMost120: s.planNoChanges.requests <= 120,
    planTenTimesBaseline: s.baselinePlan.wallSeconds / s.planNoChanges.wallSeconds >= 10,
    applyWritesAtMost120: s.applyUniform.writeRequests <= 120,
    peakRssUnder300Mb: Object.values(s).every((r) => r.peakRssMb < 300),
    planFewOfManyAtMost60: s.planFewOfMany.requests <= 60,
  };
  results.targets = targets;
  writeFileSync(join(__dirname, "results.json"), JSON.stringify(results, null, 2) + "\n");
  process.stdout.write(`wavix-sync bench: ${NUMBERS} numbers, ${SUBS} sub-accounts, ${LATENCY_MS} ms simulated latency (local simulator)\n\n`);
  process.stdout.write(lines.join("\n") + "\n\n");
  for (const [k, ok] of Object.entries(targets)) process.stdout.write(`${ok ? "met " : "MISSED"}  ${k}\n`);
  process.stdout.write(`\nWrote bench/results.json\n`);
  if (!Object.values(targets).every(Boolean)) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.message}\n`);
  process.exitCode = 1;
});
