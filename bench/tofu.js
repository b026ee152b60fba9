"use strict";
/**
 * The Terraform face under the real OpenTofu (test/helpers/real-tofu.ts; `npm run tofu:cli` builds it):
 * N `wavix_phone_number` resources of a generated account (the simulator at the bench's latency),
 * applied once (each number adopted: the account already owns it), then the no-change
 * `tofu plan -detailed-exitcode` users run — its refresh reads every number — timed as the median of
 * 3, with the requests it sent. `npm run bench` runs it (section `tofu`, BENCH_ONLY=tofu alone)
 * beside the native Pulumi provider's no-change up (section `pulumi`); alone: `node bench/tofu.js`.
 */
const { startSimulator, generateAccount } = require("../dist/simulator");
const { requireTs } = require("./pulumi");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const KEY = "bench-local-key";

/** @param {{ numbers: number, latencyMs: number, parallelism?: number }} options */
async function runTofuScenario({ numbers, latencyMs, parallelism = 10 }) {
  const { tofuProject, tofuUnavailable, providerBlock } = requireTs(join(ROOT, "test", "helpers", "real-tofu.ts"));
  let why;
  try {
    why = tofuUnavailable();
  } catch (err) {
    why = err.message;
  }
  if (why) return { skipped: why };
  const seed = generateAccount({ numbers, subAccounts: 0 });
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }], latencyMs });
  const project = tofuProject({ TF_VAR_wavix_api_key: KEY });
  try {
    const resources = seed.numbers.map((n) => `resource "wavix_phone_number" "n${n.number}" {\n  number      = "${n.number}"\n  sms_enabled = ${n.sms_enabled === true}\n}\n`);
    project.write({ "main.tf": `${providerBlock(sim.url)}\n${resources.join("\n")}` });
    await project.must(["init", "-no-color"]);
    const par = `-parallelism=${parallelism}`;
    let started = process.hrtime.bigint();
    sim.log.length = 0;
    await project.must(["apply", "-no-color", "-auto-approve", par]);
    const applySeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const applyRequests = sim.log.length;
    const samples = [];
    let requests = 0;
    for (let i = 0; i < 3; i++) {
      sim.log.length = 0;
      started = process.hrtime.bigint();
      await project.must(["plan", "-no-color", "-detailed-exitcode", par]);
      samples.push(Number(process.hrtime.bigint() - started) / 1e9);
      requests = sim.log.length;
    }
    const stateBytes = Buffer.byteLength(JSON.stringify(project.state()));
    return {
      numbers,
      parallelism,
      apply: { wallSeconds: Number(applySeconds.toFixed(2)), requests: applyRequests },
      planNoChange: { wallSeconds: [...samples].sort((a, b) => a - b)[1], samples, requests },
      stateBytesPerNumber: Math.round(stateBytes / numbers),
    };
  } finally {
    await sim.close();
    project.remove();
  }
}

module.exports = { runTofuScenario };

if (require.main === module) {
  runTofuScenario({ numbers: Number(process.env.BENCH_TOFU_NUMBERS ?? 1000), latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20) }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"),
    (e) => {
      process.stderr.write(`tofu bench failed: ${e.message.slice(0, 4000)}\n`);
      process.exitCode = 1;
    },
  );
}
