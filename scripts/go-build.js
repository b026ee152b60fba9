/**
 * Cached `go build` of the test tooling's Go programs (scripts/pulumi-cli.js, scripts/gen-sdk.js):
 * a binary is rebuilt only when the hash of the files it is built from changes (its stamp file
 * beside it, `.stamp-<name>`). Builds run with GOFLAGS=-mod=mod GOTOOLCHAIN=local: the modules'
 * go.sum pins every download; the local Go is used even where a module asks for a newer one.
 */
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const GO_ENV = { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };

const hasGo = () => spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;

/**
 * `go build ARGS` in `cwd`, quiet when it works (a cold build prints hundreds of "go: downloading"
 * lines); when it fails, the error carries the end of what Go printed.
 */
function goBuild(args, cwd) {
  const r = spawnSync("go", ["build", ...args], { cwd, env: GO_ENV, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").filter((l) => !l.startsWith("go: downloading"));
    throw new Error(`go build ${args.at(-1)} failed${r.error ? ` (${r.error.message})` : ""}:\n${output.slice(-40).join("\n")}`);
  }
}

/** sha256 of the files (paths relative to `dir`), in order. */
function hashOf(dir, files) {
  const h = crypto.createHash("sha256");
  for (const f of files) {
    h.update(f);
    h.update(fs.readFileSync(path.join(dir, f)));
  }
  return h.digest("hex");
}

/**
 * Builds `pkg` of the module in `moduleDir` into `out` unless the stamp says the files are unchanged.
 * Returns true when it built. `log` is told how long a build took.
 * @param {{ moduleDir: string, pkg: string, out: string, files: string[], ldflags?: string, label: string, log: (msg: string) => void, extra?: string }} o
 *   `files`: what the build depends on (relative to moduleDir), hashed with `extra` (e.g. a version).
 */
function buildCached(o) {
  const stampFile = path.join(path.dirname(o.out), `.stamp-${path.basename(o.out)}`);
  const stamp = hashOf(o.moduleDir, o.files) + (o.extra ? `:${o.extra}` : "");
  if (fs.existsSync(o.out) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) return false;
  fs.rmSync(stampFile, { force: true });
  fs.rmSync(o.out, { force: true });
  fs.mkdirSync(path.dirname(o.out), { recursive: true });
  const t0 = Date.now();
  goBuild(["-trimpath", "-ldflags", o.ldflags ?? "-s -w", "-o", o.out, o.pkg], o.moduleDir);
  fs.writeFileSync(stampFile, stamp);
  o.log(`built ${o.label} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

/** The folder of a module as the module cache holds it (`go list -m -f {{.Dir}}`), run in `moduleDir`. */
function moduleDirOf(moduleDir, modulePath) {
  return execFileSync("go", ["list", "-m", "-f", "{{.Dir}}", modulePath], { cwd: moduleDir, env: GO_ENV, encoding: "utf8" }).trim();
}

/** Whether version `v` ([major, minor, patch]) is at least `min`. */
const atLeast = (v, min) => (v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : v[2] >= min[2]);

/**
 * The first `name` on PATH (outside `ownBin`, the cache a tool script links from) whose version,
 * as `versionOf(path)` reads it, is at least `min`; undefined when none is.
 */
function onPath(name, ownBin, versionOf, min) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || path.resolve(dir) === ownBin) continue;
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) {
      const v = versionOf(candidate);
      if (v && atLeast(v, min)) return candidate;
    }
  }
  return undefined;
}

module.exports = { GO_ENV, atLeast, buildCached, goBuild, hasGo, hashOf, moduleDirOf, onPath };
