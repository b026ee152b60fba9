"use strict";
/**
 * The Pulumi scenario of `npm run bench` under the REAL engine (issue #19): the CLI built by
 * `npm run pulumi:cli`, a local file backend, the program `runProgram` on a file of N existing
 * numbers (test/helpers/real-pulumi.ts: an Automation API inline program). Steps: an adopting `up`,
 * a no-change `up`, a `preview`, a `refresh`; for each, requests, wall time and the checkpoint's
 * size. Skipped, saying so, when the CLI has not been built.
 */
const { existsSync, mkdirSync, statSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { stringify } = require("yaml");
const { startSimulator, generateAccount } = require("../dist/simulator");
const { requireTs } = require("./pulumi");

const ROOT = join(__dirname, "..");
const KEY = "bench-pulumi-real-key";

async function runRealPulumiScenario({ numbers, latencyMs, parallel, skipCheckpoints = false }) {
  const { realProject, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  try {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    const file = join(ROOT, ".tmp", `bench-real-${process.pid}.yaml`);
    writeFileSync(file, stringify({ version: 1, numbers: seed.numbers.map((n) => ({ number: n.number, sms_enabled: n.sms_enabled === true })) }, { lineWidth: 0 }));
    const program = async () => require(join(ROOT, "dist", "pulumi", "program.js")).runProgram({ configFile: file });
    const project = await realProject(program, { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url });
    // PULUMI_SKIP_CHECKPOINTS: the engine writes the checkpoint once at the end instead of after
    // every step (faster; a crash mid-run then loses what the run did, as README says).
    if (skipCheckpoints) project.stack.workspace.envVars.PULUMI_SKIP_CHECKPOINTS = "true";
    const checkpoint = join(project.dir, ".state", ".pulumi", "stacks", "wavix-sync", "dev.json");
    const out = {};
    const steps = [
      ["upAdopt", () => project.stack.up({ parallel })],
      ["upNoChange", () => project.stack.up({ parallel })],
      ["preview", () => project.stack.preview({ parallel })],
      ["refresh", () => project.stack.refresh({ parallel })],
    ];
    for (const [name, step] of steps) {
      sim.log.length = 0;
      const started = process.hrtime.bigint();
      await step();
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const bytes = existsSync(checkpoint) ? statSync(checkpoint).size : 0;
      out[name] = { requests: sim.log.length, wallSeconds, checkpointBytes: bytes, bytesPerNumber: Math.round(bytes / numbers) };
    }
    return out;
  } finally {
    await sim.close();
  }
}

module.exports = { runRealPulumiScenario };

if (require.main === module) {
  const numbers = Number(process.env.BENCH_PULUMI_NUMBERS ?? 1000);
  runRealPulumiScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20), parallel: Number(process.env.BENCH_PULUMI_PARALLEL ?? 16), skipCheckpoints: process.env.BENCH_SKIP_CHECKPOINTS === "1" }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"),
    (e) => {
      process.stderr.write(`real-engine pulumi bench failed: ${e.message}\n`);
      process.exitCode = 1;
    },
  );
}
