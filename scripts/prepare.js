"use strict";
/**
 * The prepare script: `npm ci` in a checkout builds dist/ (so `npx wavix-sync` runs from the repo
 * root with no other step), and so does npm when it installs wavix-sync from a git URL with scripts
 * on (pacote runs only prepare for a git dependency). `npm pack` and `npm publish` run prepare right
 * after prepack, which has just built a clean dist/: no second build then. A git URL packed with
 * `npm pack git+…` has no dist/ yet, so it is built.
 *
 * Nor is dist/ built again when it is newer than everything the build reads (scripts/dist-fresh.js):
 * npm installing from a git URL runs prepare twice in its clone (`npm install` there, then again
 * before it packs the clone), and the second build was half a minute of the install; `npm ci` in a
 * checkout whose dist/ is up to date skips it too. `npm run build` builds whatever the times say.
 * `npm run bench` runs this script before bench/run.js: a build only when dist/ is stale (the
 * build took 16 CPU-s, half a minute of the bench's wall on a loaded machine).
 */
const { spawnSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const { distIsFresh } = require("./dist-fresh.js");

const root = join(__dirname, "..");

/** `npm run build` with the npm that runs this script. */
function buildWithNpm() {
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (require.main === module) {
  const packing = ["pack", "publish"].includes(process.env.npm_command ?? "");
  if (packing && existsSync(join(root, "dist", "cli", "main.js"))) {
    // prepack has just built it
  } else if (distIsFresh(root)) {
    process.stdout.write("wavix-sync prepare: dist/ is newer than the sources and the build's configuration, not built again (`npm run build` builds it anyway)\n");
  } else {
    buildWithNpm();
  }
}

module.exports = { buildWithNpm };
