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
 * WAVIX_CODE_CACHE_RECORD, and sent what the engine sends for a no-change `up` of a PhoneNumber
 * (the handshake, CheckConfig, Configure, a Check and a Diff, the schema), on gRPC with the stubs
 * `@pulumi/pulumi` ships; told to stop, it saves its modules' code. Without `@pulumi/pulumi` (a
 * peer dependency) there is no plugin to run, and no plugin cache.
 *
 * The cache only saves time: when a run fails here, the build warns and leaves no cache, and the
 * CLI or the plugin loads as Node always does (test/cli/code-cache.test.ts fails in this repository's tests).
 */
const { execFile, spawn } = require("node:child_process");
const { createRequire } = require("node:module");
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

/** The plugin, sent a no-change `up`'s calls for one PhoneNumber, its modules' code recorded into `record`. */
async function recordPlugin(sim, key, record) {
  let from;
  try {
    from = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb", { paths: [root] }));
  } catch {
    return false; // no @pulumi/pulumi: no plugin to run
  }
  const grpc = from("@grpc/grpc-js");
  const pb = from("./provider_pb");
  const { ResourceProviderClient } = from("./provider_grpc_pb");
  const { Struct } = from("google-protobuf/google/protobuf/struct_pb");
  const { Empty } = from("google-protobuf/google/protobuf/empty_pb");
  const env = { ...process.env, WAVIX_CODE_CACHE_RECORD: record };
  delete env.WAVIX_CODE_CACHE;
  const child = spawn(join(root, "bin", "pulumi-resource-wavix"), ["127.0.0.1:1"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  try {
    const port = await new Promise((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (d) => {
        text += d;
        const m = /^(\d+)\n/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      void exited.then((code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr.trim()}`)));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = (method, req) => new Promise((resolve, reject) => client[method](req, (err, res) => (err ? reject(new Error(`${method}: ${err.details ?? err.message}`)) : resolve(res))));
    try {
      const type = "wavix:index:PhoneNumber";
      const urn = `urn:pulumi:build::cache::${type}::n`;
      // The engine's secret signature around the API key, as Configure carries it.
      const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: key };
      await call("getPluginInfo", new Empty());
      const cfg = new pb.CheckRequest();
      cfg.setUrn("urn:pulumi:build::cache::pulumi:providers:wavix::default");
      cfg.setNews(Struct.fromJavaScript({ apiKey: secret, baseUrl: sim.url }));
      await call("checkConfig", cfg);
      const conf = new pb.ConfigureRequest();
      conf.setArgs(Struct.fromJavaScript({ apiKey: secret, baseUrl: sim.url }));
      await call("configure", conf);
      for (const i of [1, 2]) {
        const number = String(15550000000 + i);
        const inputs = Struct.fromJavaScript({ number, smsEnabled: true });
        const check = new pb.CheckRequest();
        check.setUrn(urn + number);
        check.setType(type);
        check.setOlds(inputs);
        check.setNews(inputs);
        await call("check", check);
        const diff = new pb.DiffRequest();
        diff.setId(number);
        diff.setUrn(urn + number);
        diff.setType(type);
        diff.setOlds(Struct.fromJavaScript({ number, smsEnabled: true, id: number, countryCode: "US", label: "" }));
        diff.setOldInputs(inputs);
        diff.setNews(Struct.fromJavaScript({ number, smsEnabled: false }));
        await call("diff", diff);
      }
      const schema = new pb.GetSchemaRequest();
      await call("getSchema", schema);
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
