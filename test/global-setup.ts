/**
 * Build dist/ once before any test: the CLI (a child process) and the Pulumi host run compiled
 * code. One build here instead of one per test file, which raced when files ran in parallel.
 *
 * The contract check (issue 12): every simulator started by any test, in any process, appends the
 * requests it received that break `schemas/api/*.request.schema.json` (and its own answers that
 * break the response schemas) to a folder named by `WAVIX_SIM_VIOLATIONS_DIR`; the teardown fails
 * the run listing them. A test that sends bad requests on purpose opts out with the simulator
 * option `expectBadRequests` (or the CLI flag `--expect-bad-requests`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { RUN_DIR_ENV } from "./helpers/run-dir";

const VIOLATIONS_DIR_ENV = "WAVIX_SIM_VIOLATIONS_DIR";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const distFresh = require("../scripts/dist-fresh.js") as { distIsFresh(root: string): boolean };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const distClean = require("../scripts/clean-dist.js") as { cleanDist(root: string): void };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const testReport = require("../scripts/test-report.js") as { keepFileCpu(): void };

/**
 * Whether dist/ was built after the last change to anything the build reads
 * (scripts/dist-fresh.js, which scripts/prepare.js uses too). WAVIX_TEST_BUILD=1 builds anyway.
 */
export function distIsFresh(root: string): boolean {
  if (process.env.WAVIX_TEST_BUILD === "1") return false;
  return distFresh.distIsFresh(root);
}

interface Violation {
  kind: string;
  method: string;
  path: string;
  message: string;
  test?: string;
}

export default function setup(): () => void {
  const root = resolve(__dirname, "..");
  // `npm ci` (prepare) or the last run built it and nothing it reads changed since: no second build.
  if (!distIsFresh(root)) {
    // From an empty dist/, as `npm run build` does (scripts/clean-dist.js): a file an earlier build
    // left for a source since renamed would keep dist/ stale, and every run would build again.
    distClean.cleanDist(root);
    try {
      execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
    } catch (err) {
      // tsc still emits on type errors; those fail `npm run typecheck` (run by CI), not the tests.
      const out = (err as { stdout?: Buffer }).stdout?.toString() ?? "";
      process.stderr.write(`warning: the build reported errors:\n${out}\n`);
    }
    // The rest of `npm run build`: schema validators compiled to code (scripts/build-validators.js)…
    execFileSync(process.execPath, [resolve(root, "scripts", "build-validators.js")], { cwd: root, stdio: "pipe" });
    // and the CLI's code cache (scripts/build-code-cache.js, src/cli/code-cache.ts)
    execFileSync(process.execPath, [resolve(root, "scripts", "build-code-cache.js")], { cwd: root, stdio: "pipe" });
  }
  // The assertion counts of this run (test/contract/setup-test-file.ts writes them, scripts/test-report.js sums them).
  rmSync(join(root, ".tmp", "assertions"), { recursive: true, force: true });
  const dir = mkdtempSync(join(tmpdir(), "wavix-sim-violations-"));
  // Set before the workers start, so they (and the CLIs they spawn) inherit it.
  process.env[VIOLATIONS_DIR_ENV] = dir;
  // What the test files of this run share (test/helpers/run-dir.ts): one packed tarball, the npm ci installs.
  const runDir = mkdtempSync(join(tmpdir(), "wavix-test-run-"));
  process.env[RUN_DIR_ENV] = runDir;

  return () => {
    // Each file's CPU-s, for the next run's order (test/sequencer.mts).
    testReport.keepFileCpu();
    const found: Violation[] = [];
    for (const file of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        if (line.trim() !== "") found.push(JSON.parse(line) as Violation);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    delete process.env[VIOLATIONS_DIR_ENV];
    rmSync(runDir, { recursive: true, force: true });
    delete process.env[RUN_DIR_ENV];
    if (found.length === 0) return;
    const lines = found.map((v) => {
      const where = v.test ? relative(root, v.test) : "(test file unknown)";
      return `  ${where}: ${v.kind} ${v.method} ${v.path}: ${v.message}`;
    });
    const unique = [...new Set(lines)];
    const message = `${found.length} request(s)/response(s) broke the API contract (schemas/api); a test that means to send bad requests says so with startSimulator({ expectBadRequests: true }):\n${unique.join("\n")}`;
    // vitest reports an error thrown here but still exits 0: set the exit code as well.
    process.exitCode = 1;
    throw new Error(message);
  };
}
