"use strict";
/**
 * The Pulumi scenario of `npm run bench`, under the real engine: the CLI built by
 * `npm run pulumi:cli` (Pulumi v3.259.0), a local file backend, and the root `Pulumi.yaml`'s
 * program run as a user runs it, in a copy of the checkout with a `wavix.yaml` of N existing
 * numbers (test/helpers/real-pulumi.ts `RealStack`). Steps: an adopting `up`, a no-change `up`, a
 * `preview`, a `refresh` (`--parallel 16`); for each, requests, wall time, the checkpoint's size and
 * the bytes the CLI wrote. With the engine's checkpoint after every step, and with
 * PULUMI_SKIP_CHECKPOINTS (one at the end). 10,000 numbers run only with PULUMI_SKIP_CHECKPOINTS:
 * an adopting `up` rewriting a 10 MB checkpoint after each of 10,000 steps writes some 100 GB.
 * Skipped, saying so, when the CLI has not been built.
 */
const { execFileSync } = require("node:child_process");
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

/**
 * @param {{ numbers: number, latencyMs: number, parallel?: number, skipCheckpoints?: boolean }} options
 */
async function runPulumiScenario({ numbers, latencyMs, parallel = 16, skipCheckpoints = false }) {
  const { RealStack, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  // A copy of the checkout (package.json, dist/, Pulumi.yaml; node_modules linked) with wavix.yaml.
  const dir = mkdtempSync(join(tmpdir(), "wavix-bench-pulumi-"));
  try {
    for (const f of ["package.json", "Pulumi.yaml"]) cpSync(join(ROOT, f), join(dir, f));
    for (const d of ["dist", "schemas"]) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const doc = { version: 1, numbers: seed.numbers.map((n) => ({ number: n.number, sms_enabled: n.sms_enabled === true })) };
    writeFileSync(join(dir, "wavix.yaml"), stringify(doc, { lineWidth: 0 }));
    const stack = new RealStack({
      projectDir: dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, ...(skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}) },
      parallel,
      skipOutputs: true,
    });
    const out = {};
    // A shared machine's noise is larger than the gains being measured: steps that change nothing
    // run 3 times up to 1,000 numbers (else once) and report the median.
    const runs = numbers <= 1000 ? 3 : 1;
    for (const [name, op] of [["upAdopt", "up"], ["upNoChange", "up"], ["preview", "preview"], ["refresh", "refresh"]]) {
      const samples = [];
      let result;
      for (let i = 0; i < (name === "upNoChange" || name === "preview" ? runs : 1); i++) {
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
    return out;
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { runPulumiScenario, requireTs };

if (require.main === module) {
  const numbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
  runPulumiScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20), skipCheckpoints: process.env.BENCH_SKIP_CHECKPOINTS === "1" }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"),
    (e) => {
      process.stderr.write(`pulumi bench failed: ${e.message}\n${e.result ? e.result.programOutput.slice(-2000) : ""}\n`);
      process.exitCode = 1;
    },
  );
}
