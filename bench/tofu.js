"use strict";
/**
 * The Terraform face under the real OpenTofu (test/helpers/real-tofu.ts; `npm run tofu:cli` builds it),
 * beside the native Pulumi provider in the same run: N `wavix_phone_number` resources of a generated
 * account (the simulator at the bench's latency), applied once (each number adopted: the account
 * already owns it), then the no-change `tofu plan -detailed-exitcode` users run — its refresh reads
 * every number. Beside it, the same N numbers as a Pulumi YAML program of `wavix:index:PhoneNumber`
 * behind this checkout's native plugin (bench/pulumi.js `yamlProgram`; test/helpers/real-pulumi.ts
 * `RealStack`), adopted by one `up` (under PULUMI_SKIP_CHECKPOINTS unless `adoptWithCheckpoints`:
 * with the engine's checkpoint after each step it took some 95 s, and `npm run bench` measures such
 * an `up` in its pulumi section; with --full it runs here with them), then its no-change
 * `pulumi preview` (what users run: no refresh) and `pulumi preview --refresh` (which reads every
 * number, as `tofu plan` does). The three no-change steps run round by round (`rounds`: 1 at
 * `npm run bench`'s defaults, 3 with --full), so that the load of the moment weighs on all alike;
 * each is the median, with the requests it sent, and tofu's as a ratio to each Pulumi figure. Both engines at the
 * same parallelism (10, OpenTofu's default). `npm run bench` runs it (section `tofu`, BENCH_ONLY=tofu
 * alone); alone: `node bench/tofu.js`. BENCH_TOFU_BESIDE=0 leaves Pulumi out (or it is skipped,
 * saying why, when its CLI is not built).
 */
const { mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const { loadavg, tmpdir } = require("node:os");
const { startSimulator, generateAccount } = require("../dist/simulator");
const { requireTs, yamlProgram } = require("./pulumi");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const KEY = "bench-local-key";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const seconds = (from) => Number(process.hrtime.bigint() - from) / 1e9;
const ratio = (a, b) => Number((a / b).toFixed(2));

/** The native Pulumi provider's stack of the same numbers, or why it cannot run. */
function pulumiBeside(sim, numbers, parallel) {
  if (process.env.BENCH_TOFU_BESIDE === "0") return { skipped: "BENCH_TOFU_BESIDE=0" };
  const { RealStack, engineUnavailable } = requireTs(join(ROOT, "test", "helpers", "real-pulumi.ts"));
  const why = engineUnavailable();
  if (why) return { skipped: why };
  const dir = mkdtempSync(join(tmpdir(), "wavix-bench-tofu-pulumi-"));
  writeFileSync(join(dir, "Pulumi.yaml"), yamlProgram(numbers, join(ROOT, "bin")));
  const stack = new RealStack({
    projectDir: dir,
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
    secretKeys: ["wavix:apiKey"],
    env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    parallel,
    skipOutputs: true,
  });
  return { dir, stack };
}

/** @param {{ numbers: number, latencyMs: number, parallelism?: number, adoptWithCheckpoints?: boolean, rounds?: number }} options */
async function runTofuScenario({ numbers, latencyMs, parallelism = 10, adoptWithCheckpoints = false, rounds = 3 }) {
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
  const beside = pulumiBeside(sim, seed.numbers, parallelism);
  try {
    const resources = seed.numbers.map((n) => `resource "wavix_phone_number" "n${n.number}" {\n  number      = "${n.number}"\n  sms_enabled = ${n.sms_enabled === true}\n}\n`);
    project.write({ "main.tf": `${providerBlock(sim.url)}\n${resources.join("\n")}` });
    await project.must(["init", "-no-color"]);
    const par = `-parallelism=${parallelism}`;
    /** One timed step: its seconds and the requests it sent. */
    const timed = async (fn) => {
      sim.log.length = 0;
      const started = process.hrtime.bigint();
      await fn();
      return { wallSeconds: seconds(started), requests: sim.log.length };
    };
    const apply = await timed(() => project.must(["apply", "-no-color", "-auto-approve", par]));
    const out = { numbers, parallelism, apply: { wallSeconds: Number(apply.wallSeconds.toFixed(2)), requests: apply.requests } };
    const steps = { planNoChange: () => project.must(["plan", "-no-color", "-detailed-exitcode", par]) };
    if (beside.stack) {
      if (!adoptWithCheckpoints) beside.stack.setEnv("PULUMI_SKIP_CHECKPOINTS", "true");
      const up = await timed(() => beside.stack.up());
      beside.stack.setEnv("PULUMI_SKIP_CHECKPOINTS", undefined);
      out.pulumiNativeUpAdopt = { wallSeconds: Number(up.wallSeconds.toFixed(2)), requests: up.requests, skipCheckpoints: !adoptWithCheckpoints };
      steps.pulumiNativePreview = () => beside.stack.preview({ expectNoChanges: true });
      steps.pulumiNativePreviewRefresh = async () => {
        const r = await beside.stack.cli(["preview", "--refresh", "--expect-no-changes", "--parallel", String(parallelism)]);
        if (r.code !== 0) throw new Error(`pulumi preview --refresh exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
      };
    } else out.pulumiSkipped = beside.skipped;
    const samples = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
    const requests = {};
    for (let i = 0; i < rounds; i++) {
      for (const [name, fn] of Object.entries(steps)) {
        const r = await timed(fn);
        samples[name].push(Number(r.wallSeconds.toFixed(3)));
        requests[name] = r.requests;
      }
    }
    for (const name of Object.keys(steps)) out[name] = { wallSeconds: median(samples[name]), samples: samples[name], requests: requests[name] };
    if (out.pulumiNativePreview) {
      out.ratios = {
        tofuPlanToPulumiPreview: ratio(out.planNoChange.wallSeconds, out.pulumiNativePreview.wallSeconds),
        tofuPlanToPulumiPreviewRefresh: ratio(out.planNoChange.wallSeconds, out.pulumiNativePreviewRefresh.wallSeconds),
      };
    }
    out.stateBytesPerNumber = Math.round(Buffer.byteLength(JSON.stringify(project.state())) / numbers);
    out.loadAverage = loadavg().map((x) => Number(x.toFixed(2)));
    return out;
  } finally {
    await sim.close();
    project.remove();
    if (beside.dir) rmSync(beside.dir, { recursive: true, force: true });
  }
}

/** The section's lines: each step's requests and time; tofu's plan as a ratio to each Pulumi preview. */
function tofuLines(numbers, r) {
  if (r.skipped) return [`tofu: skipped: ${r.skipped}`];
  const row = (label, x, note = "") => `${label.padEnd(60)} ${String(x.requests).padStart(6)} req  ${x.wallSeconds.toFixed(2).padStart(7)} s${note}`;
  const runs = (x) => (x.samples.length > 1 ? ` (median of ${x.samples.map((s) => s.toFixed(2)).join(" / ")})` : " (1 round)");
  const lines = [row(`tofu apply adopting ${numbers} numbers`, r.apply), row(`tofu no-change plan of ${numbers} numbers`, r.planNoChange, `  state ${r.stateBytesPerNumber} B a number${runs(r.planNoChange)}`)];
  if (r.pulumiSkipped) lines.push(`tofu: the native Pulumi provider beside it skipped: ${r.pulumiSkipped}`);
  else {
    const how = r.pulumiNativeUpAdopt.skipCheckpoints ? " (skip checkpoints)" : " (checkpoints on)";
    lines.push(row(`  beside: pulumi native up adopting ${numbers} numbers${how}`, r.pulumiNativeUpAdopt));
    lines.push(row(`  beside: pulumi native no-change preview of ${numbers}`, r.pulumiNativePreview, runs(r.pulumiNativePreview)));
    lines.push(row(`  beside: pulumi native no-change preview --refresh of ${numbers}`, r.pulumiNativePreviewRefresh, runs(r.pulumiNativePreviewRefresh)));
    lines.push(
      `${"tofu plan / pulumi native preview (same run, same numbers)".padEnd(60)} ${r.ratios.tofuPlanToPulumiPreview.toFixed(2)}× the preview, ${r.ratios.tofuPlanToPulumiPreviewRefresh.toFixed(2)}× the preview --refresh`,
    );
  }
  lines.push(`tofu: load average at the end ${r.loadAverage.join(" ")}`);
  return lines;
}

module.exports = { runTofuScenario, tofuLines };

if (require.main === module) {
  const numbers = Number(process.env.BENCH_TOFU_NUMBERS ?? 1000);
  const full = process.argv.slice(2).includes("--full");
  runTofuScenario({ numbers, latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20), adoptWithCheckpoints: full, rounds: full ? 3 : 1 }).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n${tofuLines(numbers, r).join("\n")}\n`),
    (e) => {
      process.stderr.write(`tofu bench failed: ${e.message.slice(0, 4000)}\n`);
      process.exitCode = 1;
    },
  );
}
