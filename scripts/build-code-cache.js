"use strict";
/**
 * Build step (the last of `npm run build`): records V8's code cache for the CLI
 * (src/cli/code-cache.ts) into dist/cli/code-cache-<tag>.bin, and the native Pulumi plugin's into
 * dist/cli/plugin-code-cache-<tag>.bin.
 *
 * The built CLI runs the commands a pipeline runs (validate, plan, plan --save and show, apply,
 * export; not audit, which loads without the cache: bin/wavix-sync.js) against the simulator,
 * in-process here, on examples/wavix.yaml, each with WAVIX_CODE_CACHE_RECORD naming a file of its
 * own; each run saves the code of every module it compiled, as V8 had it at its end. The runs are merged: for a module compiled by several, the
 * largest code (the most functions compiled) is kept.
 *
 * The plugin (bin/pulumi-resource-wavix) is started as the engine starts it, with
 * WAVIX_CODE_CACHE_RECORD, and sent what the engine sends for an `up` of PhoneNumbers (the
 * handshake, CheckConfig, Configure, Checks and Diffs, the schema; scripts/plugin-client.js), then
 * an Account's Check and Diff of examples/wavix.yaml (the file read, the account planned against
 * the simulator); told to stop, it saves its modules' code. Without `@pulumi/pulumi` (a peer dependency) there is no
 * plugin to run, and no plugin cache.
 *
 * The cache only saves time: when a run fails here, the build warns and leaves no cache, and the
 * CLI or the plugin loads as Node always does (test/cli/code-cache.test.ts fails in this repository's tests).
 */
const { execFile, spawn } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { promisify } = require("node:util");
const { accountRequests, configRequests, connect, phoneNumberRequests, portOf, providerStubs } = require("./plugin-client");

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

/** The plugin, sent a no-change `up`'s calls for two PhoneNumbers and an Account, its modules' code recorded into `record`. */
async function recordPlugin(sim, key, record) {
  const stubs = providerStubs(root);
  if (!stubs) return false; // no @pulumi/pulumi: no plugin to run
  const env = { ...process.env, WAVIX_CODE_CACHE_RECORD: record };
  delete env.WAVIX_CODE_CACHE;
  const child = spawn(join(root, "bin", "pulumi-resource-wavix"), ["127.0.0.1:1"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  try {
    const port = await portOf(child).catch((e) => Promise.reject(new Error(`${e.message}: ${stderr.trim()}`)));
    const { client, call } = connect(stubs, port);
    try {
      const { checkConfig, configure } = configRequests(stubs, key, sim.url);
      await call("getPluginInfo", new stubs.Empty());
      await call("checkConfig", checkConfig);
      await call("configure", configure);
      for (const number of ["15550000001", "15550000002"]) {
        const { check, diff } = phoneNumberRequests(stubs, number, { smsEnabled: false });
        await call("check", check);
        await call("diff", diff);
      }
      const account = accountRequests(stubs, join(root, "examples", "wavix.yaml"));
      const checked = await call("check", account.check);
      await call("diff", account.diffOf(checked)).catch(() => undefined); // a plan with problems fails: its code ran
      await call("getSchema", new stubs.pb.GetSchemaRequest());
      // What the plugin loads after its answers (src/pulumi/plugin/main.ts, the preload) goes in too.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      client.close();
    }
  } finally {
    child.kill("SIGTERM");
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the plugin exited ${code} when told to stop: ${stderr.trim()}`);
  return true;
}

async function pluginCache() {
  const { codeCacheFile } = require(join(root, "dist", "cli", "code-cache.js"));
  const { startSimulator, DEFAULT_SIM_API_KEY } = require(join(root, "dist", "simulator", "index.js"));
  const file = codeCacheFile(root, "plugin");
  rmSync(file, { force: true });
  const dir = mkdtempSync(join(tmpdir(), "wavix-code-cache-"));
  const sim = await startSimulator({ port: 0 });
  try {
    const record = join(dir, "plugin.bin");
    if (await recordPlugin(sim, DEFAULT_SIM_API_KEY, record)) writeFileSync(file, readFileSync(record));
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main()
  .catch((err) => {
    process.stderr.write(`warning: no code cache for the CLI (it loads without it): ${err && err.message ? err.message : String(err)}\n`);
  })
  .then(() =>
    pluginCache().catch((err) => {
      process.stderr.write(`warning: no code cache for the Pulumi plugin (it loads without it): ${err && err.message ? err.message : String(err)}\n`);
    }),
  );
