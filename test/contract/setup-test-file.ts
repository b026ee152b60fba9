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
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { removeScratchDirs } from "../helpers/cli";

const ASSERTIONS_DIR = path.resolve(__dirname, "..", "..", ".tmp", "assertions");
let assertions = 0;
let tests = 0;
let testFile: string | undefined;
// From the file's first import on (a file's own imports run before its beforeAll).
const cpuAtStart = cpuSeconds();

/**
 * CPU seconds this worker and the children it waited for have used (user + system, /proc/self/stat's
 * utime, stime, cutime, cstime): the file's share, as the worker runs one file at a time. 0 where
 * /proc is missing.
 */
function cpuSeconds(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14-17 of proc(5), counted from the state (field 3) here.
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

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
  const cpu = Math.round((cpuSeconds() - cpuAtStart) * 100) / 100;
  const line = JSON.stringify({ file: path.relative(path.resolve(__dirname, "..", ".."), file), tests, assertions, cpu });
  appendFileSync(path.join(ASSERTIONS_DIR, `${process.pid}.jsonl`), `${line}\n`);
});
