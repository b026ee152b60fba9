/**
 * The CLI's code cache (src/cli/code-cache.ts, scripts/build-code-cache.js): the built cache holds
 * what a run loads and V8 takes it; a run with it prints what a run without it prints; a module
 * edited since the cache was recorded runs its new code, even where V8's own check (the source's
 * length alone) would take the old one. And the native Pulumi plugin's own cache, used by the
 * plugin as the engine starts it.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { loopbackChildEnv } from "../helpers/child-env";
import { modulesLoadedBy, ROOT, runCli, scratch } from "../helpers/cli";

const KEY = "code-cache-key";
/** The built module, as a child loads it. */
const CODE_CACHE = join(ROOT, "dist", "cli", "code-cache.js");
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
});

afterAll(async () => {
  await sim?.close();
});

/**
 * Run `script` in a child Node under `root` with the cache installed first, as bin/wavix-sync.js
 * does; it prints what it finds, then the hook's counts and the cache file of its V8 as its last
 * line. (The file's name is the child's to give: a test worker's V8 flags, and so its tag, may
 * differ; test/soak turns on --expose-gc at run time.)
 */
async function withCache(
  root: string,
  script: string,
  env: Record<string, string | undefined> = {},
): Promise<{ out: string; stats: import("../../src/cli/code-cache").CodeCacheStats; file: string }> {
  const program = `const cc = require(${JSON.stringify(CODE_CACHE)});
cc.installCodeCache(${JSON.stringify(root)});
${script}
process.on("exit", () => process.stdout.write("\\n" + JSON.stringify({ stats: cc.codeCacheStats(), file: cc.codeCacheFile(${JSON.stringify(root)}) })));`;
  // asynchronous: the simulator in this process must keep answering
  const { stdout: out } = await promisify(execFile)(process.execPath, ["-e", program], { cwd: root, env: loopbackChildEnv(env), encoding: "utf8" });
  const at = out.lastIndexOf("\n");
  return { out: out.slice(0, at), ...(JSON.parse(out.slice(at + 1)) as { stats: import("../../src/cli/code-cache").CodeCacheStats; file: string }) };
}

describe("the CLI's code cache", () => {
  it("is built for this Node, holds every module a plan loads, and V8 takes all of them", async () => {
    const { stats, file } = await withCache(
      ROOT,
      `process.argv = [process.execPath, "wavix-sync", "plan", "-f", "examples/wavix.yaml"];
require("./dist/cli/main.js").main(process.argv).then((code) => { process.exitCode = code; });`,
      { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, NO_COLOR: "1" },
    );
    expect(existsSync(file), "npm run build writes it (scripts/build-code-cache.js)").toBe(true);
    expect(stats).toMatchObject({ rejected: 0, stale: 0, missing: 0 });
    // the CLI's own modules and commander, js-yaml, ajv-formats… (167 when written)
    expect(stats.used).toBeGreaterThan(100);
  });

  it("changes nothing a run prints: plan, validate and a file error, with the cache and without it", async () => {
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, NO_COLOR: "1" };
    const dir = scratch();
    writeFileSync(join(dir, "bad.yaml"), "version: 1\nnumbers:\n  - number: 12\n");
    for (const args of [["plan", "-f", join(ROOT, "examples", "wavix.yaml")], ["validate", "-f", join(ROOT, "examples", "wavix.yaml")], ["validate", "-f", join(dir, "bad.yaml")]]) {
      const [withIt, without] = await Promise.all([runCli(args, env, dir), runCli(args, { ...env, WAVIX_CODE_CACHE: "0" }, dir)]);
      expect(withIt, args.join(" ")).toEqual(without);
    }
  });

  it("is not loaded by audit, whose memory is held beside a plain loop's (bin/wavix-sync.js)", async () => {
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, NO_COLOR: "1" };
    const dir = scratch();
    writeFileSync(join(dir, "wavix.yaml"), "version: 1\naudit:\n  two_fa:\n    services: []\n");
    const [audit, validate] = await Promise.all([modulesLoadedBy(["--no-color", "audit", "--last", "1d"], env, dir), modulesLoadedBy(["validate"], env, dir)]);
    expect(audit.stderr).not.toMatch(/internal error/);
    expect(audit.modules).toContain("cli/audit.js");
    expect(audit.modules).not.toContain("cli/code-cache.js");
    expect(validate.code).toBe(0);
    expect(validate.modules).toContain("cli/code-cache.js");
  });

  it("runs a module edited since the cache was recorded as it is now, though V8 alone would run its old code", async () => {
    const root = scratch();
    mkdirSync(join(root, "dist", "cli"), { recursive: true });
    const mod = join(root, "dist", "answer.js");
    const load = `process.stdout.write(require(${JSON.stringify(mod)})());`;
    writeFileSync(mod, `module.exports = () => "old";\n`);
    const record = join(root, "recorded.bin");
    const recorded = await withCache(root, load, { WAVIX_CODE_CACHE_RECORD: record });
    expect(recorded.out).toBe("old");
    copyFileSync(record, recorded.file);
    expect((await withCache(root, load)).stats).toMatchObject({ used: 1, stale: 0 });

    // The same length: V8 takes the old module's code for the new source and runs it (in a child:
    // this worker's V8 flags may differ from the recording's, and V8 refuses the code of another's).
    const edited = `module.exports = () => "new";\n`;
    const v8Alone = execFileSync(
      process.execPath,
      [
        "-e",
        `const { Script } = require("node:vm"); const Module = require("node:module");
const cc = require(${JSON.stringify(CODE_CACHE)});
const { data } = cc.decodeCodeCache(require("node:fs").readFileSync(${JSON.stringify(record)})).get("dist/answer.js");
const script = new Script(Module.wrap(${JSON.stringify(edited)}), { filename: ${JSON.stringify(mod)}, cachedData: data });
const m = { exports: {} };
script.runInThisContext()(m.exports, require, m);
process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected, runs: m.exports() }));`,
      ],
      { env: loopbackChildEnv(), encoding: "utf8" },
    );
    expect(JSON.parse(v8Alone)).toEqual({ rejected: false, runs: "old" });

    // The hook checks the source itself.
    writeFileSync(mod, edited);
    const run = await withCache(root, load);
    expect(run.out).toBe("new");
    expect(run.stats).toMatchObject({ used: 0, stale: 1 });
  });

  it("is left alone with WAVIX_CODE_CACHE=0, and by a Node whose V8 has no cache of its own here", async () => {
    const load = `require("./dist/config/load.js");`;
    expect((await withCache(ROOT, load)).stats.used).toBeGreaterThan(0);
    expect((await withCache(ROOT, load, { WAVIX_CODE_CACHE: "0" })).stats).toEqual({ used: 0, rejected: 0, stale: 0, missing: 0 });
    // another V8 (its flags are part of the tag): no file of its tag, Node's own loading
    const other = execFileSync(
      process.execPath,
      ["--max-semi-space-size=7", "-e", `const cc = require(${JSON.stringify(CODE_CACHE)}); process.stdout.write(JSON.stringify([cc.installCodeCache(${JSON.stringify(ROOT)}), require("node:fs").existsSync(cc.codeCacheFile(${JSON.stringify(ROOT)}))]));`],
      { env: loopbackChildEnv(), encoding: "utf8" },
    );
    expect(JSON.parse(other)).toEqual([false, false]);
  });
});

