"use strict";
/**
 * The Pulumi scenario of `npm run bench`, under the real engine: the CLI built by
 * `npm run pulumi:cli` (Pulumi v3.259.0), a local file backend, and the root `Pulumi.yaml`'s
 * program run as a user runs it, in a copy of the checkout with a `wavix.yaml` of N existing
 * numbers (test/helpers/real-pulumi.ts `RealStack`), on the dynamic resources or the native
 * provider (`provider`: config `wavix-sync:provider`, the plugin found by `plugins.providers[].path`
 * = this checkout's bin/). Steps: an adopting `up`, a no-change `up --skip-preview`, a no-change
 * `up` with its preview (what users run), a `preview`, a `refresh` (`--parallel 16`); for each,
 * requests, wall time, the checkpoint's size and the bytes the CLI wrote. Then `profile`: one more
 * no-change `up` with its preview, its gRPC calls logged by the engine (PULUMI_DEBUG_GRPC), split
 * into the provider's busy time (the union of its calls, by method) and the rest (CLI, program,
 * engine, checkpoint) and the first Check after the handshake; and, native, the plugin's start (spawn to its port).
 * Native, each step also runs behind the same program with two no-op floor providers (docs/SPEED.md,
 * "The floor": Go on Pulumi's provider helpers, tools/pulumi/floor; Node.js, bench/floor-node),
 * interleaved round by round with ours, and each figure is given as a ratio to theirs. `program:
 * "yaml"` runs a Pulumi YAML program of N PhoneNumbers instead of the root program (what
 * `node bench/pulumi.js` runs by default: BENCH_PULUMI_PROGRAM=root for the other); `program: "go"` the
 * same N PhoneNumbers as a Go program on the generated SDK (sdk/go; the Go language host builds it
 * at every run, the same for every provider). With the engine's checkpoint after every step, and with
 * PULUMI_SKIP_CHECKPOINTS (one at the end). 10,000 numbers run only with PULUMI_SKIP_CHECKPOINTS:
 * an adopting `up` rewriting a 10 MB checkpoint after each of 10,000 steps writes some 100 GB.
 * Skipped, saying so, when the CLI has not been built.
 */
const { execFileSync, spawn } = require("node:child_process");
const { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } = require("node:fs");
const { loadavg, tmpdir } = require("node:os");
const { join } = require("node:path");
const ts = require("typescript");
const { stringify } = require("yaml");
const { startSimulator, generateAccount } = require("../dist/simulator");

const ROOT = join(__dirname, "..");
const KEY = "bench-pulumi-key";

/** Loads test/helpers/*.ts as CommonJS (type-stripped) for this process only. */
function requireTs(file) {
  const previous = require.extensions[".ts"];
  require.extensions[".ts"] = (module, filename) => {
    const { outputText } = ts.transpileModule(readFileSync(filename, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: filename,
    });
    module._compile(outputText, filename);
  };
  try {
    return require(file);
  } finally {
    if (previous) require.extensions[".ts"] = previous;
    else delete require.extensions[".ts"];
  }
}

/**
 * The environment of a Node process the bench starts itself (a plugin, the CLI's plan): this
 * process's without NODE_EXTRA_CA_CERTS, as the engine's Node processes get it under RealStack
 * (test/helpers/child-env.ts): Node parses that bundle at every start, before any code runs (some
 * 70 ms of CPU on this project's machine), which nothing talking to the loopback simulator needs.
 */
function pluginEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Milliseconds from spawning `bin/pulumi-resource-wavix` to the port on its first line (median of `runs`). */
async function pluginStartMs(runs = 5) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    // In the environment the engine gives it here (RealStack: no NODE_EXTRA_CA_CERTS, test/helpers/child-env.ts).
    const child = spawn(process.execPath, [join(ROOT, "bin", "pulumi-resource-wavix"), "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"], env: pluginEnv() });
    await new Promise((resolve, reject) => {
      child.stdout.once("data", resolve);
      child.once("exit", (code) => reject(new Error(`pulumi-resource-wavix exited (${code}) before printing its port`)));
    });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    child.removeAllListeners("exit");
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGINT");
    });
  }
  return Number([...samples].sort((a, b) => a - b)[Math.floor((runs - 1) / 2)].toFixed(1));
}

