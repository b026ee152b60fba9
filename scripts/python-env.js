#!/usr/bin/env node
/**
 * The Python environment of the language tests (test-only): a virtualenv in .tools/python/venv
 * (ignored by git) with the pinned Pulumi Python SDK from PyPI, which the Python language host
 * beside the CLI (tools/pulumi/language-python) runs programs with. `npm run pulumi:cli` calls it;
 * alone: `node scripts/python-env.js` (prints the venv's python as its last line).
 *
 * Cached: reused while .tools/python/.stamp matches the pins and the interpreter's version.
 * When pip cannot install (PyPI unreachable, no python3), the reason is written to
 * .tools/python/unavailable, which the tests quote when they skip (test/helpers/pulumi-languages.ts);
 * under CI=true that is a failure instead.
 */
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const DIR = path.join(ROOT, ".tools", "python");
const VENV = path.join(DIR, "venv");
const PYTHON = path.join(VENV, "bin", "python");
const STAMP = path.join(DIR, ".stamp");
const UNAVAILABLE = path.join(DIR, "unavailable");
/**
 * What the venv holds: the Pulumi SDK the CLI is pinned to, what a generated SDK requires besides it
 * (its setup.py: parver, semver), and what `pip install SDK-FOLDER` builds with.
 */
const REQUIREMENTS = ["pulumi==3.259.0", "parver>=0.2.1", "semver>=2.8.1", "setuptools", "wheel"];

function log(msg) {
  process.stderr.write(`python-env: ${msg}\n`);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}` };
}

/** The interpreter the venv is made from: $PYTHON, else python3 on PATH. */
function basePython() {
  const candidate = process.env.WAVIX_PYTHON || "python3";
  const r = run(candidate, ["-c", "import sys, venv; print('%d.%d.%d' % sys.version_info[:3])"]);
  return r.ok ? { python: candidate, version: r.output.trim() } : undefined;
}

function unavailable(why) {
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(UNAVAILABLE, `${why}\n`);
  if (process.env.CI === "true") throw new Error(why);
  log(`${why} (the Python language tests will skip, saying so)`);
  return undefined;
}

/** Creates or reuses the venv; returns its python, or undefined (reason in .tools/python/unavailable). */
function ensurePythonEnv() {
  const base = basePython();
  if (!base) return unavailable("no python3 with the venv module on PATH (set WAVIX_PYTHON to an interpreter)");
  const stamp = `${REQUIREMENTS.join(" ")}; python ${base.version}`;
  if (fs.existsSync(PYTHON) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === stamp) {
    fs.rmSync(UNAVAILABLE, { force: true });
    return PYTHON;
  }
  const t0 = Date.now();
  fs.rmSync(STAMP, { force: true });
  const venv = run(base.python, ["-m", "venv", "--clear", VENV]);
  if (!venv.ok) return unavailable(`python3 -m venv failed: ${venv.output.trim().split("\n").slice(-3).join(" ")}`);
  const pip = run(PYTHON, ["-m", "pip", "install", "--quiet", ...REQUIREMENTS]);
  if (!pip.ok) {
    const lines = pip.output.trim().split("\n");
    const network = /NewConnectionError|Max retries|Temporary failure in name resolution|Network is unreachable|Could not find a version|No matching distribution/.test(pip.output);
    return unavailable(`${network ? "PyPI could not be reached" : "pip failed"} installing ${REQUIREMENTS[0]}: ${lines.slice(-2).join(" ")}`);
  }
  fs.writeFileSync(STAMP, stamp);
  fs.rmSync(UNAVAILABLE, { force: true });
  log(`made .tools/python/venv (${REQUIREMENTS[0]}, python ${base.version}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return PYTHON;
}

module.exports = { ensurePythonEnv, PYTHON, VENV };

if (require.main === module) {
  try {
    const python = ensurePythonEnv();
    if (python) process.stdout.write(`${python}\n`);
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
