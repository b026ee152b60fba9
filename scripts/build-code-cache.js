"use strict";
/**
 * Build step (the last of `npm run build`): records V8's code cache for the CLI
 * (src/cli/code-cache.ts) into dist/cli/code-cache-<tag>.bin.
 *
 * The built CLI runs the commands a pipeline runs (validate, plan, plan --save and show, apply,
 * export; not audit, which loads without the cache: bin/wavix-sync.js) against the simulator,
 * in-process here, on examples/wavix.yaml, each with WAVIX_CODE_CACHE_RECORD naming a file of its
 * own; each run saves the code of every module it compiled, as V8 had it at its end. The runs are merged: for a module compiled by several, the
 * largest code (the most functions compiled) is kept.
 *
 * The cache only saves time: when a run fails here, the build warns and leaves no cache, and the
 * CLI loads as Node always does (test/cli/code-cache.test.ts fails in this repository's tests).
 */
const { execFile } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { promisify } = require("node:util");

const root = join(__dirname, "..");

async function main() {
  const { codeCacheFile, decodeCodeCache, encodeCodeCache } = require(join(root, "dist", "cli", "code-cache.js"));
  const { startSimulator, DEFAULT_SIM_API_KEY } = require(join(root, "dist", "simulator", "index.js"));
  rmSync(codeCacheFile(root), { force: true });
  const dir = mkdtempSync(join(tmpdir(), "wavix-code-cache-"));
  const sim = await startSimulator({ port: 0 });
  try {
    const file = join(root, "examples", "wavix.yaml");
    const saved = join(dir, "plan.json");
    const runs = [
      ["validate", "-f", file],
      ["plan", "-f", file, "--save", saved],
      ["show", saved],
      ["apply", "-f", file, "--auto-approve"],
      ["export"],
    ];
    const env = { ...process.env, WAVIX_API_KEY: DEFAULT_SIM_API_KEY, WAVIX_BASE_URL: sim.url, NO_COLOR: "1" };
    delete env.WAVIX_CODE_CACHE;
    const merged = new Map();
    for (const [i, args] of runs.entries()) {
      const record = join(dir, `${i}.bin`);
      await promisify(execFile)(process.execPath, [join(root, "bin", "wavix-sync.js"), ...args], {
        cwd: dir,
        env: { ...env, WAVIX_CODE_CACHE_RECORD: record },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((err) => {
        throw new Error(`wavix-sync ${args[0]} failed: ${String(err.stderr || err.message).trim()}`);
      });
      for (const m of decodeCodeCache(readFileSync(record)).values()) {
        const had = merged.get(m.key);
        if (!had || m.data.length > had.data.length) merged.set(m.key, m);
      }
    }
    writeFileSync(codeCacheFile(root), encodeCodeCache([...merged.values()]));
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`warning: no code cache for the CLI (it loads without it): ${err && err.message ? err.message : String(err)}\n`);
});
