"use strict";
/**
 * Whether dist/ is the build of the sources as they are: used by scripts/prepare.js (no second
 * build when npm runs `prepare` again on a checkout it has just built, as it does when it installs
 * from a git URL) and by test/global-setup.ts (no build before `npm test` after `npm ci`).
 */
const { existsSync, readdirSync, statSync } = require("node:fs");
const { join } = require("node:path");

/** What the build reads: the sources, the schemas the validators are compiled from, the build's own configuration. */
const BUILD_INPUTS = ["src", "schemas", "tsconfig.json", "tsconfig.build.json", "scripts/build-validators.js", "scripts/build-code-cache.js", "package.json", "package-lock.json"];

/** [newest, oldest] mtime (ms) of a file, or of a folder with everything under it (folders' own mtimes count as newest, not oldest). */
function mtimes(path) {
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
 * Whether dist/ under `root` was built after the last change to anything the build reads: every file
 * tsc, scripts/build-validators.js and scripts/build-code-cache.js wrote (each build rewrites them all) is newer than every input
 * file and folder (a folder's mtime changes when a file in it is added, deleted or renamed). A
 * missing or incomplete dist/, or anything unreadable, is not fresh.
 * @param {string} root
 * @returns {boolean}
 */
function distIsFresh(root) {
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

module.exports = { BUILD_INPUTS, distIsFresh };
