/**
 * Throwaway Pulumi projects for the real engine (./real-pulumi.ts `RealStack`), laid out as users
 * have them, so the program and the provider host really run from another working directory:
 *
 * - `checkoutProject`: a copy of this repository as `npm ci` leaves it (package.json, the built
 *   `dist/`, the root `Pulumi.yaml`; `node_modules` linked to this checkout's), plus the files
 *   given (e.g. `wavix.yaml`). Moving `dist/` there changes the build layout without touching ours.
 * - `consumerProject`: a project that installed wavix-sync (`node_modules/wavix-sync` linked to a
 *   package folder) with its own `Pulumi.yaml` and program files.
 *
 * Nothing is written inside this repository. Call `remove()` when done.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "./pulumi-host";

export interface TempProject {
  dir: string;
  write(file: string, text: string): void;
  read(file: string): string;
  remove(): void;
}

function temp(prefix: string): TempProject {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    write(file, text) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    },
    read: (file) => readFileSync(path.join(dir, file), "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A copy of this checkout after `npm ci`: package.json, dist/, Pulumi.yaml, node_modules (linked). */
export function checkoutProject(files: Record<string, string> = {}): TempProject {
  const p = temp("wavix-checkout-");
  cpSync(path.join(PROJECT_ROOT, "package.json"), path.join(p.dir, "package.json"));
  cpSync(path.join(PROJECT_ROOT, "Pulumi.yaml"), path.join(p.dir, "Pulumi.yaml"));
  cpSync(path.join(PROJECT_ROOT, "dist"), path.join(p.dir, "dist"), { recursive: true });
  cpSync(path.join(PROJECT_ROOT, "schemas"), path.join(p.dir, "schemas"), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(p.dir, "node_modules"), "dir");
  for (const [f, t] of Object.entries(files)) p.write(f, t);
  return p;
}

/**
 * A project that depends on wavix-sync: `node_modules/wavix-sync` links to `packageDir`, and
 * `node_modules/@pulumi` to this checkout's (one @pulumi/pulumi for program, runner and host).
 */
export function consumerProject(packageDir: string, files: Record<string, string>): TempProject {
  const p = temp("wavix-consumer-");
  mkdirSync(path.join(p.dir, "node_modules"));
  symlinkSync(packageDir, path.join(p.dir, "node_modules", "wavix-sync"), "dir");
  symlinkSync(path.join(PROJECT_ROOT, "node_modules", "@pulumi"), path.join(p.dir, "node_modules", "@pulumi"), "dir");
  for (const [f, t] of Object.entries(files)) p.write(f, t);
  return p;
}
