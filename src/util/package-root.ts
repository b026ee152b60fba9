/** Where the package's own files (schemas/, package.json) are, from `src/` (vitest) and `dist/` (compiled) alike. */
import { existsSync } from "node:fs";
import path from "node:path";

/** The nearest folder above this module holding package.json. */
export function packageRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 10; i++) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`package.json not found above ${__dirname}`);
}
