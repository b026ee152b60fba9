/**
 * test/global-setup.ts builds dist/ only when it is older than something the build reads: a stale
 * dist/ must never be tested. Each case below is a change after the last build, in a folder laid out
 * as the checkout is, with the files' times set as the change would leave them.
 */
import { describe, expect, it } from "vitest";
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { scratch } from "../helpers/cli";
import { distIsFresh } from "../global-setup";

const BUILT = new Date("2026-01-02T00:00:00Z");
const BEFORE = new Date("2026-01-01T00:00:00Z");
const AFTER = new Date("2026-01-03T00:00:00Z");

function put(root: string, rel: string, at: Date): void {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rel);
  utimesSync(file, at, at);
}

/** A checkout whose sources (and folders) date from BEFORE and whose dist/ was built at BUILT. */
function checkout(): string {
  const root = scratch();
  for (const f of ["src/cli/main.ts", "src/config/load.ts", "schemas/wavix.schema.json", "schemas/api/numbers.request.schema.json", "tsconfig.json", "tsconfig.build.json", "scripts/build-validators.js", "scripts/build-code-cache.js", "package.json", "package-lock.json"]) put(root, f, BEFORE);
  for (const f of ["dist/cli/main.js", "dist/config/load.js", "dist/config/desired-state.validate.js"]) put(root, f, BUILT);
  for (const d of ["src", "src/cli", "src/config", "schemas", "schemas/api", "scripts"]) utimesSync(join(root, d), BEFORE, BEFORE);
  return root;
}

describe("global setup: dist/ is reused only when built after every change to what the build reads", () => {
  it("reused when built after everything", () => {
    expect(distIsFresh(checkout())).toBe(true);
  });

  it("rebuilt when a source, a schema, a tsconfig, the validators' or the code cache's script or the lockfile changed since", () => {
    for (const f of ["src/config/load.ts", "schemas/api/numbers.request.schema.json", "tsconfig.build.json", "scripts/build-validators.js", "scripts/build-code-cache.js", "package-lock.json"]) {
      const root = checkout();
      utimesSync(join(root, f), AFTER, AFTER);
      expect(distIsFresh(root), f).toBe(false);
    }
  });

  it("rebuilt when a source was added, deleted or renamed (its folder changed, whatever the file's own time)", () => {
    const added = checkout();
    put(added, "src/cli/new.ts", BEFORE);
    utimesSync(join(added, "src", "cli"), AFTER, AFTER);
    expect(distIsFresh(added)).toBe(false);
    const renamed = checkout();
    renameSync(join(renamed, "src", "config", "load.ts"), join(renamed, "src", "config", "read.ts"));
    expect(distIsFresh(renamed)).toBe(false);
    const deleted = checkout();
    rmSync(join(deleted, "src", "cli", "main.ts"));
    expect(distIsFresh(deleted)).toBe(false);
  });

  it("rebuilt when one output is older than a source (a build that stopped halfway), when dist/ is incomplete, or when asked", () => {
    const half = checkout();
    utimesSync(join(half, "src", "cli", "main.ts"), AFTER, AFTER);
    utimesSync(join(half, "dist", "config", "load.js"), AFTER, AFTER);
    utimesSync(join(half, "dist", "cli", "main.js"), AFTER, AFTER);
    utimesSync(join(half, "dist", "config", "desired-state.validate.js"), BEFORE, BEFORE);
    expect(distIsFresh(half)).toBe(false);
    const incomplete = checkout();
    rmSync(join(incomplete, "dist", "config", "desired-state.validate.js"));
    expect(distIsFresh(incomplete)).toBe(false);
    const asked = checkout();
    process.env.WAVIX_TEST_BUILD = "1";
    try {
      expect(distIsFresh(asked)).toBe(false);
    } finally {
      delete process.env.WAVIX_TEST_BUILD;
    }
  });
});