/**
 * Where a run's time goes, from the engine's gRPC log (PULUMI_DEBUG_GRPC: one JSON entry per call
 * to a provider, stamped when it completed, with its duration): the resource provider's busy time
 * (the union of its calls, as the engine waits on them: round trip included), by method, and the
 * rest of the wall time (the CLI's start, the program, the engine's own work, the checkpoint).
 * The resource monitor's calls (the program's RegisterResource) are logged without a time.
 */
function profileOf(file, wallSeconds, startedMs) {
  const calls = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.method && e.progress !== "request_started")
    .map((e) => {
      const end = Date.parse(e.timestamp);
      return { method: e.method, start: end - (e.duration ?? 0) / 1e6, end };
    })
    // Entries without a time (the zero time) or with a duration reaching back before the run started
    // (streams held open by the engine) say nothing about where the run's time went.
    .filter((c) => c.end > 0 && c.start >= startedMs);
  const union = (xs) => {
    let total = 0;
    let reach = -Infinity;
    for (const x of [...xs].sort((a, b) => a.start - b.start)) {
      if (x.end <= reach) continue;
      total += x.end - Math.max(x.start, reach);
      reach = x.end;
    }
    return total / 1000;
  };
  const provider = calls.filter((c) => c.method.startsWith("/pulumirpc.ResourceProvider/"));
  const byMethod = {};
  for (const c of provider) {
    const m = c.method.split("/").pop();
    byMethod[m] = byMethod[m] ?? { calls: 0, busySeconds: 0 };
    byMethod[m].calls++;
  }
  for (const m of Object.keys(byMethod)) byMethod[m].busySeconds = Number(union(provider.filter((c) => c.method.endsWith(`/${m}`))).toFixed(3));
  const round = (x) => Number(x.toFixed(3));
  const busy = union(provider);
  // The plugin's readiness: from the end of the handshake of the instance that serves the first
  // Check to the end of that Check (docs/SPEED.md, "The native plugin's start"). The log does not
  // say which instance a call went to; the engine starts one for the language host's schema first,
  // so the instance's handshake is the last Handshake (GetPluginInfo on engines without it) to
  // start before the first Check.
  const firstCheck = provider.filter((c) => c.method.endsWith("/Check")).sort((a, b) => a.end - b.end)[0];
  const before = (m) => provider.filter((c) => c.method.endsWith(`/${m}`) && firstCheck && c.start < firstCheck.start).sort((a, b) => b.start - a.start)[0];
  const first = before("Handshake") ?? before("GetPluginInfo");
  return {
    wallSeconds: round(wallSeconds),
    providerBusySeconds: round(busy),
    otherSeconds: round(wallSeconds - busy),
    providerCalls: byMethod,
    ...(first && firstCheck ? { firstCheckAfterHandshakeSeconds: round((firstCheck.end - first.end) / 1000) } : {}),
  };
}

/**
 * The provider's calls of a run, from the engine's gRPC log, in the order they started: method,
 * start (seconds from the run's start) and duration (ms, round trip included).
 */
function callsOf(file, startedMs) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.method?.startsWith("/pulumirpc.ResourceProvider/") && e.progress !== "request_started")
    .map((e) => ({ method: e.method.split("/").pop(), end: Date.parse(e.timestamp), ms: (e.duration ?? 0) / 1e6 }))
    .filter((c) => c.end > 0 && c.end - c.ms >= startedMs)
    .sort((a, b) => a.end - a.ms - (b.end - b.ms))
    .map((c) => `${c.method} at ${((c.end - c.ms - startedMs) / 1000).toFixed(3)} s: ${c.ms.toFixed(1)} ms`);
}

/**
 * The floors (docs/SPEED.md, "The floor"): no-op providers named `wavix` serving the same schema
 * and answering at once, run behind the same program in the same runs as our plugin, so that each
 * figure has the engine's own cost beside it. `go`: Pulumi's Go provider helpers
 * (tools/pulumi/floor, built from the Go module proxy with the CLI's module and cached in
 * .tools/pulumi-floor); `node`: @grpc/grpc-js and the stubs @pulumi/pulumi ships
 * (bench/floor-node). A floor that cannot be had is left out, saying why.
 * @returns {{ dirs: Record<string, string>, skipped: Record<string, string> }}
 */
