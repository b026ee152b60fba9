"use strict";
/**
 * The Pulumi scenario of `npm run bench` (issue #11): through the engine emulator
 * (test/helpers/engine-emulator.ts: the real runner and dynamic-provider host, a checkpoint kept
 * between runs), the root Pulumi.yaml program adopts N existing numbers (`up`), runs again with
 * nothing to change (`up`), then `refresh`es — requests, wall time and checkpoint size of each.
 * The emulator is TypeScript: it is compiled on the fly here (typescript is a dev dependency).
 */
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
 * @param {{ numbers: number, latencyMs: number }} options
 * @returns {Promise<Record<string, { requests: number, byMethod: Record<string, number>, wallSeconds: number, checkpointBytes: number, steps: Record<string, number> }>>}
 */
async function runPulumiScenario({ numbers, latencyMs }) {
  const { EngineEmulator } = requireTs(join(ROOT, "test", "helpers", "engine-emulator.ts"));
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

    const engine = new EngineEmulator({
      projectDir: dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
    const out = {};
    for (const [name, op] of [["pulumiUpAdopt", "up"], ["pulumiUpNoChange", "up"], ["pulumiRefresh", "refresh"]]) {
      sim.log.length = 0;
      const started = process.hrtime.bigint();
      const result = await engine[op]();
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const byMethod = {};
      for (const e of sim.log) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
      const steps = {};
      for (const s of result.steps) steps[s.op] = (steps[s.op] ?? 0) + 1;
      out[name] = { requests: sim.log.length, byMethod, wallSeconds, checkpointBytes: Buffer.byteLength(engine.checkpointText()), steps };
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
  runPulumiScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20) }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"),
    (e) => {
      process.stderr.write(`pulumi bench failed: ${e.message}\n${e.result ? e.result.programOutput.slice(-2000) : ""}\n`);
      process.exitCode = 1;
    },
  );
}
