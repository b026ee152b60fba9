"use strict";
/**
 * One benchmark scenario, run in its own process so that its peak memory is its own.
 * Usage: node bench/scenario.js <plan|apply|export|baseline-plan|baseline-apply> <file>
 * Env: WAVIX_API_KEY, WAVIX_BASE_URL. Prints one JSON line: { wallSeconds, peakRssMb, ... }.
 */
const { readFileSync } = require("node:fs");
const { WavixClient } = require("../dist/client");
const { parseDesiredState } = require("../dist/config");
const { computePlan, applyPlan } = require("../dist/plan");
const { exportAccount } = require("../dist/resources/export");

async function baselinePlan(state) {
  // The per-resource way: one GET per declared number (ids known up front, which flatters it), 10 in flight.
  const ids = JSON.parse(process.env.BENCH_IDS);
  const base = process.env.WAVIX_BASE_URL;
  const headers = { authorization: `Bearer ${process.env.WAVIX_API_KEY}` };
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const r = await fetch(`${base}/v1/numbers/${id}`, { headers });
      await r.json();
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  return { declared: state.numbers.length };
}

async function baselineApply(state) {
  // One PATCH per changed number, 10 in flight.
  const ids = JSON.parse(process.env.BENCH_IDS);
  const base = process.env.WAVIX_BASE_URL;
  const headers = { authorization: `Bearer ${process.env.WAVIX_API_KEY}`, "content-type": "application/json" };
  const body = JSON.stringify({ call_status_url: process.env.BENCH_BASELINE_URL });
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const r = await fetch(`${base}/v1/numbers/${id}`, { method: "PATCH", headers, body });
      await r.json();
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  return { declared: state.numbers.length };
}

async function main() {
  const [what, file] = process.argv.slice(2);
  const parsed = file ? parseDesiredState(readFileSync(file, "utf8"), file) : { ok: true, state: { numbers: [] } };
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("\n"));
  const state = parsed.state;
  const client = new WavixClient({});
  const started = process.hrtime.bigint();
  let detail = {};
  if (what === "plan") {
    const { plan } = await computePlan(client, state, {});
    detail = { changes: plan.changes.length, unchanged: plan.summary.unchanged, problems: plan.problems.length };
  } else if (what === "apply") {
    const prepared = await computePlan(client, state, {});
    const result = await applyPlan(client, prepared, { waitSeconds: 60 });
    detail = { changes: prepared.plan.changes.length, ok: result.ok, failed: result.results.filter((r) => r.outcome !== "ok").length };
  } else if (what === "export") {
    const doc = await exportAccount(client);
    detail = { numbers: doc.numbers.length, subAccounts: doc.sub_accounts.length };
  } else if (what === "baseline-plan") {
    detail = await baselinePlan(state);
  } else if (what === "baseline-apply") {
    detail = await baselineApply(state);
  } else throw new Error(`unknown scenario ${what}`);
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ wallSeconds, peakRssMb, ...detail }) + "\n");
}

main().catch((e) => {
  process.stderr.write(`bench scenario failed: ${e.message}\n`);
  process.exit(1);
});