function floorPlugins() {
  const dirs = { node: join(__dirname, "floor-node") };
  const skipped = {};
  const { buildCached, hasGo } = require("../scripts/go-build");
  if (!hasGo()) skipped.go = "no Go toolchain";
  else {
    const moduleDir = join(ROOT, "tools", "pulumi");
    const bin = join(ROOT, ".tools", "pulumi-floor", "bin");
    try {
      buildCached({
        moduleDir,
        pkg: "./floor",
        out: join(bin, "pulumi-resource-wavix"),
        files: ["go.mod", "go.sum", "floor/main.go"],
        label: "the Go floor provider",
        log: (m) => process.stderr.write(`bench: ${m}\n`),
      });
      // The schema it serves, read beside the binary: this checkout's.
      cpSync(join(ROOT, "schemas", "pulumi", "schema.json"), join(bin, "schema.json"));
      dirs.go = bin;
    } catch (e) {
      skipped.go = e.message.split("\n")[0];
    }
  }
  return { dirs, skipped };
}

/** A YAML program of the numbers as PhoneNumbers (logical name `n<digits>`), the same for every provider. */
function yamlProgram(numbers, pluginDir) {
  const resources = {};
  for (const n of numbers) resources[`n${n.number}`] = { type: "wavix:index:PhoneNumber", properties: { number: n.number, smsEnabled: n.sms_enabled === true } };
  return stringify({ name: "wavix-bench", runtime: "yaml", plugins: { providers: [{ name: "wavix", path: pluginDir }] }, resources }, { lineWidth: 0 });
}

/** The same N PhoneNumbers as a Go program on the generated SDK (sdk/go, module wavix-sync/sdk/go). */
function goProgram(numbers) {
  const rows = numbers.map((n) => `\t{"${n.number}", ${n.sms_enabled === true}},`).join("\n");
  return `package main

import (
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
\t"wavix-sync/sdk/go/wavix"
)

var numbers = []struct {
\tn   string
\tsms bool
}{
${rows}
}

func main() {
\tpulumi.Run(func(ctx *pulumi.Context) error {
\t\tfor _, x := range numbers {
\t\t\tif _, err := wavix.NewPhoneNumber(ctx, "n"+x.n, &wavix.PhoneNumberArgs{Number: pulumi.String(x.n), SmsEnabled: pulumi.Bool(x.sms)}); err != nil {
\t\t\t\treturn err
\t\t\t}
\t\t}
\t\treturn nil
\t})
}
`;
}

/**
 * Whether the floors run unless told: BENCH_PULUMI_FLOORS=1 or 0 decides; else behind the YAML and Go
 * programs (what they were built for) and not behind the root program, whose runs in `npm run bench`
 * would take three times as long (its floors have not been measured yet: BENCH_PULUMI_FLOORS=1).
 */
