"use strict";
/**
 * In-process pieces of the bench, each run in its own process (so its peak memory is its own):
 *   node bench/scenario.js load FILE            time to load and validate FILE (no Node start-up)
 *   node bench/scenario.js baseline-plan FILE   per-resource reader: one GET per number, 10 in flight
 *   node bench/scenario.js baseline-apply FILE  one PATCH per number, 10 in flight
 *   node bench/scenario.js baseline-tenants FILE  one GET per tenant's number with its key, 10 in flight
 *   node bench/scenario.js baseline-audit OUT   per-session audit: the window listed in one request,
 *                                               one GET of events per session, 10 in flight, all kept
 *                                               in memory, written to OUT as one JSON
 * Env: WAVIX_API_KEY, WAVIX_BASE_URL, BENCH_IDS (baselines), BENCH_KEYED_IDS_FILE (a JSON file of [key, id] pairs),
 * BENCH_AUDIT_SERVICE, BENCH_AUDIT_FROM, BENCH_AUDIT_TO (baseline-audit).
 * Prints one JSON line.
 */
const { readFileSync } = require("node:fs");

async function perResource(method, body, keyed) {
  // The per-resource way (ids, and each number's key, known up front, which flatters it), 10 in flight.
  const ids = keyed ?? JSON.parse(process.env.BENCH_IDS).map((id) => [process.env.WAVIX_API_KEY, id]);
  const base = process.env.WAVIX_BASE_URL;
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const [key, id] = ids[next++];
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const r = await fetch(`${base}/v1/numbers/${id}`, { method, headers, body });
      await r.json();
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  return { items: ids.length };
}

async function perSession(out) {
  // The naive audit: one listing of the whole window, then every session's events, all in memory.
  const base = process.env.WAVIX_BASE_URL;
  const headers = { authorization: `Bearer ${process.env.WAVIX_API_KEY}` };
  const service = process.env.BENCH_AUDIT_SERVICE;
  const listed = await (await fetch(`${base}/v1/two-fa/service/${service}/sessions?from=${process.env.BENCH_AUDIT_FROM}&to=${process.env.BENCH_AUDIT_TO}`, { headers })).json();
  const sessions = [];
  let next = 0;
  const worker = async () => {
    while (next < listed.length) {
      const s = listed[next++];
      const r = await fetch(`${base}/v1/two-fa/session/${s.session_id}/events`, { headers });
      sessions.push({ ...s, events: await r.json() });
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  require("node:fs").writeFileSync(out, JSON.stringify({ sessions }, null, 2));
  return { sessions: sessions.length };
}

async function main() {
  const [what, file] = process.argv.slice(2);
  const started = process.hrtime.bigint();
  let detail;
  if (what === "load") {
    const { loadDesiredState } = require("../dist/config");
    const r = loadDesiredState(file);
    if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
    detail = { numbers: r.state.numbers?.length ?? 0 };
  } else if (what === "baseline-plan") {
    readFileSync(file, "utf8");
    detail = await perResource("GET");
  } else if (what === "baseline-tenants") {
    readFileSync(file, "utf8");
    detail = await perResource("GET", undefined, JSON.parse(readFileSync(process.env.BENCH_KEYED_IDS_FILE, "utf8")));
  } else if (what === "baseline-audit") {
    detail = await perSession(file);
  } else if (what === "baseline-apply") {
    detail = await perResource("PATCH", JSON.stringify({ call_status_url: process.env.BENCH_BASELINE_URL }));
  } else throw new Error(`unknown scenario ${what}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, ...detail }) + "\n");
}

main().catch((e) => {
  process.stderr.write(`bench scenario failed: ${e.message}\n`);
  process.exit(1);
});
