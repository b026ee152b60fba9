"use strict";
/**
 * `npm pack` and `npm publish` (the prepack script): the package ships dist/, so build it afresh
 * from src/, after removing what an earlier build left (a file moved or deleted since would
 * otherwise ship too). The tarball then installs and runs with `--ignore-scripts` (README, Install;
 * test/install/consumer-repo.test.ts).
 */
const { rmSync } = require("node:fs");
const { join } = require("node:path");
const { buildWithNpm } = require("./prepare.js");

rmSync(join(__dirname, "..", "dist"), { recursive: true, force: true });
buildWithNpm();
