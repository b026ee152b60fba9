/**
 * A folder for what the test files of one run share, made by test/global-setup.ts (which runs for
 * `npx vitest run FILE` too) and removed by its teardown. Whatever is put here is made once per run
 * by the first file that needs it, in a folder of its own renamed into place when complete, so a file
 * running at the same time either finds it whole or makes its own (never a half-made one).
 */
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

export const RUN_DIR_ENV = "WAVIX_TEST_RUN_DIR";

/** This run's shared folder (undefined when the tests were started without test/global-setup.ts). */
export function runDir(): string | undefined {
  const dir = process.env[RUN_DIR_ENV];
  return dir && existsSync(dir) ? dir : undefined;
}

/**
 * `<run folder>/<name>`, made by `make(folder)` the first time in this run; undefined without a run
 * folder (the caller then makes its own).
 */
export function sharedOnce(name: string, make: (dir: string) => void): string | undefined {
  const root = runDir();
  if (root === undefined) return undefined;
  const dir = join(root, name);
  if (existsSync(dir)) return dir;
  const tmp = mkdtempSync(join(root, `${name}.tmp-`));
  try {
    make(tmp);
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // Another file made it meanwhile: use theirs.
    if (!existsSync(dir)) throw err;
  }
  return dir;
}
