#!/usr/bin/env node
/**
 * Sums a trace of the Pulumi CLI and OpenTofu commands the real-engine tests ran
 * (WAVIX_PULUMI_TRACE=FILE, see test/helpers/trace.ts; OpenTofu's are named `tofu plan`, …): per
 * test, the commands, their wall time and the CPU seconds (user + system) of each CLI and everything
 * it started; then per command across the file(s).
 *
 * Usage: WAVIX_PULUMI_TRACE=/tmp/t.jsonl npx vitest run test/pulumi/engine.test.ts
 *        node scripts/pulumi-trace.js /tmp/t.jsonl
 */
"use strict";
const { readFileSync } = require("node:fs");

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/pulumi-trace.js TRACE.jsonl");
  process.exit(2);
}
const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const cpu = (l) => (Number.isFinite(l.user) ? l.user + l.sys : 0);
const byTest = new Map();
const byCommand = new Map();
for (const l of lines) {
  const t = byTest.get(l.test) ?? { n: 0, wall: 0, cpu: 0, commands: [] };
  t.n += 1;
  t.wall += l.wall;
  t.cpu += cpu(l);
  t.commands.push(l.command);
  byTest.set(l.test, t);
  const c = byCommand.get(l.command) ?? { n: 0, wall: 0, cpu: 0 };
  c.n += 1;
  c.wall += l.wall;
  c.cpu += cpu(l);
  byCommand.set(l.command, c);
}
const f = (x) => x.toFixed(1).padStart(7);
console.log("commands    wall     cpu  test");
for (const [test, t] of [...byTest].sort((a, b) => b[1].cpu - a[1].cpu)) {
  console.log(`${String(t.n).padStart(8)} ${f(t.wall)} ${f(t.cpu)}  ${test}\n${" ".repeat(27)}${t.commands.join(", ")}`);
}
console.log("\ncommand            n    wall     cpu  cpu/command");
for (const [command, c] of [...byCommand].sort((a, b) => b[1].cpu - a[1].cpu)) {
  console.log(`${command.padEnd(16)} ${String(c.n).padStart(3)} ${f(c.wall)} ${f(c.cpu)} ${f(c.cpu / c.n)}`);
}
const all = lines.reduce((a, l) => ({ wall: a.wall + l.wall, cpu: a.cpu + cpu(l) }), { wall: 0, cpu: 0 });
console.log(`\n${lines.length} commands, ${all.wall.toFixed(1)} s wall, ${all.cpu.toFixed(1)} CPU-s`);
