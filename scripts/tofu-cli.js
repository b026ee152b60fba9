#!/usr/bin/env node
/**
 * `npm run tofu:cli` (test-only): makes the real OpenTofu CLI available to the Terraform-provider
 * tests (test/terraform/) and the bench, and prints the binary's path as its LAST line.
 *
 * 1. A `tofu` on PATH at least MIN_VERSION is used as it is (.tools/tofu/bin/tofu links to it).
 * 2. Otherwise the pinned release is built once from its Go module: `go mod download -json
 *    github.com/opentofu/opentofu@PINNED` names the module's folder in the module cache (read-only),
 *    which is copied to a writable place and built there (`go build ./cmd/tofu`, at low priority) into
 *    .tools/tofu/bin (ignored by git). The build is reused while the pin is unchanged (.stamp).
 */
"use strict";
const { spawnSync } = require("node:child_process");
const { GO_ENV, hasGo, onPath } = require("./go-build.js");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const MODULE = "github.com/opentofu/opentofu";
const PINNED = "v1.10.6";
const MIN_VERSION = [1, 10, 0];
const BIN = path.join(ROOT, ".tools", "tofu", "bin");
const CLI = path.join(BIN, "tofu");
const STAMP = path.join(BIN, ".stamp");

function log(msg) {
  process.stderr.write(`tofu:cli: ${msg}\n`);
}

function versionOf(cli) {
  const r = spawnSync(cli, ["version"], { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  const m = /OpenTofu v(\d+)\.(\d+)\.(\d+)/.exec(r.stdout ?? "");
  return r.status === 0 && m ? m.slice(1).map(Number) : undefined;
}


/** Runs a Go command quietly; a failure carries the end of what Go printed. */
function go(args, cwd) {
  const r = spawnSync("nice", ["-n", "10", "go", ...args], { cwd, env: GO_ENV, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").filter((l) => !l.startsWith("go: downloading"));
    throw new Error(`go ${args.join(" ")} failed${r.error ? ` (${r.error.message})` : ""}:\n${output.slice(-40).join("\n")}`);
  }
  return r.stdout;
}

function build() {
  if (!hasGo()) throw new Error("no OpenTofu on PATH and no Go toolchain to build one (install Go >= 1.24, or OpenTofu >= 1.10)");
  log(`building OpenTofu ${PINNED} from its Go module; the first build downloads its modules and takes several minutes`);
  const t0 = Date.now();
  const info = JSON.parse(go(["mod", "download", "-json", `${MODULE}@${PINNED}`], os.tmpdir()));
  if (!info.Dir) throw new Error(`go mod download ${MODULE}@${PINNED} named no folder${info.Error ? `: ${info.Error}` : ""}`);
  // The module cache is read-only; go build writes nothing there, but the copy keeps it that way for
  // sure and lets the build resolve the module's own go.mod as the main module.
  const src = fs.mkdtempSync(path.join(os.tmpdir(), "tofu-src-"));
  try {
    fs.cpSync(info.Dir, src, { recursive: true });
    for (const f of walk(src)) fs.chmodSync(f, fs.statSync(f).isDirectory() ? 0o755 : 0o644);
    go(["build", "-trimpath", "-ldflags", `-s -w -X github.com/opentofu/opentofu/version.dev=no`, "-o", CLI, "./cmd/tofu"], src);
  } finally {
    fs.rmSync(src, { recursive: true, force: true });
  }
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function* walk(dir) {
  yield dir;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

function main() {
  fs.mkdirSync(BIN, { recursive: true });
  const found = onPath("tofu", BIN, versionOf, MIN_VERSION);
  if (found) {
    log(`using ${found} (version ${versionOf(found).join(".")})`);
    fs.rmSync(CLI, { force: true });
    fs.symlinkSync(found, CLI);
    fs.rmSync(STAMP, { force: true });
  } else if (!(fs.existsSync(CLI) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === PINNED && versionOf(CLI))) {
    fs.rmSync(CLI, { force: true });
    build();
    fs.writeFileSync(STAMP, PINNED);
  } else {
    log(`cached build of ${PINNED} in .tools/tofu/bin`);
  }
  process.stdout.write(`${CLI}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`tofu:cli: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