function floorsByDefault(program) {
  const env = process.env.BENCH_PULUMI_FLOORS;
  return env === undefined ? program !== "root" : env !== "0";
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * @param {{ numbers: number, latencyMs: number, parallel?: number, skipCheckpoints?: boolean, adoptSkipCheckpoints?: boolean, provider?: "dynamic" | "native", program?: "root" | "yaml" | "go", floors?: boolean, samples?: number, previews?: boolean, profile?: boolean }} options
 *   `samples`: runs of each step that changes nothing, up to 1,000 numbers (default 3; `npm run bench` runs 1 without --full)
 *   `skipCheckpoints`: every step under PULUMI_SKIP_CHECKPOINTS; `adoptSkipCheckpoints`: the adopting
 *   `up` alone (its figure then carries `skipCheckpoints: true`), the steps after it with the
 *   checkpoints on (`npm run bench` at its defaults, where one adopting `up` with them is enough).
 *   `previews: false` leaves out the no-change `up` with its preview and the `preview`; `profile:
 *   false` the profiled `up` (both default true; `npm run bench` leaves them out of the dynamic
 *   resources' and the root program's runs without --full, see bench/run.js).
 *   `program`: the root `Pulumi.yaml`'s program (default), or a YAML or Go program of N PhoneNumbers
 *   (native only). `floors` (native only; default: the YAML and Go programs', see floorsByDefault): each
 *   step also run, interleaved, behind the same program with each floor provider, its median and
 *   ours as a ratio to it. `floorNames` (["go"], ["node"]): those floors only. `only`: those steps
 *   only (the adopting `up` always runs: it makes the state the others start from).
 */
async function runPulumiScenario({
  numbers,
  latencyMs,
  parallel = 16,
  skipCheckpoints = false,
  adoptSkipCheckpoints = false,
  provider = "dynamic",
  program = "root",
  floors = floorsByDefault(program),
  samples: repeat = 3,
  previews = true,
  profile = true,
  floorNames,
  only,
}) {
  const { RealStack, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  if (program !== "root" && provider !== "native") return { skipped: `a ${program === "go" ? "Go" : "YAML"} program needs the native provider` };
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  const variants = [{ name: "ours", pluginDir: join(ROOT, "bin") }];
  const out = {};
  if (provider === "native" && floors) {
    const f = floorPlugins();
    for (const [name, dir] of Object.entries(f.dirs)) if (!floorNames || floorNames.includes(name)) variants.push({ name, pluginDir: dir });
    if (Object.keys(f.skipped).length > 0) out.floorsSkipped = f.skipped;
  }
  const dirs = [];
  try {
    for (const v of variants) {
      // A copy of the checkout (package.json, dist/, Pulumi.yaml; node_modules linked) with wavix.yaml,
      // or a folder with the YAML program alone.
      const dir = mkdtempSync(join(tmpdir(), "wavix-bench-pulumi-"));
      dirs.push(dir);
      let programEnv = {};
      if (program === "yaml") writeFileSync(join(dir, "Pulumi.yaml"), yamlProgram(seed.numbers, v.pluginDir));
      else if (program === "go") {
        const { languageProject } = requireTs(join(ROOT, "test", "helpers", "pulumi-languages.ts"));
        programEnv = languageProject({ language: "go", program: goProgram(seed.numbers), sdkDir: join(ROOT, "sdk"), providerPaths: { wavix: v.pluginDir }, dir }).env;
      } else {
        for (const f of ["package.json", "Pulumi.yaml"]) cpSync(join(ROOT, f), join(dir, f));
        if (provider === "native") {
          writeFileSync(join(dir, "Pulumi.yaml"), `${readFileSync(join(dir, "Pulumi.yaml"), "utf8")}plugins:\n  providers:\n    - name: wavix\n      path: ${v.pluginDir}\n`);
        }
        for (const d of ["dist", "schemas"]) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
        symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
        const doc = { version: 1, numbers: seed.numbers.map((n) => ({ number: n.number, sms_enabled: n.sms_enabled === true })) };
        writeFileSync(join(dir, "wavix.yaml"), stringify(doc, { lineWidth: 0 }));
      }
      v.dir = dir;
      v.stack = new RealStack({
        projectDir: dir,
        config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url, ...(program === "root" ? { "wavix-sync:provider": provider } : {}) },
        secretKeys: ["wavix:apiKey"],
        env: { ...programEnv, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, ...(skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}) },
        parallel,
        skipOutputs: true,
      });
    }
    const ours = variants[0];
    // A shared machine's noise is larger than the gains being measured: steps that change nothing
    // run `samples` (3) times up to 1,000 numbers (else once) and report the median; with floors,
    // each round runs ours and then each floor, so that the load of the moment weighs on all alike.
    const runs = numbers <= 1000 ? repeat : 1;
    const steps = [
      ["upAdopt", "up"],
      ["upNoChange", "up"],
      ...(previews
        ? [
            ["upNoChangeWithPreview", "upWithPreview"],
            ["preview", "preview"],
          ]
        : []),
      ["refresh", "refresh"],
    ].filter(([name]) => !only || name === "upAdopt" || only.includes(name));
    for (const [name, op] of steps) {
      const samples = new Map(variants.map((v) => [v.name, []]));
      // The adopting up under PULUMI_SKIP_CHECKPOINTS alone: one checkpoint at its end, not one a step.
      const skipHere = name === "upAdopt" && adoptSkipCheckpoints && !skipCheckpoints;
      if (skipHere) for (const v of variants) v.stack.setEnv("PULUMI_SKIP_CHECKPOINTS", "true");
      let result;
      let requests = 0;
      for (let i = 0; i < (name === "upAdopt" || name === "refresh" ? 1 : runs); i++) {
        for (const v of variants) {
          // The adopting up with per-step checkpoints leaves some 2 GB for the kernel to write back:
          // flushed first, so each step is timed on its own, not with the previous one's disk writes.
          execFileSync("sync");
          sim.log.length = 0;
          const started = process.hrtime.bigint();
          const r = await v.stack[op]();
          samples.get(v.name).push(Number(process.hrtime.bigint() - started) / 1e9);
          if (v === ours) {
            result = r;
            requests = sim.log.length;
          }
        }
      }
      if (skipHere) for (const v of variants) v.stack.setEnv("PULUMI_SKIP_CHECKPOINTS", undefined);
      const wallSeconds = median(samples.get("ours"));
      const stepCounts = {};
      for (const st of result.steps) stepCounts[st.op] = (stepCounts[st.op] ?? 0) + 1;
      const checkpointBytes = Buffer.byteLength(ours.stack.checkpointText());
      out[name] = {
        requests,
        wallSeconds,
        ...(samples.get("ours").length > 1 ? { samples: samples.get("ours") } : {}),
        checkpointBytes,
        bytesPerNumber: Math.round(checkpointBytes / numbers),
        bytesWritten: result.bytesWritten ?? null,
        steps: stepCounts,
        ...(skipHere ? { skipCheckpoints: true } : {}),
      };
      if (variants.length > 1) {
        out[name].floors = {};
        for (const v of variants.slice(1)) {
          const floor = median(samples.get(v.name));
          out[name].floors[v.name] = { wallSeconds: Number(floor.toFixed(3)), ratio: Number((wallSeconds / floor).toFixed(2)), samples: samples.get(v.name) };
        }
      }
    }
    // One more no-change up with its preview each, its gRPC calls logged: where the time goes.
    for (const v of profile ? variants : []) {
      const grpcLog = join(v.dir, "grpc.log");
      v.stack.setEnv("PULUMI_DEBUG_GRPC", grpcLog);
      const started = process.hrtime.bigint();
      const startedMs = Date.now();
      await v.stack.upWithPreview();
      const profile = profileOf(grpcLog, Number(process.hrtime.bigint() - started) / 1e9, startedMs);
      v.stack.setEnv("PULUMI_DEBUG_GRPC", undefined);
      if (v === ours) out.profile = profile;
      else {
        out.floorProfiles ??= {};
        out.floorProfiles[v.name] = profile;
      }
    }
    if (provider === "native") out.pluginStartMs = await pluginStartMs();
    out.loadAverage = loadavg().map((x) => Number(x.toFixed(2)));
    return out;
  } finally {
    await sim.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The scenario's lines: each step's absolute time beside each floor's and the ratio to it, and
 * where an up's time goes (per method and call, and the first Check after the handshake).
 */
function pulumiLines(label, numbers, r) {
  if (r.skipped) return [`${label}: skipped: ${r.skipped}`];
  const lines = [];
  for (const [name, x] of Object.entries(r)) {
    if (typeof x !== "object" || x === null || x.wallSeconds === undefined || x.requests === undefined) continue;
    const floors = Object.entries(x.floors ?? {})
      .map(([f, y]) => `; ${f} floor ${y.wallSeconds.toFixed(2)} s: ${y.ratio.toFixed(2)}×`)
      .join("");
    lines.push(`${`${label} ${name} (${numbers})`.padEnd(60)} ${String(x.requests).padStart(6)} req  ${x.wallSeconds.toFixed(2).padStart(7)} s${floors}`);
  }
  const perCall = (p) =>
    Object.entries(p.providerCalls)
      .filter(([m]) => m === "Check" || m === "Diff")
      .map(([m, c]) => `${m} ${((c.busySeconds / c.calls) * 1000).toFixed(2)} ms`)
      .join(" + ");
  const describe = (who, p) =>
    `${`${label} ${who}: where an up's time goes`.padEnd(60)} ${p.wallSeconds.toFixed(2)} s, provider busy ${p.providerBusySeconds.toFixed(2)} s (a call: ${perCall(p)})` +
    (p.firstCheckAfterHandshakeSeconds !== undefined ? `, first Check ${p.firstCheckAfterHandshakeSeconds.toFixed(2)} s after the handshake` : "");
  if (r.profile) lines.push(describe("ours", r.profile));
  for (const [f, p] of Object.entries(r.floorProfiles ?? {})) lines.push(describe(`${f} floor`, p));
  for (const [f, why] of Object.entries(r.floorsSkipped ?? {})) lines.push(`${label}: the ${f} floor skipped: ${why}`);
  if (r.pluginStartMs !== undefined) lines.push(`${`${label} plugin start (spawn to port)`.padEnd(60)} ${r.pluginStartMs} ms`);
  if (r.loadAverage) lines.push(`${label}: load average at the end ${r.loadAverage.join(" ")}`);
  return lines;
}

/**
 * One `wavix:index:Account` resource for N numbers (docs/PULUMI.md, "One resource for a whole
 * account"; issue #38 item 2), against its target: a no-change `up` with its preview within the
 * engine's floor for ONE resource (a YAML program of one PhoneNumber behind the Go floor when
 * built, else the Node.js one) plus twice the CLI's plan of the same file (`wavix-sync plan`, a whole process). The
 * three are interleaved, `samples` rounds, medians reported; with BENCH_PULUMI_ACCOUNT_CACHED=1, so are
 * the Account program and the floor's with their plugins from Pulumi's plugin cache.
 * @param {{ numbers: number, latencyMs: number, samples?: number }} options
 */
async function runAccountScenario({ numbers, latencyMs, samples = 3 }) {
  const { RealStack, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  // The Go floor as already built (floorPlugins builds it and copies this checkout's schema beside it;
  // a program of one PhoneNumber needs neither), else the Node.js one.
  const goBin = join(ROOT, ".tools", "pulumi-floor", "bin");
  const f = { dirs: { node: join(__dirname, "floor-node"), ...(existsSync(join(goBin, "pulumi-resource-wavix")) ? { go: goBin } : {}) }, skipped: {} };
  const floorName = f.dirs.go ? "go" : "node";
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  const dirs = [];
  // `pluginDir` undefined: the plugin from the stack's plugin cache (installed below), the package in
  // the project's node_modules, as docs/PULUMI.md's third way installs it.
  const stackIn = (program, pluginDir) => {
    const dir = mkdtempSync(join(tmpdir(), "wavix-bench-account-"));
    dirs.push(dir);
    const plugins = pluginDir ? { plugins: { providers: [{ name: "wavix", path: pluginDir }] } } : {};
    writeFileSync(join(dir, "Pulumi.yaml"), stringify({ name: "wavix-bench", runtime: "yaml", ...plugins, resources: program }, { lineWidth: 0 }));
    if (!pluginDir) {
      mkdirSync(join(dir, "node_modules"));
      symlinkSync(ROOT, join(dir, "node_modules", "wavix-sync"), "dir");
    }
    const doc = { version: 1, numbers: seed.numbers.map((n) => ({ number: n.number, sms_enabled: n.sms_enabled === true })) };
    writeFileSync(join(dir, "wavix.yaml"), stringify(doc, { lineWidth: 0 }));
    const stack = new RealStack({
      projectDir: dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
      skipOutputs: true,
    });
    const install = async (from) => {
      const r = await stack.command(["plugin", "install", "resource", "wavix", require(join(ROOT, "package.json")).version, "--file", from]);
      if (r.code !== 0) throw new Error(`pulumi plugin install failed: ${r.stderr.trim()}`);
    };
    return { dir, stack, install };
  };
  try {
    const account = stackIn({ account: { type: "wavix:index:Account", properties: { file: "wavix.yaml" } } }, join(ROOT, "bin"));
    // Another build's plugin (BENCH_BASELINE_DIR: a checkout with dist/ built), interleaved with ours.
    const baselineDir = process.env.BENCH_BASELINE_DIR;
    const baseline = baselineDir ? stackIn({ account: { type: "wavix:index:Account", properties: { file: "wavix.yaml" } } }, join(baselineDir, "bin")) : undefined;
    // BENCH_PULUMI_ACCOUNT_CACHED=1: the same program with the plugin from Pulumi's plugin cache, where
    // the engine caches a versioned plugin's schema (each phase starts one plugin instead of two),
    // against a target measured the same way: the floor from the plugin cache too (docs/SPEED.md).
    const cached = process.env.BENCH_PULUMI_ACCOUNT_CACHED === "1" ? stackIn({ account: { type: "wavix:index:Account", properties: { file: "wavix.yaml" } } }) : undefined;
    await cached?.install(join(ROOT, "bin"));
    const first = seed.numbers[0];
    const onePhoneNumber = { one: { type: "wavix:index:PhoneNumber", properties: { number: first.number, smsEnabled: first.sms_enabled === true } } };
    const floor = stackIn(onePhoneNumber, f.dirs[floorName]);
    const cachedFloor = cached ? stackIn(onePhoneNumber) : undefined;
    await cachedFloor?.install(f.dirs[floorName]);
    await account.stack.up();
    await baseline?.stack.up();
    await cached?.stack.up();
    await cachedFloor?.stack.up();
    await floor.stack.up();
    // The CLI's plan in the environment the engine's processes get here (no NODE_EXTRA_CA_CERTS: pluginEnv).
    const env = { ...pluginEnv(), WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
    const times = { account: [], floor: [], plan: [], ...(baseline ? { baseline: [] } : {}), ...(cached ? { cached: [], cachedFloor: [] } : {}) };
    let requests = 0;
    const time = async (name, fn) => {
      const started = process.hrtime.bigint();
      await fn();
      times[name].push(Number(process.hrtime.bigint() - started) / 1e9);
    };
    for (let i = 0; i < samples; i++) {
      sim.log.length = 0;
      await time("account", () => account.stack.upWithPreview());
      requests = sim.log.length;
      if (baseline) await time("baseline", () => baseline.stack.upWithPreview());
      if (cached) await time("cached", () => cached.stack.upWithPreview());
      await time("floor", () => floor.stack.upWithPreview());
      if (cachedFloor) await time("cachedFloor", () => cachedFloor.stack.upWithPreview());
      await time("plan", () => new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [join(ROOT, "bin", "wavix-sync.js"), "plan", "-f", join(account.dir, "wavix.yaml")], { env, stdio: "ignore" });
        child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`wavix-sync plan exited ${code}`))));
      }));
    }
    const m = { account: median(times.account), floor: median(times.floor), plan: median(times.plan) };
    const target = m.floor + 2 * m.plan;
    // One more no-change up with its preview, its gRPC calls logged: each of the Account's calls, in order.
    const profiled = async (stack, dir) => {
      const grpcLog = join(dir, "grpc.log");
      stack.setEnv("PULUMI_DEBUG_GRPC", grpcLog);
      const startedMs = Date.now();
      await stack.upWithPreview();
      stack.setEnv("PULUMI_DEBUG_GRPC", undefined);
      return callsOf(grpcLog, startedMs);
    };
    const calls = await profiled(account.stack, account.dir);
    const baselineCalls = baseline ? await profiled(baseline.stack, baseline.dir) : undefined;
    // The floor's calls the same way: where its phases start and end beside ours.
    const floorCalls = await profiled(floor.stack, floor.dir);
    return {
      numbers,
      requests,
      upNoChangeWithPreviewSeconds: Number(m.account.toFixed(3)),
      floor: floorName,
      floorOneResourceSeconds: Number(m.floor.toFixed(3)),
      cliPlanSeconds: Number(m.plan.toFixed(3)),
      targetSeconds: Number(target.toFixed(3)),
      ratioToTarget: Number((m.account / target).toFixed(2)),
      ...(cached
        ? {
            cachedPluginSeconds: Number(median(times.cached).toFixed(3)),
            cachedFloorSeconds: Number(median(times.cachedFloor).toFixed(3)),
            cachedTargetSeconds: Number((median(times.cachedFloor) + 2 * m.plan).toFixed(3)),
            cachedPluginRatioToTarget: Number((median(times.cached) / (median(times.cachedFloor) + 2 * m.plan)).toFixed(2)),
          }
        : {}),
      ...(baseline ? { baselineSeconds: Number(median(times.baseline).toFixed(3)), baselineRatioToTarget: Number((median(times.baseline) / target).toFixed(2)) } : {}),
      samples: times,
      calls,
      ...(baselineCalls ? { baselineCalls } : {}),
      floorCalls,
      loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
    };
  } finally {
    await sim.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** The Account scenario's line: its time beside its target (the floor for one resource + 2 × the CLI's plan). */
