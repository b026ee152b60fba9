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
 * The language hosts beside the CLI, where the engine looks first (docs/PULUMI-TOOLING.md):
 *  - `pulumi-language-yaml`: Pulumi YAML's own host, github.com/pulumi/pulumi-yaml at YAML_VERSION,
 *    built in its wrapper module tools/pulumi/yaml;
 *  - `pulumi-language-nodejs`, `pulumi-language-python` (+ Pulumi's `pulumi-language-python-exec`
 *    script from the sdk/v3 module), `pulumi-language-go`: stand-ins for the hosts whose modules the
 *    module proxy does not serve — small Go programs of tools/pulumi that run a program as Pulumi's
 *    hosts do, each following its main.go step by step (tools/pulumi/language-NAME/main.go);
 *  - the Python environment the Python host runs programs with (scripts/python-env.js).
 * They are built whenever Go is there, also beside a `pulumi` found on PATH (without Go, the engine
 * finds the hosts installed beside that CLI). Each is reused while what it is built from is unchanged.
 */
"use strict";
const { spawnSync } = require("node:child_process");
const { buildCached, goBuild, hasGo, moduleDirOf, onPath } = require("./go-build.js");
const { ensurePythonEnv } = require("./python-env.js");
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

/** Pulumi YAML's language host (tools/pulumi/yaml/go.mod pins the same). */
const YAML_VERSION = "v1.38.1";
const PYTHON_EXEC = "pulumi-language-python-exec";

function log(msg) {
  process.stderr.write(`pulumi:cli: ${msg}\n`);
}

function versionOf(cli) {
  const r = spawnSync(cli, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(r.stdout ?? "");
  return r.status === 0 && m ? m.slice(1).map(Number) : undefined;
}


function stamp(files = ["go.mod", "go.sum"]) {
  const h = crypto.createHash("sha256");
  for (const f of files) h.update(fs.readFileSync(path.join(MODULE, f)));
  return h.digest("hex");
}

/** The language hosts beside the CLI: a few seconds each once the CLI's modules are compiled. */
function buildHosts() {
  const common = ["go.mod", "go.sum"];
  for (const lang of ["nodejs", "python", "go"]) {
    buildCached({ moduleDir: MODULE, pkg: `./language-${lang}`, out: path.join(BIN, `pulumi-language-${lang}`), files: [...common, `language-${lang}/main.go`], label: `the ${lang} language host`, log });
  }
  // Pulumi's own script that runs a Python program, from the sdk/v3 module the CLI is built from.
  const exec = path.join(moduleDirOf(MODULE, "github.com/pulumi/pulumi/sdk/v3"), "python", "cmd", PYTHON_EXEC);
  const execOut = path.join(BIN, PYTHON_EXEC);
  if (!fs.existsSync(execOut) || !fs.readFileSync(execOut).equals(fs.readFileSync(exec))) {
    fs.rmSync(execOut, { force: true });
    fs.copyFileSync(exec, execOut);
    fs.chmodSync(execOut, 0o755);
  }
  const yaml = path.join(MODULE, "yaml");
  buildCached({
    moduleDir: yaml,
    pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    out: path.join(BIN, "pulumi-language-yaml"),
    files: ["go.mod", "go.sum"],
    ldflags: `-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=${YAML_VERSION}`,
    label: `Pulumi YAML's language host ${YAML_VERSION} (the first build compiles its modules: a few minutes)`,
    log,
  });
}

function build() {
  if (!hasGo()) throw new Error("no Pulumi CLI on PATH and no Go toolchain to build one (install Go >= 1.24, or a Pulumi CLI >= 3.248)");
  log(`building the Pulumi CLI ${PINNED} from its Go module (tools/pulumi); the first build downloads its modules and takes a few minutes`);
  const t0 = Date.now();
  goBuild(["-trimpath", "-ldflags", `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PINNED}`, "-o", CLI, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"], MODULE);
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function main() {
  fs.mkdirSync(BIN, { recursive: true });
  const plugin = path.join(BIN, "pulumi-resource-pulumi-nodejs");
  fs.writeFileSync(plugin, PLUGIN, { mode: 0o755 });
  const found = onPath("pulumi", BIN, versionOf, MIN_VERSION);
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
  // The language hosts the engine starts for a project's own program.
  fs.rmSync(path.join(BIN, ".stamp-language-nodejs"), { force: true }); // the stamp before scripts/go-build.js
  if (hasGo()) buildHosts();
  else log("no Go toolchain: the language hosts installed beside the Pulumi CLI are used");
  ensurePythonEnv();
  process.stdout.write(`${CLI}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`pulumi:cli: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
