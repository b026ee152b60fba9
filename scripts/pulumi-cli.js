#!/usr/bin/env node
/**
 * `npm run pulumi:cli` (test-only): makes a Pulumi CLI available to the tests and the bench, and
 * prints the folder's CLI path as its LAST line. Putting that folder first on PATH is all a test
 * needs: the dynamic-provider plugin `pulumi-resource-pulumi-nodejs` sits beside the CLI.
 *
 * 1. A `pulumi` on PATH at least MIN_VERSION is used as it is (the plugin is still written beside
 *    our cache, and that folder's `pulumi` is a link to it).
 * 2. Otherwise the pinned CLI is built once from its Go module (tools/pulumi/go.mod) into
 *    .tools/pulumi/bin (ignored by git); a build is reused while go.mod and go.sum are unchanged.
 *
 * The nodejs language host (module .../sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not served by
 * the module proxy this project can reach: `pulumi-language-nodejs` beside the CLI is our stand-in,
 * a small Go program of the same module (tools/pulumi/language-nodejs/main.go), which runs a
 * project's program exactly as Pulumi's host does (the real `@pulumi/pulumi/cmd/run` in a node
 * process, the same arguments and environment). It is built whenever Go is there, also beside a
 * `pulumi` found on PATH (without Go, the engine finds the host installed beside that CLI).
 */
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const MODULE = path.join(ROOT, "tools", "pulumi");
const PINNED = "v3.259.0";
const MIN_VERSION = [3, 248, 0];
const BIN = path.join(ROOT, ".tools", "pulumi", "bin");
const CLI = path.join(BIN, "pulumi");
const STAMP = path.join(BIN, ".stamp");

const PLUGIN = `#!/usr/bin/env node
// The engine's dynamic-provider plugin (written by scripts/pulumi-cli.js): the host of the
// program's own @pulumi/pulumi, found from the working directory the engine gives it.
const path = require("node:path");
const from = [process.cwd(), ${JSON.stringify(ROOT)}];
require(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: from }));
`;

const HOST = path.join(BIN, "pulumi-language-nodejs");
const HOST_STAMP = path.join(BIN, ".stamp-language-nodejs");

function log(msg) {
  process.stderr.write(`pulumi:cli: ${msg}\n`);
}

function versionOf(cli) {
  const r = spawnSync(cli, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(r.stdout ?? "");
  return r.status === 0 && m ? m.slice(1).map(Number) : undefined;
}

const atLeast = (v, min) => v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : v[2] >= min[2];

function onPath() {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || path.resolve(dir) === BIN) continue;
    const candidate = path.join(dir, "pulumi");
    if (fs.existsSync(candidate)) {
      const v = versionOf(candidate);
      if (v && atLeast(v, MIN_VERSION)) return candidate;
    }
  }
  return undefined;
}

function stamp(files = ["go.mod", "go.sum"]) {
  const h = crypto.createHash("sha256");
  for (const f of files) h.update(fs.readFileSync(path.join(MODULE, f)));
  return h.digest("hex");
}

const hostStamp = () => stamp(["go.mod", "go.sum", path.join("language-nodejs", "main.go")]);
const hasGo = () => spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
const GO_ENV = { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };

/** The language host (tools/pulumi/language-nodejs/main.go): a second or two once the CLI is built. */
function buildHost() {
  const t0 = Date.now();
  execFileSync("go", ["build", "-trimpath", "-ldflags", "-s -w", "-o", HOST, "./language-nodejs"], { cwd: MODULE, stdio: ["ignore", "inherit", "inherit"], env: GO_ENV });
  log(`built the nodejs language host in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function build() {
  if (!hasGo()) throw new Error("no Pulumi CLI on PATH and no Go toolchain to build one (install Go >= 1.24, or a Pulumi CLI >= 3.248)");
  log(`building the Pulumi CLI ${PINNED} from its Go module (tools/pulumi); the first build downloads its modules and takes a few minutes`);
  const t0 = Date.now();
  execFileSync("go", ["build", "-trimpath", "-ldflags", `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PINNED}`, "-o", CLI, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"], {
    cwd: MODULE,
    stdio: ["ignore", "inherit", "inherit"],
    env: GO_ENV,
  });
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function main() {
  fs.mkdirSync(BIN, { recursive: true });
  const plugin = path.join(BIN, "pulumi-resource-pulumi-nodejs");
  fs.writeFileSync(plugin, PLUGIN, { mode: 0o755 });
  const found = onPath();
  if (found) {
    log(`using ${found} (version ${versionOf(found).join(".")})`);
    fs.rmSync(CLI, { force: true });
    fs.symlinkSync(found, CLI);
  } else if (!(fs.existsSync(CLI) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === stamp() && versionOf(CLI))) {
    fs.rmSync(CLI, { force: true });
    build();
    fs.writeFileSync(STAMP, stamp());
  } else {
    log(`cached build of ${PINNED} in .tools/pulumi/bin`);
  }
  // The language host the engine starts for a project's own program.
  const hostFresh = fs.existsSync(HOST) && fs.existsSync(HOST_STAMP) && fs.readFileSync(HOST_STAMP, "utf8") === hostStamp();
  if (!hostFresh) {
    fs.rmSync(HOST, { force: true });
    fs.rmSync(HOST_STAMP, { force: true });
    if (hasGo()) {
      buildHost();
      fs.writeFileSync(HOST_STAMP, hostStamp());
    } else {
      log("no Go toolchain: the nodejs language host installed beside the Pulumi CLI is used");
    }
  }
  process.stdout.write(`${CLI}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`pulumi:cli: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
