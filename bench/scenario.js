"use strict";
/**
 * In-process pieces of the bench, each run in its own process (so its peak memory is its own):
 *   node bench/scenario.js load FILE            time to load and validate FILE (no Node start-up)
 *   node bench/scenario.js baseline-plan FILE   per-resource reader: one GET per number, 10 in flight
 *   node bench/scenario.js baseline-apply FILE  one PATCH per number, 10 in flight
 *   node bench/scenario.js baseline-tenants FILE  one GET per tenant's number with its key, 10 in flight
 *   node bench/scenario.js loop-audit OUT       the audit's headline data read by a plain loop (issue #35):
 *                                               the profile, each service's sessions listing for both
 *                                               periods, the brand pages and each brand's vettings, 8
 *                                               in flight, a refused request waiting out Retry-After
 *                                               (100 ms without one) and sent again; the figures
 *                                               summed and the sessions kept in memory, written to OUT
 *                                               as one JSON
 * Env: WAVIX_API_KEY, WAVIX_BASE_URL, BENCH_IDS (baselines), BENCH_KEYED_IDS_FILE (a JSON file of [key, id] pairs),
 * BENCH_AUDIT_SERVICES (JSON list of service ids), BENCH_AUDIT_PERIODS (JSON list of {from, to}) (loop-audit).
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

async function loopAudit(out) {
  // What a script written for the headline figures would do: a queue of GETs, 8 workers, nothing
  // validated, everything kept until the end.
  const base = process.env.WAVIX_BASE_URL;
  const headers = { authorization: `Bearer ${process.env.WAVIX_API_KEY}` };
  const services = JSON.parse(process.env.BENCH_AUDIT_SERVICES);
  const periods = JSON.parse(process.env.BENCH_AUDIT_PERIODS);
  let requests = 0;
  let refused = 0;
  const get = async (path) => {
    for (;;) {
      requests++;
      const r = await fetch(`${base}${path}`, { headers });
      const text = await r.text();
      if (r.status === 429) {
        refused++;
        const retryAfter = r.headers.get("retry-after");
        await new Promise((resolve) => setTimeout(resolve, retryAfter === null ? 100 : Number(retryAfter) * 1000));
        continue;
      }
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`GET ${path}: ${r.status}`);
      return JSON.parse(text);
    }
  };
  const figures = [];
  const sessions = [];
  const brands = [];
  const queue = [];
  const add = (task) => queue.push(task);
  add(async () => get("/v1/profile"));
  periods.forEach((period, p) => {
    for (const service of services) {
      add(async () => {
        const listed = (await get(`/v1/two-fa/service/${service}/sessions?from=${period.from}&to=${period.to}`)) ?? [];
        let verified = 0;
        let charge = 0;
        for (const s of listed) {
          if (s.status === "verified") verified++;
          charge += Number(s.charge ?? 0);
        }
        figures.push({ service, period: p === 0 ? "current" : "previous", sessions: listed.length, verified, charge });
        if (p === 0) sessions.push(...listed);
      });
    }
  });
  const vettings = (id) => async () => {
    const list = (await get(`/v3/10dlc/brands/${id}/vettings`)) ?? [];
    const newest = [...list].sort((a, b) => String(b.create_date).localeCompare(String(a.create_date)))[0];
    brands.push({ brand_id: id, vettings: list.length, score: newest?.vetting_score ?? null });
  };
  add(async () => {
    const first = await get("/v3/10dlc/brands?per_page=100&page=1");
    for (const b of first.items) add(vettings(b.brand_id));
    for (let page = 2; page <= first.pagination.total_pages; page++) {
      add(async () => {
        const next = await get(`/v3/10dlc/brands?per_page=100&page=${page}`);
        for (const b of next.items) add(vettings(b.brand_id));
      });
    }
  });
  let active = 0;
  await new Promise((resolve, reject) => {
    const pump = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < 8 && queue.length > 0) {
        const task = queue.shift();
        active++;
        task().then(
          () => {
            active--;
            pump();
          },
          reject,
        );
      }
    };
    pump();
  });
  require("node:fs").writeFileSync(out, JSON.stringify({ figures, brands, sessions }, null, 2));
  return { requests, refused, sessions: sessions.length, brands: brands.length };
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
  } else if (what === "loop-audit") {
    detail = await loopAudit(file);
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
