#!/usr/bin/env node
/**
 * The closing lines of a test run (.ci/run): "N passed, N failed", the assertions executed (the
 * `expect` calls counted per file by test/contract/setup-test-file.ts into .tmp/assertions/), and
 * the ten slowest files with their times, so a slow test is seen the day it lands (docs/SPEED.md).
 *
 * Usage: node scripts/test-report.js [.tmp/vitest.json] [--top N]
 * Reads vitest's JSON report (`--reporter=json --outputFile.json=…`). With STATUS set to the exit
 * status of `npm test`, a failed run whose tests all passed is said to have failed outside them.
 */
"use strict";
const { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 10;
const reportFile = path.resolve(args[0] ?? path.join(root, ".tmp", "vitest.json"));

/** `{ file: { tests, assertions, cpu } }` from .tmp/assertions/*.jsonl (cpu: CPU-s of the file and the processes it waited for). */
function assertionCounts(dir = path.join(root, ".tmp", "assertions")) {
  const counts = {};
  if (!existsSync(dir)) return counts;
  for (const f of readdirSync(dir)) {
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const { file, tests, assertions, cpu } = JSON.parse(line);
      const c = (counts[file] ??= { tests: 0, assertions: 0, cpu: 0 });
      c.tests += tests;
      c.assertions += assertions;
      c.cpu += cpu ?? 0;
    }
  }
  return counts;
}

/** Seconds, one decimal. */
const secs = (ms) => (ms / 1000).toFixed(1);

function main() {
  if (!existsSync(reportFile)) {
    console.log(`No test report at ${path.relative(root, reportFile)}: the run stopped before vitest wrote it.`);
    return;
  }
  const r = JSON.parse(readFileSync(reportFile, "utf8"));
  if (process.env.STATUS && process.env.STATUS !== "0" && r.numFailedTests === 0) {
    // The API contract check runs in the global teardown: it fails the run without failing a test.
    console.log("The run failed outside the tests (see the teardown error above, e.g. the API contract check).");
  }
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));

  const counts = assertionCounts();
  const total = Object.values(counts).reduce((n, c) => n + c.assertions, 0);
  const files = (r.testResults ?? []).map((t) => ({ file: path.relative(root, t.name), ms: Math.max(0, (t.endTime ?? 0) - (t.startTime ?? 0)) }));
  const busy = files.reduce((n, f) => n + f.ms, 0);
  const wall = Math.max(...(r.testResults ?? []).map((t) => t.endTime ?? 0)) - (r.startTime ?? 0);
  console.log(`${total} assertions (expect calls) in ${Object.keys(counts).length} files; ${files.length} files took ${secs(busy)} s together, ${secs(wall)} s from start to end`);
  console.log(`The ${Math.min(top, files.length)} slowest files:`);
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, top)) {
    const c = counts[f.file];
    console.log(`  ${secs(f.ms).padStart(7)} s  ${f.file}${c ? `  (${c.tests} tests, ${c.assertions} assertions, ${c.cpu.toFixed(1)} CPU-s)` : ""}`);
  }
  // CPU does not depend on what else the machine runs, as wall time does: the cost to cut.
  const byCpu = Object.entries(counts).sort((a, b) => b[1].cpu - a[1].cpu).slice(0, top);
  const cpuTotal = Object.values(counts).reduce((n, c) => n + c.cpu, 0);
  console.log(`The ${byCpu.length} files using the most CPU (the files' own: ${cpuTotal.toFixed(0)} CPU-s, with the processes they waited for):`);
  for (const [file, c] of byCpu) console.log(`  ${c.cpu.toFixed(1).padStart(7)} CPU-s  ${file}`);
}

/**
 * Keep each file's CPU-s of this run in .tmp/file-cpu.json (test/global-setup.ts calls it at the end
 * of every run), over what earlier runs left there for other files: the next run's order
 * (test/sequencer.mts) pairs the files that mostly wait with those that compute.
 */
function keepFileCpu(file = path.join(root, ".tmp", "file-cpu.json")) {
  let kept = {};
  try {
    kept = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // none yet, or unreadable: start again
  }
  for (const [f, c] of Object.entries(assertionCounts())) kept[f] = Math.round(c.cpu * 100) / 100;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(kept, null, 1) + "\n");
}

module.exports = { assertionCounts, keepFileCpu };

if (require.main === module) main();
