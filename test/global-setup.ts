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
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { RUN_DIR_ENV } from "./helpers/run-dir";

const VIOLATIONS_DIR_ENV = "WAVIX_SIM_VIOLATIONS_DIR";

/** What the build reads: the sources, the schemas the validators are compiled from, the build's own configuration. */
const BUILD_INPUTS = ["src", "schemas", "tsconfig.json", "tsconfig.build.json", "scripts/build-validators.js", "package.json", "package-lock.json"];

/** [newest, oldest] mtime (ms) of a file, or of a folder with everything under it (folders' own mtimes included). */
function mtimes(path: string): [number, number] {
  const st = statSync(path);
  let newest = st.mtimeMs;
  let oldest = st.isDirectory() ? Infinity : st.mtimeMs;
  if (st.isDirectory()) {
    for (const name of readdirSync(path)) {
      const [n, o] = mtimes(join(path, name));
      newest = Math.max(newest, n);
      oldest = Math.min(oldest, o);
    }
  }
  return [newest, oldest];
}

/**
 * Whether dist/ was built after the last change to anything the build reads: every file tsc and
 * scripts/build-validators.js wrote (each build rewrites them all) is newer than every input file and
 * folder (a folder's mtime changes when a file in it is added, deleted or renamed). Anything else, or
 * WAVIX_TEST_BUILD=1, builds.
 */
export function distIsFresh(root: string): boolean {
  if (process.env.WAVIX_TEST_BUILD === "1") return false;
  const dist = join(root, "dist");
  if (!existsSync(join(dist, "cli", "main.js")) || !existsSync(join(dist, "config", "desired-state.validate.js"))) return false;
  try {
    const newestInput = Math.max(...BUILD_INPUTS.filter((p) => existsSync(join(root, p))).map((p) => mtimes(join(root, p))[0]));
    const [, oldestOutput] = mtimes(dist);
    return oldestOutput > newestInput;
  } catch {
    return false; // something unreadable (a broken link, a file gone mid-walk): build
  }
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
    try {
      execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
    } catch (err) {
      // tsc still emits on type errors; those fail `npm run typecheck` (run by CI), not the tests.
      const out = (err as { stdout?: Buffer }).stdout?.toString() ?? "";
      process.stderr.write(`warning: the build reported errors:\n${out}\n`);
    }
    // The rest of `npm run build`: schema validators compiled to code (scripts/build-validators.js).
    execFileSync(process.execPath, [resolve(root, "scripts", "build-validators.js")], { cwd: root, stdio: "pipe" });
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
