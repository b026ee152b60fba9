#!/usr/bin/env node
/**
 * `npm run sdk`: writes the TypeScript, Python and Go SDKs of a Pulumi package from its schema, with
 * Pulumi's own code generators (tools/pulumi/gen-sdk/main.go, built here from the CLI's module and
 * cached in .tools/pulumi/gen-sdk).
 *
 *   npm run sdk -- --schema SCHEMA.json --out DIR [--version X.Y.Z] [--lang nodejs,python,go]
 *
 * Writes DIR/nodejs, DIR/python, DIR/go (each replaced whole). The version stamped is --version,
 * else the schema's `version`, else this package's version (the plugin `pulumi-resource-wavix` is a
 * bin of this package, so its version is the package's). Output is deterministic: regenerating and
 * diffing shows drift. docs/PULUMI-TOOLING.md says more.
 */
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { buildCached, hasGo } = require("./go-build.js");

const ROOT = path.resolve(__dirname, "..");
const MODULE = path.join(ROOT, "tools", "pulumi");
const TOOL = path.join(ROOT, ".tools", "pulumi", "gen-sdk");

function log(msg) {
  process.stderr.write(`sdk: ${msg}\n`);
}

/** Builds the generator if what it is built from changed; returns its path. */
function ensureTool() {
  if (!hasGo()) throw new Error("no Go toolchain: the SDK generator is built from tools/pulumi/gen-sdk (install Go >= 1.24)");
  buildCached({ moduleDir: MODULE, pkg: "./gen-sdk", out: TOOL, files: ["go.mod", "go.sum", "gen-sdk/main.go"], label: "the SDK generator", log });
  return TOOL;
}

/**
 * Generates the SDKs of `schema` into `out` (nodejs/, python/, go/).
 * @param {{ schema: string, out: string, version?: string, lang?: string }} o
 */
function generateSdks(o) {
  const spec = JSON.parse(fs.readFileSync(o.schema, "utf8"));
  const version = o.version ?? (spec.version ? undefined : require(path.join(ROOT, "package.json")).version);
  const args = ["-schema", path.resolve(o.schema), "-out", path.resolve(o.out)];
  if (version) args.push("-version", version);
  if (o.lang) args.push("-lang", o.lang);
  execFileSync(ensureTool(), args, { stdio: ["ignore", "inherit", "inherit"] });
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(schema|out|version|lang)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unknown argument ${argv[i]}`);
    o[m[1]] = m[2] ?? argv[++i];
  }
  if (!o.schema || !o.out) throw new Error("usage: npm run sdk -- --schema SCHEMA.json --out DIR [--version X.Y.Z] [--lang nodejs,python,go]");
  return o;
}

module.exports = { generateSdks, ensureTool };

if (require.main === module) {
  try {
    const o = parseArgs(process.argv.slice(2));
    generateSdks(o);
    log(`wrote ${o.lang ?? "nodejs,python,go"} SDKs of ${o.schema} into ${o.out}`);
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
