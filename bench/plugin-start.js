"use strict";
/**
 * What the native plugin's start costs in process (docs/SPEED.md, "The native plugin's start"):
 * the modules loaded to its port, then CheckConfig, Configure and a first `PhoneNumber` Check
 * through its handlers (no gRPC, no engine), each phase's CPU and module count, in a fresh Node
 * process per sample (run without NODE_EXTRA_CA_CERTS, as bench/pulumi.js's engine starts it).
 * With `BENCH_BASELINE_DIR` (another checkout, built), the two are interleaved sample by sample.
 *
 *   node bench/plugin-start.js                                  # 5 samples, medians
 *   BENCH_BASELINE_DIR=../main BENCH_SAMPLES=9 node bench/plugin-start.js
 */
const { execFileSync } = require("node:child_process");
const { loadavg } = require("node:os");
const { join, resolve } = require("node:path");

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/** One sample, run in this file's child process: prints its figures as JSON. */
async function sample(dir) {
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const mods = () => Object.keys(require.cache).length;
  // The requests are built with the stubs, this bench's own cost (the plugin reads them by hand and
  // loads no stubs for these calls): loaded before the first figure. A baseline build that loads the
  // stubs itself finds them loaded here, so its figures leave them out too; spawn to port
  // (bench/pulumi.js `pluginStartMs`) is the whole start.
  const client = require(join(dir, "scripts/plugin-client.js")).providerStubs(dir);
  const pb = client.pb;
  const { Struct } = client;
  const c0 = cpu();
  const m0 = mods();
  const stubs = require(join(dir, "dist/pulumi/plugin/main.js")).loadStubs();
  const { WavixProvider } = require(join(dir, "dist/pulumi/plugin/server.js"));
  for (const m of ["h2-server", "fast-wire", "service"]) require(join(dir, "dist/pulumi/plugin", `${m}.js`));
  const c1 = cpu();
  const m1 = mods();
  const h = new WavixProvider(stubs, {}).handlers();
  const call = (name, req) => new Promise((ok, fail) => h[name]({ request: req }, (err, r) => (err ? fail(err) : ok(r))));
  const settings = () => Struct.fromJavaScript({ apiKey: { ...SECRET, value: "bench-key" }, baseUrl: "http://127.0.0.1:9" });
  const cfg = new pb.CheckRequest();
  cfg.setUrn("urn:pulumi:bench::start::pulumi:providers:wavix::default");
  cfg.setNews(settings());
  await call("checkConfig", cfg);
  const conf = new pb.ConfigureRequest();
  conf.setArgs(settings());
  await call("configure", conf);
  const c2 = cpu();
  const m2 = mods();
  const check = new pb.CheckRequest();
  check.setUrn("urn:pulumi:bench::start::wavix:index:PhoneNumber::n1");
  check.setType("wavix:index:PhoneNumber");
  check.setName("n1");
  const inputs = Struct.fromJavaScript({ number: "15550000001", smsEnabled: true });
  check.setOlds(inputs);
  check.setNews(inputs);
  await call("check", check);
  const c3 = cpu();
  const m3 = mods();
  const r = (x) => Number(x.toFixed(1));
  process.stdout.write(
    JSON.stringify({ toPortCpuMs: r(c1 - c0), toPortModules: m1 - m0, configCpuMs: r(c2 - c1), configModules: m2 - m1, checkCpuMs: r(c3 - c2), checkModules: m3 - m2, totalCpuMs: r(c3 - c0), totalModules: m3 - m0 }),
  );
}

function main() {
  const samples = Number(process.env.BENCH_SAMPLES ?? 5);
  const builds = [["ours", resolve(__dirname, "..")]];
  if (process.env.BENCH_BASELINE_DIR) builds.push(["baseline", resolve(process.env.BENCH_BASELINE_DIR)]);
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const got = new Map(builds.map(([name]) => [name, []]));
  for (let i = 0; i < samples; i++) {
    for (const [name, dir] of builds) got.get(name).push(JSON.parse(execFileSync(process.execPath, [__filename, "--sample", dir], { env, encoding: "utf8" })));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  for (const [name, rows] of got) {
    const m = Object.fromEntries(Object.keys(rows[0]).map((k) => [k, median(rows.map((x) => x[k]))]));
    process.stdout.write(
      `${name.padEnd(9)} to the port ${m.toPortCpuMs} ms CPU (${m.toPortModules} modules), CheckConfig + Configure ${m.configCpuMs} ms (${m.configModules}), first Check ${m.checkCpuMs} ms (${m.checkModules}), in all ${m.totalCpuMs} ms (${m.totalModules} modules)\n`,
    );
  }
  process.stdout.write(`medians of ${samples}; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}\n`);
}

if (process.argv[2] === "--sample") {
  sample(process.argv[3]).catch((e) => {
    process.stderr.write(`plugin-start sample failed: ${e.message}\n`);
    process.exitCode = 1;
  });
} else {
  main();
}