function accountLines(r) {
  if (r.skipped) return [`pulumi Account resource: skipped: ${r.skipped}`];
  return [
    `${`pulumi Account resource no-change up with preview (${r.numbers})`.padEnd(60)} ${String(r.requests).padStart(6)} req  ${r.upNoChangeWithPreviewSeconds.toFixed(2).padStart(7)} s; ` +
      `target ${r.targetSeconds.toFixed(2)} s = ${r.floor} floor for one resource ${r.floorOneResourceSeconds.toFixed(2)} s + 2 × CLI plan ${r.cliPlanSeconds.toFixed(2)} s: ${r.ratioToTarget.toFixed(2)}× (load ${r.loadAverage.join(" ")})`,
    ...(r.cachedPluginSeconds !== undefined
      ? [
          `${"pulumi Account resource, both plugins from the plugin cache".padEnd(60)}             ${r.cachedPluginSeconds.toFixed(2).padStart(7)} s; ` +
            `target ${r.cachedTargetSeconds.toFixed(2)} s = ${r.floor} floor ${r.cachedFloorSeconds.toFixed(2)} s + 2 × CLI plan: ${r.cachedPluginRatioToTarget.toFixed(2)}× (schemas cached: one plugin start a phase)`,
        ]
      : []),
    ...(r.baselineSeconds !== undefined ? [`${"pulumi Account resource, the baseline build (BENCH_BASELINE_DIR)".padEnd(60)}             ${r.baselineSeconds.toFixed(2).padStart(7)} s: ${r.baselineRatioToTarget.toFixed(2)}×`] : []),
  ];
}

