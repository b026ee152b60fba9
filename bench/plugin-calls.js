"use strict";
/**
 * The native plugin's per-call cost and readiness, without the engine (docs/SPEED.md, "The native
 * plugin's per-call cost"): each plugin (ours, bin/pulumi-resource-wavix; the floors of
 * bench/pulumi.js, when there) is spawned as the engine spawns it, and a gRPC client on the same
 * stubs sends it what the engine sends for a no-change `up` of a program of PhoneNumbers: GetPluginInfo
 * (the handshake), CheckConfig and Configure, then a Check and a Diff per resource, one call at a
 * time (as the engine's step generator does). Printed per plugin: spawn to port, the handshake to
 * the end of the first Check, the plugin's CPU from its spawn to its port and to its first Check answered, a Check and a Diff (round trip, median of rounds), the plugin's own
 * CPU time for a resource's Check and Diff (from /proc: what the load of the moment distorts
 * least), and ours as a ratio to each floor. The client's own cost is in every figure alike.
 *
 *   node bench/plugin-calls.js                # 1,000 resources, 3 rounds, the plugins interleaved
 *   BENCH_CALLS=5000 BENCH_ROUNDS=5 node bench/plugin-calls.js
 *   BENCH_BASELINE_PLUGIN=../other/bin/pulumi-resource-wavix node bench/plugin-calls.js   # beside another build
 *   BENCH_PLUGIN_CA_CERTS=1 node bench/plugin-calls.js   # the plugins keep NODE_EXTRA_CA_CERTS (removed by default, as bench/pulumi.js's engine does)
 */
const { spawn } = require("node:child_process");
const { existsSync, readdirSync, readFileSync } = require("node:fs");
const { loadavg } = require("node:os");
const { join } = require("node:path");
const { configRequests, connect, phoneNumberRequests, portOf, providerStubs } = require("../scripts/plugin-client");

const ROOT = join(__dirname, "..");
const stubs = providerStubs(ROOT);
if (!stubs) throw new Error("the plugin bench needs @pulumi/pulumi (npm ci)");

function plugins() {
  const out = [{ name: "ours", bin: join(ROOT, "bin", "pulumi-resource-wavix") }];
  // BENCH_BASELINE_PLUGIN: another build of ours (e.g. another checkout's bin/pulumi-resource-wavix), run as "baseline".
  if (process.env.BENCH_BASELINE_PLUGIN) out.push({ name: "baseline", bin: process.env.BENCH_BASELINE_PLUGIN });
  const node = join(__dirname, "floor-node", "pulumi-resource-wavix");
  if (existsSync(node)) out.push({ name: "node floor", bin: node });
  const go = join(ROOT, ".tools", "pulumi-floor", "bin", "pulumi-resource-wavix");
  if (existsSync(go)) out.push({ name: "go floor", bin: go });
  return out;
}

