// `npm run test:quick`: the suite without the real Pulumi engine, Chromium or npm installs
// (CONTRIBUTING.md, "The fast loop"). `npm test` runs everything.
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.mts";

export const SLOW_PARTS = [
  // the real Pulumi engine (test/helpers/real-pulumi.ts, pulumi-languages.ts); a real-engine test in
  // a file run here skips (WAVIX_QUICK_LOOP below: test/reliability/twins-slow-create.test.ts)
  "test/contract/pulumi-contract.test.ts",
  "test/pulumi/harness-stack.test.ts",
  "test/pulumi/engine.test.ts",
  "test/pulumi/languages.test.ts",
  "test/pulumi/native-invoke.test.ts",
  "test/pulumi/native-languages.test.ts",
  "test/pulumi/native-migration.test.ts",
  "test/pulumi/native-sdk.test.ts",
  "test/pulumi/native-yaml.test.ts",
  "test/pulumi/real-engine*.test.ts",
  // the real OpenTofu (test/helpers/real-tofu.ts)
  "test/terraform/real-tofu*.test.ts",
  // headless Chromium
  "test/gitops/audit-html.test.ts",
  // npm pack and npm installs in a consumer repository
  "test/docs/doc-blocks.test.ts",
  "test/gitops/ci-examples-*.test.ts",
  "test/install/*.test.ts",
];

// The soak runs 40 cycles here, not 200 (`npm test` keeps 200); no test starts the real engine
// (WAVIX_QUICK_LOOP: test/helpers/real-pulumi.ts `engineUnavailable`).
// Six files at a time on a 2-core machine (three per core): these files wait on the CLI processes,
// simulators and timers they start more than they compute. Idle, with the CLI's code cache: four at a
// time, 137 s wall for 221 CPU-s, the cores a third idle over the first minute (the longest files,
// started first, mostly wait); six, 126 s for 240 CPU-s; eight, 126 s for 242 (docs/SPEED.md).
// WAVIX_TEST_WORKERS overrides.
const workers = Number(process.env.WAVIX_TEST_WORKERS) || 3 * Math.max(2, availableParallelism());
export default mergeConfig(
  base,
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW_PARTS], env: { WAVIX_SOAK_CYCLES: "40", WAVIX_QUICK_LOOP: "1" }, maxWorkers: workers } }),
);
