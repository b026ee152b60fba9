#!/usr/bin/env node
"use strict";
/**
 * The first step of every build (`npm run build`, test/global-setup.ts): remove dist/, so that the
 * build's outputs are exactly what it writes. tsc does not delete the output of a source since
 * renamed or deleted; such a file keeps its old time, and scripts/dist-fresh.js (every output newer
 * than every input) then finds dist/ stale at every later test run, which builds again each time
 * (some 16 CPU-s and 20 s before the first test file starts).
 */
const { rmSync } = require("node:fs");
const { join } = require("node:path");

/** Removes `root`/dist, whatever is in it. */
function cleanDist(root = join(__dirname, "..")) {
  rmSync(join(root, "dist"), { recursive: true, force: true });
}

if (require.main === module) cleanDist();

module.exports = { cleanDist };