describe("the native Pulumi plugin's code cache", () => {
  it("is built beside the CLI's, and a plugin serving a PhoneNumber's and an Account's Check and Diff takes every module it loads from it", async () => {
    /* eslint-disable @typescript-eslint/no-explicit-any -- the stubs are untyped CommonJS */
    const plugin = require(join(ROOT, "scripts", "plugin-client.js")) as {
      providerStubs(): any;
      connect(stubs: any, port: number): { client: { close(): void }; call(method: string, req: unknown): Promise<unknown> };
      portOf(child: ReturnType<typeof spawn>): Promise<number>;
      configRequests(stubs: any, apiKey: string, baseUrl: string): { checkConfig: unknown; configure: unknown };
      phoneNumberRequests(stubs: any, number: string, options?: { smsEnabled?: boolean }): { check: unknown; diff: unknown };
      accountRequests(stubs: any, file: string): { check: unknown; diffOf(checked: unknown): unknown };
    };
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const stubs = plugin.providerStubs();
    // The hook's counts once the plugin exits: the launcher and this preload share the module.
    const preload = join(scratch(), "plugin-cache-stats.js");
    writeFileSync(
      preload,
      `const cc = require(${JSON.stringify(CODE_CACHE)});
process.on("exit", () => process.stdout.write(JSON.stringify({ stats: cc.codeCacheStats(), file: cc.codeCacheFile(${JSON.stringify(ROOT)}, "plugin") }) + "\\n"));`,
    );
    const child = spawn(process.execPath, ["-r", preload, join(ROOT, "bin", "pulumi-resource-wavix"), "127.0.0.1:1"], { env: loopbackChildEnv(), stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const { client, call } = plugin.connect(stubs, await plugin.portOf(child));
    try {
      const { configure } = plugin.configRequests(stubs, KEY, sim.url);
      const { check, diff } = plugin.phoneNumberRequests(stubs, "15550001234", { smsEnabled: false });
      await call("getPluginInfo", new stubs.Empty());
      await call("configure", configure);
      await call("check", check);
      await call("diff", diff);
      // The whole account as one resource: the file's checks, the plan engine and the client load.
      const account = plugin.accountRequests(stubs, join(ROOT, "examples", "wavix.yaml"));
      await call("diff", account.diffOf(await call("check", account.check))).catch(() => undefined); // a plan with problems fails: its modules loaded
    } finally {
      client.close();
      child.kill("SIGTERM");
    }
    await exited;
    const { stats, file } = JSON.parse(out.trim().split("\n").at(-1)!) as { stats: import("../../src/cli/code-cache").CodeCacheStats; file: string };
    expect(existsSync(file), "npm run build writes it (scripts/build-code-cache.js)").toBe(true);
    expect(stats).toMatchObject({ rejected: 0, stale: 0, missing: 0 });
    // the plugin's modules, the kinds', the stubs and google-protobuf…
    expect(stats.used).toBeGreaterThan(50);
  });
});
