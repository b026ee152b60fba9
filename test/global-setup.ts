/**
 * Build dist/ once before any test: the CLI (a child process) and the Pulumi host run compiled
 * code. One build here instead of one per test file, which raced when files ran in parallel.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  const root = resolve(__dirname, "..");
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
