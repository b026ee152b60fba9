/**
 * Setup file (vitest `setupFiles`): names the running test file in the environment, so a simulator
 * in this worker (or in a CLI it spawns) can say which test sent a request breaking the contract
 * (test/global-setup.ts collects them).
 *
 * It also counts the `expect` calls each file executes (the assertion count, docs/SPEED.md): one
 * line per file in `.tmp/assertions/` (emptied by test/global-setup.ts), summed by
 * scripts/test-report.js after the run, so a change that makes the suite faster can show that it
 * kept every assertion.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { removeScratchDirs } from "../helpers/cli";

const ASSERTIONS_DIR = path.resolve(__dirname, "..", "..", ".tmp", "assertions");
let assertions = 0;
let tests = 0;
let testFile: string | undefined;

beforeAll(() => {
  testFile = expect.getState().testPath;
  if (testFile) process.env.WAVIX_SIM_TEST_FILE = testFile;
});

afterEach(() => {
  assertions += expect.getState().assertionCalls;
  tests += 1;
});

afterAll(() => {
  // The CLI helper's scratch folders (test/helpers/cli.ts `scratch()`) go when the file is done.
  removeScratchDirs();
  const file = testFile;
  if (!file) return;
  mkdirSync(ASSERTIONS_DIR, { recursive: true });
  const line = JSON.stringify({ file: path.relative(path.resolve(__dirname, "..", ".."), file), tests, assertions });
  appendFileSync(path.join(ASSERTIONS_DIR, `${process.pid}.jsonl`), `${line}\n`);
});
