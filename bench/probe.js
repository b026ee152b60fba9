"use strict";
/**
 * Preloaded into each measured process (`node --require bench/probe.js ...`): when the process
 * exits, writes its own peak RSS and whether it loaded `@pulumi/pulumi` to $BENCH_PROBE_FILE.
 * Costs one listener; the process is otherwise the one users run.
 */
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const file = process.env.BENCH_PROBE_FILE;
  if (!file) return;
  const modules = Object.keys(require.cache);
  writeFileSync(
    file,
    JSON.stringify({
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      pulumiLoaded: modules.some((m) => m.includes(`${require("node:path").sep}@pulumi${require("node:path").sep}`)),
    }),
  );
});