/**
 * CPU time a process has used, in ms (Linux /proc; `undefined` elsewhere): the run time of its
 * threads in nanoseconds (/proc/PID/task/TID/schedstat), else user + system in clock ticks (10 ms).
 */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    // no schedstat: the clock ticks below
  }
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function start(bin) {
  const t0 = nowMs();
  // BENCH_PLUGIN_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): a Node.js plugin is run with them.
  const nodeArgs = (process.env.BENCH_PLUGIN_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // The environment the engine gives a plugin in bench/pulumi.js (RealStack: no NODE_EXTRA_CA_CERTS,
  // test/helpers/child-env.ts); BENCH_PLUGIN_CA_CERTS=1 keeps it (Node parses the bundle at every start).
  const env = { ...process.env };
  if (process.env.BENCH_PLUGIN_CA_CERTS !== "1") delete env.NODE_EXTRA_CA_CERTS;
  const child =
    nodeArgs.length > 0 && !bin.includes("pulumi-floor")
      ? spawn(process.execPath, [...nodeArgs, bin, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"], env })
      : spawn(bin, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"], env });
  return portOf(child).then(
    (port) => ({ child, port, startMs: nowMs() - t0, startCpuMs: cpuMs(child.pid) }),
    (e) => Promise.reject(new Error(`${bin}: ${e.message}`)),
  );
}

/** A no-change `up`'s Check and Diff of the i-th number. */
const requests = (i) => phoneNumberRequests(stubs, String(15550000000 + i));

/** One plugin's figures over `n` resources: its start, the first Check after the handshake, a Check and a Diff each. */
async function measure(bin, n, reqs) {
  const { child, port, startMs, startCpuMs } = await start(bin);
  const { client, call } = connect(stubs, port);
  try {
    const { checkConfig, configure } = configRequests(stubs, "bench-key", "http://127.0.0.1:9");
    await call("getPluginInfo", new stubs.Empty());
    const handshake = nowMs();
    await call("checkConfig", checkConfig);
    await call("configure", configure);
    await call("check", reqs[0].check);
    const firstCheckMs = nowMs() - handshake;
    // The plugin's CPU from its spawn to its first Check answered (loads included; what the load of the moment distorts least).
    const firstCheckCpuMs = cpuMs(child.pid);
    let checkMs = 0;
    let diffMs = 0;
    const cpuBefore = cpuMs(child.pid);
    for (let i = 0; i < n; i++) {
      const a = nowMs();
      await call("check", reqs[i].check);
      const b = nowMs();
      await call("diff", reqs[i].diff);
      checkMs += b - a;
      diffMs += nowMs() - b;
    }
    const cpuAfter = cpuMs(child.pid);
    const cpuPerResourceMs = cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / n;
    return { startMs, startCpuMs, firstCheckMs, firstCheckCpuMs, checkMs: checkMs / n, diffMs: diffMs / n, cpuPerResourceMs };
  } finally {
    client.close();
    child.kill("SIGINT");
  }
}

async function main() {
  const n = Number(process.env.BENCH_CALLS ?? 1000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const reqs = Array.from({ length: n }, (_, i) => requests(i));
  // BENCH_PLUGINS: the plugins to run, by name (comma-separated: ours, node floor, go floor).
  const only = process.env.BENCH_PLUGINS?.split(",").map((x) => x.trim());
  const list = plugins().filter((p) => !only || only.includes(p.name));
  const samples = new Map(list.map((p) => [p.name, []]));
  for (let r = 0; r < rounds; r++) for (const p of list) samples.get(p.name).push(await measure(p.bin, n, reqs));
  const fig = {};
  for (const p of list) {
    const s = samples.get(p.name);
    fig[p.name] = Object.fromEntries(["startMs", "startCpuMs", "firstCheckMs", "firstCheckCpuMs", "checkMs", "diffMs", "cpuPerResourceMs"].map((k) => [k, Number(median(s.map((x) => x[k])).toFixed(3))]));
  }
  const out = { calls: n, rounds, plugins: fig, loadAverage: loadavg().map((x) => Number(x.toFixed(2))) };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  const ours = fig.ours;
  for (const [name, f] of Object.entries(fig)) {
    const ratio = name === "ours" || !ours ? "" : `  ours/${name}: Check ${(ours.checkMs / f.checkMs).toFixed(2)}×, Diff ${(ours.diffMs / f.diffMs).toFixed(2)}×, Check+Diff ${((ours.checkMs + ours.diffMs) / (f.checkMs + f.diffMs)).toFixed(2)}×, CPU ${(ours.cpuPerResourceMs / f.cpuPerResourceMs).toFixed(2)}×`;
    process.stdout.write(
      `${name.padEnd(11)} start ${f.startMs.toFixed(0)} ms (CPU ${f.startCpuMs.toFixed(0)} ms), first Check ${f.firstCheckMs.toFixed(0)} ms after the handshake (CPU from spawn ${f.firstCheckCpuMs.toFixed(0)} ms), Check ${f.checkMs.toFixed(3)} ms, Diff ${f.diffMs.toFixed(3)} ms, the plugin's CPU ${f.cpuPerResourceMs.toFixed(3)} ms a resource${ratio}\n`,
    );
  }
  process.stdout.write(`load average ${out.loadAverage.join(" ")}\n`);
}

main().catch((e) => {
  process.stderr.write(`plugin-calls bench failed: ${e.message}\n`);
  process.exitCode = 1;
});
