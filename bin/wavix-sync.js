#!/usr/bin/env node
"use strict";
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
require("../dist/cli/main.js").main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Last resort: never a stack trace to a user.
    process.stderr.write(`wavix-sync: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