module.exports = { runPulumiScenario, runAccountScenario, accountLines, requireTs, pluginStartMs, pulumiLines, floorPlugins, yamlProgram };

if (require.main === module && process.env.BENCH_PULUMI_ACCOUNT === "1") {
  const numbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
  runAccountScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20), samples: Number(process.env.BENCH_SAMPLES ?? 3) }).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n${accountLines(r).join("\n")}\n`),
    (e) => {
      process.stderr.write(`pulumi Account bench failed: ${e.message}\n`);
      process.exitCode = 1;
    },
  );
} else if (require.main === module) {
  const numbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
  const provider = process.env.BENCH_PULUMI_PROVIDER ?? "native";
  const program = process.env.BENCH_PULUMI_PROGRAM ?? "yaml";
  const skipCheckpoints = process.env.BENCH_SKIP_CHECKPOINTS === "1";
  // BENCH_PULUMI_FLOOR=go (or node): one floor only; BENCH_PULUMI_STEPS=upNoChangeWithPreview,preview: those
  // steps only (and the adopting up); BENCH_PULUMI_PROFILE=0: no profiled up. For a run at 10,000 in minutes, not an hour.
  const list = (v) => (v ? v.split(",").map((x) => x.trim()) : undefined);
  runPulumiScenario({
    numbers,
    latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20),
    skipCheckpoints,
    provider,
    program,
    floorNames: list(process.env.BENCH_PULUMI_FLOOR),
    only: list(process.env.BENCH_PULUMI_STEPS),
    profile: process.env.BENCH_PULUMI_PROFILE !== "0",
  }).then(
    (r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + "\n");
      process.stdout.write(pulumiLines(`pulumi ${provider} ${program} program${skipCheckpoints ? " (skip checkpoints)" : ""}`, numbers, r).join("\n") + "\n");
    },
    (e) => {
      process.stderr.write(`pulumi bench failed: ${e.message}\n${e.result ? e.result.programOutput.slice(-2000) : ""}\n`);
      process.exitCode = 1;
    },
  );
}
