import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SlowFirst from "./test/sequencer.mts";

// Two files at a time on a 2-core machine (vitest's default is one fewer than the cores, so one):
// most of a test's time is spent waiting on processes it started (the Pulumi engine, npm, git, the
// CLI), not on this one. WAVIX_TEST_WORKERS overrides (docs/SPEED.md).
const workers = Number(process.env.WAVIX_TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/contract/setup-test-file.ts"],
    // Two files at a time share the cores: a test's wall time grows with the other file's load.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: workers,
    // A worker's files share its loaded modules: src/ and the helpers are imported once per worker,
    // not once per file (about 1.2 CPU-s a file). The setup file still runs per file
    // (test/contract/setup-test-file.ts: the assertion count, the CLI helper's scratch folders).
    isolate: false,
    // The longest files first (test/sequencer.mts), so the run does not end with one of them alone.
    sequence: { sequencer: SlowFirst },
    // Transformed sources kept on disk between runs (node_modules/.experimental-vitest-cache, gone
    // with the next `npm ci`): a quick loop's transforms went from 13 s to 2.6 s on its second run.
    experimental: { fsModuleCache: true },
  },
});
