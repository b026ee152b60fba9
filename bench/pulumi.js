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
 * engine, checkpoint); and, native, the plugin's start (spawn to its port). With the engine's checkpoint after every step, and with
 * PULUMI_SKIP_CHECKPOINTS (one at the end). 10,000 numbers run only with PULUMI_SKIP_CHECKPOINTS:
 * an adopting `up` rewriting a 10 MB checkpoint after each of 10,000 steps writes some 100 GB.
 * Skipped, saying so, when the CLI has not been built.
 */
const { execFileSync, spawn } = require("node:child_process");
const { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
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

/** Milliseconds from spawning `bin/pulumi-resource-wavix` to the port on its first line (median of `runs`). */
async function pluginStartMs(runs = 5) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(ROOT, "bin", "pulumi-resource-wavix"), "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"] });
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
  return {
    wallSeconds: round(wallSeconds),
    providerBusySeconds: round(busy),
    otherSeconds: round(wallSeconds - busy),
    providerCalls: byMethod,
  };
}

/**
 * @param {{ numbers: number, latencyMs: number, parallel?: number, skipCheckpoints?: boolean, provider?: "dynamic" | "native", samples?: number }} options
 *   `samples`: runs of each step that changes nothing, up to 1,000 numbers (default 3; `npm run bench` runs 1 without --full)
 */
async function runPulumiScenario({ numbers, latencyMs, parallel = 16, skipCheckpoints = false, provider = "dynamic", samples: repeat = 3 }) {
  const { RealStack, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  // A copy of the checkout (package.json, dist/, Pulumi.yaml; node_modules linked) with wavix.yaml.
  const dir = mkdtempSync(join(tmpdir(), "wavix-bench-pulumi-"));
  try {
    for (const f of ["package.json", "Pulumi.yaml"]) cpSync(join(ROOT, f), join(dir, f));
    if (provider === "native") {
      writeFileSync(join(dir, "Pulumi.yaml"), `${readFileSync(join(dir, "Pulumi.yaml"), "utf8")}plugins:\n  providers:\n    - name: wavix\n      path: ${join(ROOT, "bin")}\n`);
    }
    for (const d of ["dist", "schemas"]) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const doc = { version: 1, numbers: seed.numbers.map((n) => ({ number: n.number, sms_enabled: n.sms_enabled === true })) };
    writeFileSync(join(dir, "wavix.yaml"), stringify(doc, { lineWidth: 0 }));
    const stack = new RealStack({
      projectDir: dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url, "wavix-sync:provider": provider },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, ...(skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}) },
      parallel,
      skipOutputs: true,
    });
    const out = {};
    // A shared machine's noise is larger than the gains being measured: steps that change nothing
    // run `samples` (3) times up to 1,000 numbers (else once) and report the median.
    const runs = numbers <= 1000 ? repeat : 1;
    const steps = [
      ["upAdopt", "up"],
      ["upNoChange", "up"],
      ["upNoChangeWithPreview", "upWithPreview"],
      ["preview", "preview"],
      ["refresh", "refresh"],
    ];
    for (const [name, op] of steps) {
      const samples = [];
      let result;
      for (let i = 0; i < (name === "upAdopt" || name === "refresh" ? 1 : runs); i++) {
        // The adopting up with per-step checkpoints leaves some 2 GB for the kernel to write back:
        // flushed first, so each step is timed on its own, not with the previous one's disk writes.
        execFileSync("sync");
        sim.log.length = 0;
        const started = process.hrtime.bigint();
        result = await stack[op]();
        samples.push(Number(process.hrtime.bigint() - started) / 1e9);
      }
      const wallSeconds = [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)];
      const steps = {};
      for (const s of result.steps) steps[s.op] = (steps[s.op] ?? 0) + 1;
      const checkpointBytes = Buffer.byteLength(stack.checkpointText());
      out[name] = {
        requests: sim.log.length,
        wallSeconds,
        ...(samples.length > 1 ? { samples } : {}),
        checkpointBytes,
        bytesPerNumber: Math.round(checkpointBytes / numbers),
        bytesWritten: result.bytesWritten ?? null,
        steps,
      };
    }
    // One more no-change up with its preview, its gRPC calls logged: where the time goes.
    const grpcLog = join(dir, "grpc.log");
    stack.setEnv("PULUMI_DEBUG_GRPC", grpcLog);
    const started = process.hrtime.bigint();
    const startedMs = Date.now();
    await stack.upWithPreview();
    out.profile = profileOf(grpcLog, Number(process.hrtime.bigint() - started) / 1e9, startedMs);
    stack.setEnv("PULUMI_DEBUG_GRPC", undefined);
    if (provider === "native") out.pluginStartMs = await pluginStartMs();
    return out;
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { runPulumiScenario, requireTs, pluginStartMs };

if (require.main === module) {
  const numbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
  const provider = process.env.BENCH_PULUMI_PROVIDER ?? "native";
  runPulumiScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20), skipCheckpoints: process.env.BENCH_SKIP_CHECKPOINTS === "1", provider }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"),
    (e) => {
      process.stderr.write(`pulumi bench failed: ${e.message}\n${e.result ? e.result.programOutput.slice(-2000) : ""}\n`);
      process.exitCode = 1;
    },
  );
}
