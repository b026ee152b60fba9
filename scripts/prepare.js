"use strict";
/**
 * The prepare script: `npm ci` in a checkout builds dist/ (so `npx wavix-sync` runs from the repo
 * root with no other step), and so does npm when it installs wavix-sync from a git URL with scripts
 * on (pacote runs only prepare for a git dependency). `npm pack` and `npm publish` run prepare right
 * after prepack, which has just built a clean dist/: no second build then. A git URL packed with
 * `npm pack git+…` has no dist/ yet, so it is built.
 */
const { spawnSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const { join } = require("node:path");

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
  if (!(packing && existsSync(join(root, "dist", "cli", "main.js")))) buildWithNpm();
}

module.exports = { buildWithNpm };
