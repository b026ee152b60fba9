/** Run the compiled CLI (`bin/wavix-sync.js`) as a child process, as a user or a pipeline would. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loopbackChildEnv } from "./child-env";

export const ROOT = resolve(__dirname, "..", "..");
export const BIN = join(ROOT, "bin", "wavix-sync.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A run still going after this long is killed, so a hung CLI fails its test instead of the suite. */
const RUN_LIMIT_MS = 30_000;

/**
 * Run the CLI with `WAVIX_API_KEY` and `WAVIX_BASE_URL` cleared from the inherited environment (and
 * NODE_EXTRA_CA_CERTS: child-env.ts), then `env` on top (an undefined value leaves the variable unset). Asynchronous on purpose: a simulator
 * in the test's own process must keep answering.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<CliRun> {
  return new Promise((done, fail) => {
    const childEnv = loopbackChildEnv({ WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined });
    for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), RUN_LIMIT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr });
    });
  });
}

const scratchDirs: string[] = [];

/**
 * Removes the scratch folders made so far: called after each test file by the setup file
 * (test/contract/setup-test-file.ts), which runs per file even where files share a worker's loaded
 * modules (`isolate: false`), as a hook registered here on import would not.
 */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A scratch folder for files a test writes, removed when the test file is done. */
export function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "wavix-sync-test-"));
  scratchDirs.push(dir);
  return dir;
}

export function writeYaml(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** A CLI run with the modules it loaded: under dist/ relative to dist/ (`cli/main.js`), under node_modules/ by package path (`commander/index.js`). */
export interface LoadedRun extends CliRun {
  modules: string[];
  /** Node's own modules it loaded (`process.moduleLoadList`: `NativeModule internal/deps/undici/undici`, …). */
  builtins: string[];
}

/** Run the CLI (as `runCli`) with a probe preloaded through NODE_OPTIONS that lists, at exit, every module the run loaded. */
export async function modulesLoadedBy(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<LoadedRun> {
  const dir = scratch();
  const probe = join(dir, "probe.js");
  const out = join(dir, "modules.json");
  writeFileSync(
    probe,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
  );
  const run = await runCli(args, { ...env, NODE_OPTIONS: `--require ${probe}` }, cwd ?? dir);
  const loaded = JSON.parse(readFileSync(out, "utf8")) as { files: string[]; builtins: string[] };
  const all = loaded.files.map((m) => m.replace(/\\/g, "/"));
  const modules = all.flatMap((m) =>
    m.includes("/node_modules/") ? [m.slice(m.lastIndexOf("/node_modules/") + 14)] : m.includes("/dist/") ? [m.slice(m.lastIndexOf("/dist/") + 6)] : [],
  );
  return { ...run, modules, builtins: loaded.builtins };
}
