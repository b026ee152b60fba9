#!/usr/bin/env node
"use strict";
// Thin launcher: the compiled CLI lives in dist/ (in the published package; in a checkout, `npm ci`
// builds it through the prepare script).
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
const entry = join(root, "dist", "cli", "main.js");
if (!existsSync(entry)) {
  // One line saying what to do, never Node's "Cannot find module" stack. A checkout has src/; an
  // installed copy without dist/ came from a git URL with install scripts off (npm builds a git
  // dependency only when it runs its prepare script; README "Install").
  process.stderr.write(
    existsSync(join(root, "src", "cli", "main.ts"))
      ? "wavix-sync: not built yet (dist/ is missing): run `npm run build` (or `npm ci`) in this checkout.\n"
      : "wavix-sync: this copy has no build (dist/ is missing): installed from a git URL with --ignore-scripts, npm skips its build. Install the release tarball or the registry package instead (README, Install), or install from git without --ignore-scripts.\n",
  );
  process.exitCode = 1;
  return;
}

// A reader that went away (`wavix-sync plan | head`): stop quietly, as other command-line tools do,
// instead of Node's unhandled EPIPE stack. Other write errors (a full disk) are the command's to
// report when it listens (export does); unheard, they end the run in one line.
for (const [name, stream] of [["standard output", process.stdout], ["standard error", process.stderr]]) {
  stream.on("error", (err) => {
    if (err && err.code === "EPIPE") process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    if (stream.listenerCount("error") > 1) return;
    if (stream !== process.stderr) process.stderr.write(`wavix-sync: cannot write ${name}: ${err && err.code ? err.code : String(err)}\n`);
    process.exit(1);
  });
}

/** Exit once what was written has left: a failed run may leave requests retrying that nothing awaits. */
function exitWhenFlushed(code) {
  let streams = 2;
  const done = () => {
    if (--streams === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}

// The modules' code as V8 compiled it at build time, so a run does not compile them again
// (src/cli/code-cache.ts; WAVIX_CODE_CACHE=0 turns it off). Without it the CLI loads as Node always
// does, as `audit` does: there the cache saved 0.03 CPU-s and cost some 8 MB of peak memory at
// 10,000 sessions, where the audit's memory is held beside a plain loop's (docs/SPEED.md).
if (process.argv.slice(2).find((a) => !a.startsWith("-")) !== "audit") {
  try {
    require(join(root, "dist", "cli", "code-cache.js")).installCodeCache(root);
  } catch {
    // a dist/ built before the cache existed
  }
}

require(entry).main(process.argv).then(
  (code) => {
    process.exitCode = code;
    // A run that failed (a listing refused, say) may still have other requests in their retry
    // waits; their outcome no longer matters, so do not wait minutes for them. A successful run
    // has nothing left in flight and ends on its own.
    if (code !== 0) exitWhenFlushed(code);
  },
  (err) => {
    // Last resort: never a stack trace to a user.
    process.stderr.write(`wavix-sync: internal error: ${err && err.message ? err.message : String(err)}\n`);
    exitWhenFlushed(1);
  },
);
