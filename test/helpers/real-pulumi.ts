/**
 * The real Pulumi engine for tests: the CLI built by `npm run pulumi:cli` (scripts/pulumi-cli.js,
 * Pulumi v3.259.0 from its Go module), a local file backend, a per-project PULUMI_HOME, secrets
 * kept by the engine's envelope encryption with a Vault stand-in (not a passphrase: see "The
 * stack's secrets" below), driven through the Automation API (`realProject`) or the CLI (`RealStack`).
 *
 * Left out by the stacks: the key service (Vault's transit API is answered by a stand-in in the
 * test process, AES-256-GCM with a fixed key; the engine's own data key encrypts every secret).
 * Faithful to: everything the engine does — step generation, replacements (`--replace`,
 * `state taint`), create-before-delete, the checkpoint, refresh, destroy, the dynamic-provider
 * plugin process (our `pulumi-resource-pulumi-nodejs` beside the CLI runs the program's own
 * `@pulumi/pulumi/cmd/dynamic-provider`, as Pulumi's own script does).
 * Left out: the nodejs language host binary (its Go module is not served here). The program runs
 * as an Automation API inline program: the SDK serves the language runtime in this process
 * (`automation/server.ts`) and the engine talks to it with `--client`. The program is the same
 * `runProgram` a user's `Pulumi.yaml` runs; the project folder is laid out as a user's project
 * that installed wavix-sync (`node_modules/wavix-sync`), which is where the plugin resolves the
 * provider from.
 */
import { spawn, spawnSync } from "node:child_process";
import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as Automation from "@pulumi/pulumi/automation";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { loopbackChildEnv } from "./child-env";
import { traced } from "./trace";

export const ROOT = path.resolve(__dirname, "..", "..");
export const CLI = path.join(ROOT, ".tools", "pulumi", "bin", "pulumi");

/**
 * Why the real engine cannot run here, or undefined when it can. CI (CI=true, after `.ci/run` ran
 * `npm run pulumi:cli`) never skips: a missing CLI fails the run there. `npm run test:quick` runs no
 * real engine (vitest.quick.mts sets WAVIX_QUICK_LOOP): a real-engine test in a file it runs skips.
 */
export function engineUnavailable(): string | undefined {
  if (process.env.WAVIX_QUICK_LOOP === "1") return "the quick loop (npm run test:quick) runs no real engine; npm test does";
  if (existsSync(CLI) && existsSync(path.join(path.dirname(CLI), "pulumi-resource-pulumi-nodejs"))) return undefined;
  const why = "no Pulumi CLI in .tools/pulumi/bin: run `npm run pulumi:cli` once (it builds the pinned CLI from its Go module)";
  if (process.env.CI === "true") throw new Error(why);
  return why;
}

/**
 * Kills (SIGKILL) the Pulumi CLI working in `dir`, as a crash would, then what it started (the
 * language host, the program, the dynamic-provider host), which would otherwise outlive the test.
 * Returns whether a CLI was found.
 */
export function killEngineIn(dir: string): boolean {
  const parentOf = new Map<number, number>();
  const engines: number[] = [];
  for (const p of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      parentOf.set(Number(p), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (readlinkSync(`/proc/${p}/exe`).endsWith("/pulumi") && readlinkSync(`/proc/${p}/cwd`) === dir) engines.push(Number(p));
    } catch {
      // gone, or not ours
    }
  }
  const descendants = (pid: number): number[] => [...parentOf].filter(([, parent]) => parent === pid).flatMap(([child]) => [child, ...descendants(child)]);
  for (const engine of engines) {
    const started = descendants(engine);
    for (const pid of [engine, ...started]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  return engines.length > 0;
}

export interface Project {
  dir: string;
  env: Record<string, string>;
  stack: Automation.Stack;
  /**
   * Runs the CLI itself in the project (for what the Automation API lacks: `state taint`, `cancel`).
   * Asynchronous: the simulator answering the providers runs in this same process.
   */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * A project folder with wavix-sync installed, a file backend and a stack `dev` whose program is
 * `program` (inline), configured with `config` (keys ending in `apiKey` set as secrets).
 */
export async function realProject(program: () => Promise<Record<string, unknown>>, config: Record<string, string>): Promise<Project> {
  const dir = mkdtempSync(path.join(tmpdir(), "wavix-pulumi-"));
  mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
  symlinkSync(ROOT, path.join(dir, "node_modules", "wavix-sync"));
  symlinkSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dir, "node_modules", "@pulumi", "pulumi"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "a-wavix-stack", private: true }));
  mkdirSync(path.join(dir, ".state"));
  const env: Record<string, string> = {
    PATH: `${path.dirname(CLI)}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    WAVIX_API_KEY: "",
    WAVIX_BASE_URL: "",
    // Secrets by envelope encryption through the Vault stand-in, not a passphrase (see "The stack's secrets" below).
    ...(await vaultEnv()),
  };
  // Loaded here, not at the top: the Automation API pulls in some 400 modules (npm's arborist,
  // sigstore…) that the files driving the CLI through RealStack never use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation") as typeof Automation;
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(path.dirname(CLI)) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", projectName: "wavix-sync", program },
    { workDir: dir, pulumiCommand, envVars: env, secretsProvider: VAULT_URL, projectSettings: { name: "wavix-sync", runtime: "nodejs" } },
  );
  // One `pulumi config set-all` for every value.
  await stack.setAllConfig(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v, secret: /apiKey$/.test(k) }])));
  return {
    dir,
    env,
    stack,
    cli(args) {
      return new Promise((resolve) => {
        const child = spawn(CLI, [...args, "--stack", "dev", "--non-interactive"], { cwd: dir, env: loopbackChildEnv(env) });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A stack of a project folder, run by the CLI as a user runs it: `pulumi stack init`, `config set
// [--secret]`, `up`, `preview`, `refresh`, `destroy` in the folder of its Pulumi.yaml. The engine
// starts the project's own program through the language host beside the CLI
// (tools/pulumi/language-nodejs/main.go: the real `@pulumi/pulumi/cmd/run`, as Pulumi's host runs it).

/** One resource of the checkpoint, as the engine wrote it (secret values stay encrypted). */
export interface StateResource {
  urn: string;
  type: string;
  custom: boolean;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  protect: boolean;
  retainOnDelete: boolean;
}

export type StepOp = "create" | "update" | "same" | "replace" | "delete" | "refresh" | "read" | "import" | "discard";

export interface Step {
  op: StepOp;
  urn: string;
  /** The logical name (last URN part). */
  name: string;
}

export interface Diagnostic {
  severity: "debug" | "info" | "info#err" | "warning" | "error";
  message: string;
  urn: string;
}

export interface OperationResult {
  /** One per resource the engine stepped over (default providers left out), replacements as `replace`. */
  steps: Step[];
  /** Stack outputs, secrets shown (their names in `secretOutputs`). */
  outputs: Record<string, unknown>;
  secretOutputs: string[];
  diagnostics: Diagnostic[];
  /** What the CLI printed (stdout + stderr). */
  programOutput: string;
  /** Bytes the CLI process wrote (checkpoints, logs, output), sampled from /proc; Linux only. */
  bytesWritten?: number;
}

/** An operation that failed: the message holds the engine's error diagnostics and stderr. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly result: OperationResult,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/** Awaits an operation; an EngineError is rethrown with everything the CLI printed. */
export async function must<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof EngineError) throw new Error(`${e.message}\n--- CLI ---\n${e.result.programOutput}`);
    throw e;
  }
}

export interface RealStackOptions {
  /** The folder of `Pulumi.yaml`. */
  projectDir: string;
  /** Stack config as `pulumi config set` takes it: a key without `:` belongs to the project. */
  config?: Record<string, string>;
  /** Keys of `config` set with `--secret`. */
  secretKeys?: string[];
  /** Environment of the CLI (and so of the program and the providers); `undefined` removes. */
  env?: Record<string, string | undefined>;
  /** `--parallel`; the engine's default when absent. */
  parallel?: number;
  /** Stack outputs are not read after each operation (the bench). */
  skipOutputs?: boolean;
  /**
   * `pulumi stack init` (passphrase secrets) and `pulumi config set-all` run by the CLI, instead of
   * their files written from a stack the CLI made once (see "The stack's secrets" below).
   */
  cliSetup?: boolean;
}

/** The key of a special value in the checkpoint (sdk/go/common/resource/sig), and a secret's signature. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The part of a checkpoint (`dev.json`) read here. */
interface Checkpoint {
  latest?: { resources?: Array<Record<string, unknown>>; secrets_providers?: { type?: string; state?: { salt?: string; encryptedkey?: string } } };
}

const REPLACE_OPS = new Set(["replace", "create-replacement", "delete-replaced", "discard-replaced"]);
const REFRESH_OPS = new Set(["refresh", "read-discard"]);

/** `wchar` of /proc/PID/io: bytes the process handed to write(2) so far (Linux; undefined elsewhere). */
function bytesWrittenBy(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string; bytesWritten?: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const trace = traced(cmd, args);
    const child = spawn(trace.cmd, trace.args, { cwd, env });
    let stdout = "";
    let stderr = "";
    // Sampled until the process is gone: the last sample is within 100 ms of its end.
    let written: number | undefined;
    const sample = setInterval(() => (written = bytesWrittenBy(child.pid) ?? written), 100);
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", () => clearInterval(sample));
    child.on("close", (code) => {
      trace.done(Date.now() - started);
      resolve({ code: code ?? -1, stdout, stderr, bytesWritten: written });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The stack's secrets, and a new stack without `pulumi stack init` and `pulumi config set`.
//
// With the passphrase secrets provider every CLI process that loads the stack derives the key
// (sdk/go/common/resource/config/crypt.go: PBKDF2-SHA256, 1,000,000 rounds): about 0.6 CPU-s on the
// test machine, in each `up`, `preview`, `refresh`, `destroy`, `stack init`, `config set --secret`
// and `stack output --show-secrets` — a sixth of a real-engine test's CPU. So a RealStack's secrets
// are kept by the engine's other provider, envelope encryption (pkg/secrets/cloud/manager.go): a
// random data key, AES-256-GCM, held in the stack config encrypted by a key service, here Vault's
// transit API (`hashivault://`, the CLI's gocloud driver) answered by a stand-in in this process
// (`fakeVault`: AES-256-GCM with a fixed test key). The engine encrypts every secret of the state
// and the config with the data key as it would with any key service; only where that data key
// comes from differs. And a RealStack starts from what a real `pulumi stack init
// --secrets-provider hashivault://wavix-test` wrote once (the backend's stack file and the stack
// config; copied, with its project's name), writes its config to `Pulumi.dev.yaml` as `pulumi
// config set` writes it (secrets encrypted with the data key), and reads secret stack outputs from
// the checkpoint, decrypting one only when a test reads it. `cliSetup: true` (or
// WAVIX_PULUMI_CLI_SETUP=1) runs `stack init` and `config set-all` by the CLI with the passphrase
// provider instead; test/pulumi/harness-stack.test.ts holds both ways to the CLI's reading.

const PASSPHRASE = "test-passphrase";
const TEMPLATE_PROJECT = "wavix-stack-template";
const VAULT_URL = "hashivault://wavix-test";
/** The stand-in Vault's transit key: a fixed test value, so a stack template serves every test process. */
const VAULT_KEY = createHash("sha256").update("wavix-sync test vault transit key").digest();

function seal(key: Buffer, plain: Buffer): { nonce: Buffer; sealed: Buffer } {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  return { nonce, sealed: Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]) };
}

function open(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** `vault:v1:BASE64(nonce + sealed)`, as Vault's transit engine writes a ciphertext. */
function vaultDecrypt(ciphertext: string): Buffer {
  const raw = Buffer.from(ciphertext.replace(/^vault:v1:/, ""), "base64");
  return open(VAULT_KEY, raw.subarray(0, 12), raw.subarray(12));
}

let vault: Promise<string> | undefined;

/** Vault's transit encrypt/decrypt (`PUT /v1/transit/{encrypt,decrypt}/KEY`) on a loopback port of this process; its URL. */
function fakeVault(): Promise<string> {
  vault ??= new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const m = /^\/v1\/transit\/(encrypt|decrypt)\/[\w-]+$/.exec(req.url ?? "");
        try {
          if (!m || req.headers["x-vault-token"] !== "wavix-test-token") throw new Error(`not served: ${req.method} ${req.url}`);
          const input = JSON.parse(body) as { plaintext?: string; ciphertext?: string };
          let data: Record<string, string>;
          if (m[1] === "encrypt") {
            const { nonce, sealed } = seal(VAULT_KEY, Buffer.from(input.plaintext ?? "", "base64"));
            data = { ciphertext: `vault:v1:${Buffer.concat([nonce, sealed]).toString("base64")}` };
          } else {
            data = { plaintext: vaultDecrypt(input.ciphertext ?? "").toString("base64") };
          }
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
        } catch (e) {
          res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ errors: [String(e)] }));
        }
      });
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
  return vault;
}

/** The environment the CLI needs to reach the stand-in Vault. */
async function vaultEnv(): Promise<Record<string, string>> {
  return { VAULT_SERVER_URL: await fakeVault(), VAULT_SERVER_TOKEN: "wavix-test-token" };
}

/** The data key of a stack config's or checkpoint's `encryptedkey` (base64 of Vault's ciphertext). */
function dataKey(encryptedKey: string): Buffer {
  return vaultDecrypt(Buffer.from(encryptedKey, "base64").toString("utf8"));
}

/** `v1:NONCE:CIPHERTEXT+TAG`, base64, as the CLI's symmetric crypter writes a secret. */
function encryptValue(key: Buffer, value: string): string {
  const { nonce, sealed } = seal(key, Buffer.from(value, "utf8"));
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

function decryptValue(key: Buffer, value: string): string {
  const [version, nonce, sealed] = value.split(":");
  if (version !== "v1" || nonce === undefined || sealed === undefined) throw new Error(`not a symmetric ciphertext: ${value.slice(0, 20)}…`);
  return open(key, Buffer.from(nonce, "base64"), Buffer.from(sealed, "base64")).toString("utf8");
}

/** The key of the test passphrase for a passphrase secrets-manager state (`v1:SALT:CHECK`): a stack made with `cliSetup`. */
function passphraseKey(state: string): Buffer {
  return pbkdf2Sync(PASSPHRASE, Buffer.from(state.split(":")[1] ?? "", "base64"), 1_000_000, 32, "sha256");
}

/** The folder holding what `pulumi stack init` wrote for TEMPLATE_PROJECT: `backend/.pulumi/…` and `Pulumi.dev.yaml`. */
let template: Promise<string> | undefined;

/** Made once per machine and CLI build (a folder in the temp dir named by the CLI's size and time), by the real CLI. */
function stackTemplate(): Promise<string> {
  template ??= (async () => {
    const cli = statSync(CLI);
    const dir = path.join(tmpdir(), `wavix-test-pulumi-stack-vault-${cli.size}-${Math.round(cli.mtimeMs)}`);
    if (existsSync(path.join(dir, "Pulumi.dev.yaml"))) return dir;
    const work = mkdtempSync(`${dir}-`);
    writeFileSync(path.join(work, "Pulumi.yaml"), `name: ${TEMPLATE_PROJECT}\nruntime: yaml\n`);
    mkdirSync(path.join(work, "backend"));
    const env = { ...process.env, ...(await vaultEnv()), PULUMI_HOME: path.join(work, "home"), PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true" };
    const r = await run(CLI, ["stack", "init", "dev", "--secrets-provider", VAULT_URL, "--non-interactive"], work, env);
    if (r.code !== 0) throw new Error(`pulumi stack init (the stack template): ${r.stderr}`);
    try {
      renameSync(work, dir);
    } catch {
      // another test file made it meanwhile
      rmSync(work, { recursive: true, force: true });
    }
    return dir;
  })();
  return template;
}

/** The project's name, from its Pulumi.yaml. */
function projectName(dir: string): string {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => existsSync(f));
  const name = file ? (parseYaml(readFileSync(file, "utf8")) as { name?: unknown } | null)?.name : undefined;
  if (typeof name !== "string") throw new Error(`no project name in ${dir}/Pulumi.yaml`);
  return name;
}

/** A new stack `dev` of `project`: the backend's files and the stack config, as `pulumi stack init dev` writes them. */
async function initStackFiles(backend: string, projectDir: string, project: string): Promise<void> {
  const made = await stackTemplate();
  const from = path.join(made, "backend", ".pulumi");
  const to = path.join(backend, ".pulumi");
  mkdirSync(path.join(to, "stacks", project), { recursive: true });
  for (const f of ["meta.yaml", "meta.yaml.attrs"]) cpSync(path.join(from, f), path.join(to, f));
  const text = readFileSync(path.join(from, "stacks", TEMPLATE_PROJECT, "dev.json"), "utf8").replace(`"organization/${TEMPLATE_PROJECT}/dev"`, JSON.stringify(`organization/${project}/dev`));
  writeFileSync(path.join(to, "stacks", project, "dev.json"), text);
  // The blob's attributes (gocloud fileblob) carry its MD5.
  const attrs = JSON.parse(readFileSync(path.join(from, "stacks", TEMPLATE_PROJECT, "dev.json.attrs"), "utf8")) as Record<string, unknown>;
  attrs.md5 = createHash("md5").update(text).digest("base64");
  writeFileSync(path.join(to, "stacks", project, "dev.json.attrs"), JSON.stringify(attrs));
  const file = path.join(projectDir, "Pulumi.dev.yaml");
  const own = (existsSync(file) ? parseYaml(readFileSync(file, "utf8")) : null) as Record<string, unknown> | null;
  const stackConfig = parseYaml(readFileSync(path.join(made, "Pulumi.dev.yaml"), "utf8")) as Record<string, unknown>;
  writeFileSync(file, stringifyYaml({ ...stackConfig, ...own, secretsprovider: stackConfig.secretsprovider, encryptedkey: stackConfig.encryptedkey }));
}

/** Sets `values` in the stack config file `Pulumi.dev.yaml` as `pulumi config set [--secret]` does. */
function writeStackConfig(projectDir: string, project: string, values: Array<[string, string, boolean]>): void {
  const file = path.join(projectDir, "Pulumi.dev.yaml");
  const doc = parseYaml(readFileSync(file, "utf8")) as { encryptedkey?: string; encryptionsalt?: string; config?: Record<string, unknown> };
  const config = { ...(doc.config ?? {}) };
  let key: Buffer | undefined;
  const secretKey = (): Buffer => (key ??= doc.encryptedkey ? dataKey(doc.encryptedkey) : passphraseKey(doc.encryptionsalt ?? ""));
  for (const [k, v, secret] of values) config[k.includes(":") ? k : `${project}:${k}`] = secret ? { secure: encryptValue(secretKey(), v) } : v;
  writeFileSync(file, stringifyYaml({ ...doc, config }));
}

/** A stack `dev` of a project folder, with its own PULUMI_HOME and file backend inside the folder. */
export class RealStack {
  private readonly stateDir: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly pending: Array<[string, string, boolean]> = [];
  private ready = false;
  private project = "";

  constructor(private readonly options: RealStackOptions) {
    this.stateDir = path.join(options.projectDir, ".test-pulumi");
    mkdirSync(path.join(this.stateDir, "backend"), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      // The engine's Node processes (language host, program, providers) talk to loopback only (child-env.ts).
      ...loopbackChildEnv(),
      PATH: `${path.dirname(CLI)}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(this.stateDir, "home"),
      PULUMI_BACKEND_URL: `file://${path.join(this.stateDir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      // `--event-log` exists only with the debug commands (pkg/cmd/pulumi/operations/up.go), as the Automation API sets.
      PULUMI_DEBUG_COMMANDS: "true",
    };
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    this.env = env;
    for (const [k, v] of Object.entries(options.config ?? {})) this.pending.push([k, v, (options.secretKeys ?? []).includes(k)]);
  }

  /** Sets a config value before the next operation (`pulumi config set [--secret]`). */
  setConfig(key: string, value: string, secret = false): void {
    this.pending.push([key, value, secret]);
  }

  /** Runs the CLI in the project folder on this stack. */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string; bytesWritten?: number }> {
    return run(CLI, [...args, "--stack", "dev", "--non-interactive"], this.options.projectDir, this.env);
  }

  /** Runs a CLI command that takes no stack (`pulumi plugin install …`) with this stack's environment (its PULUMI_HOME). */
  command(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return run(CLI, [...args, "--non-interactive"], this.options.projectDir, this.env);
  }

  /** Makes the stack and sets its pending config now, as the first operation would (for a test that runs the CLI itself first). */
  init(): Promise<void> {
    return this.prepare();
  }

  private async prepare(): Promise<void> {
    const cliSetup = this.options.cliSetup ?? process.env.WAVIX_PULUMI_CLI_SETUP === "1";
    if (!this.ready) {
      this.project = projectName(this.options.projectDir);
      if (cliSetup) {
        const r = await run(CLI, ["stack", "init", "dev", "--non-interactive"], this.options.projectDir, this.env);
        if (r.code !== 0) throw new Error(`pulumi stack init: ${r.stderr}`);
      } else {
        Object.assign(this.env, await vaultEnv());
        await initStackFiles(path.join(this.stateDir, "backend"), this.options.projectDir, this.project);
      }
      this.ready = true;
    }
    const pending = this.pending.splice(0);
    if (pending.length === 0) return;
    if (!cliSetup) return writeStackConfig(this.options.projectDir, this.project, pending);
    // Every pending value in one `pulumi config set-all` (one CLI run, not one a key).
    const r = await this.cli(["config", "set-all", ...pending.flatMap(([k, v, secret]) => [secret ? "--secret" : "--plaintext", `${k}=${v}`])]);
    if (r.code !== 0) throw new Error(`pulumi config set-all ${pending.map(([k]) => k).join(" ")}: ${r.stderr}`);
  }

  private async operation(args: string[]): Promise<OperationResult> {
    await this.prepare();
    const log = path.join(this.stateDir, `events-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    const parallel = this.options.parallel ? ["--parallel", String(this.options.parallel)] : [];
    const r = await this.cli([...args, "--event-log", log, ...parallel]);
    const steps = new Map<string, Step>();
    const diagnostics: Diagnostic[] = [];
    const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    for (const line of lines) {
      const e = JSON.parse(line) as {
        resourcePreEvent?: { metadata: { op: string; urn: string; type: string } };
        diagnosticEvent?: { severity: Diagnostic["severity"]; message: string; urn?: string };
      };
      const m = e.resourcePreEvent?.metadata;
      if (m && !m.type.startsWith("pulumi:providers:")) {
        const op = (REPLACE_OPS.has(m.op) ? "replace" : REFRESH_OPS.has(m.op) ? "refresh" : m.op) as StepOp;
        const known = steps.get(m.urn);
        if (!known || op === "replace") steps.set(m.urn, { op, urn: m.urn, name: m.urn.split("::").pop()! });
      }
      const d = e.diagnosticEvent;
      if (d) diagnostics.push({ severity: d.severity, message: d.message.replace(/\u001b\[[0-9;]*m|<\{%[^%]*%\}>/g, ""), urn: d.urn ?? "" });
    }
    const outputs: Record<string, unknown> = {};
    const secretOutputs: string[] = [];
    const checkpoint = this.options.skipOutputs ? undefined : this.checkpoint();
    const stackResource = checkpoint?.latest?.resources?.find((x) => x.type === "pulumi:pulumi:Stack");
    if (stackResource) {
      // The stack's outputs as the checkpoint holds them: plain values as `pulumi stack output
      // --json` prints them; a secret is an object keyed by the engine's signature key holding its
      // ciphertext, decrypted (with the stack's passphrase key) only when a test reads it.
      const stored = (stackResource.outputs ?? {}) as Record<string, unknown>;
      const provider = checkpoint?.latest?.secrets_providers?.state;
      const secretKey = (): Buffer => {
        if (provider?.encryptedkey) return dataKey(provider.encryptedkey);
        if (provider?.salt) return passphraseKey(provider.salt);
        throw new Error("no secrets provider state in the checkpoint");
      };
      for (const [k, v] of Object.entries(stored)) {
        const special = v as Record<string, unknown> | null;
        if (special?.[SIG_KEY] !== SECRET_SIG) {
          outputs[k] = v;
          continue;
        }
        secretOutputs.push(k);
        Object.defineProperty(outputs, k, {
          enumerable: true,
          configurable: true,
          get: () => {
            if (typeof special.ciphertext !== "string") throw new Error(`secret output ${k}: no ciphertext in the checkpoint`);
            const value: unknown = JSON.parse(decryptValue(secretKey(), special.ciphertext));
            Object.defineProperty(outputs, k, { value, enumerable: true, configurable: true, writable: true });
            return value;
          },
        });
      }
      if (Object.values(outputs).some((v) => JSON.stringify(v ?? null).includes(SIG_KEY))) {
        // Another special value (an asset, a resource reference): as the CLI prints it.
        const shown = await this.cli(["stack", "output", "--json", "--show-secrets"]);
        if (shown.code === 0) Object.assign(outputs, JSON.parse(shown.stdout || "{}"));
      }
    }
    const result: OperationResult = { steps: [...steps.values()], outputs, secretOutputs, diagnostics, programOutput: r.stdout + r.stderr, bytesWritten: r.bytesWritten };
    if (r.code !== 0) {
      const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.message.trim());
      throw new EngineError(`pulumi ${args[0]} failed (exit ${r.code}): ${errors.join("\n")}\n${r.stderr.trim()}`, result);
    }
    return result;
  }

  up(): Promise<OperationResult> {
    return this.operation(["up", "--yes", "--skip-preview"]);
  }

  /** `pulumi up --yes` with its preview first (what users run by default). */
  upWithPreview(): Promise<OperationResult> {
    return this.operation(["up", "--yes"]);
  }

  /** Sets (or, with `undefined`, removes) a variable of the CLI's environment for the next operations. */
  setEnv(key: string, value: string | undefined): void {
    if (value === undefined) delete this.env[key];
    else this.env[key] = value;
  }

  /** `pulumi preview`; with `expectNoChanges`, `--expect-no-changes` (the CLI fails on any change). */
  preview(options: { expectNoChanges?: boolean } = {}): Promise<OperationResult> {
    return this.operation(["preview", ...(options.expectNoChanges ? ["--expect-no-changes"] : [])]);
  }

  refresh(): Promise<OperationResult> {
    return this.operation(["refresh", "--yes", "--skip-preview"]);
  }

  destroy(): Promise<OperationResult> {
    return this.operation(["destroy", "--yes", "--skip-preview"]);
  }

  private checkpointFile(): string | undefined {
    const stacks = path.join(this.stateDir, "backend", ".pulumi", "stacks");
    if (!existsSync(stacks)) return undefined;
    if (!this.project) this.project = readdirSync(stacks)[0] ?? "";
    const file = path.join(stacks, this.project, "dev.json");
    return existsSync(file) ? file : undefined;
  }

  private checkpoint(): Checkpoint | undefined {
    const file = this.checkpointFile();
    return file ? (JSON.parse(readFileSync(file, "utf8")) as { checkpoint: Checkpoint }).checkpoint : undefined;
  }

  /** What `pulumi stack export` prints (secrets stay encrypted, as a user would share it). */
  async exportText(): Promise<string> {
    const r = await this.cli(["stack", "export"]);
    if (r.code !== 0) throw new Error(`pulumi stack export: ${r.stderr}`);
    return r.stdout;
  }

  /** The checkpoint file's text, as the engine wrote it. */
  checkpointText(): string {
    const file = this.checkpointFile();
    return file ? readFileSync(file, "utf8") : "";
  }

  /** The resources of the checkpoint, default providers left out. */
  state(): StateResource[] {
    return (this.checkpoint()?.latest?.resources ?? [])
      .filter((r) => !String(r.type).startsWith("pulumi:providers:"))
      .map((r) => ({
        urn: String(r.urn),
        type: String(r.type),
        custom: r.custom === true,
        id: r.id as string | undefined,
        inputs: (r.inputs ?? {}) as Record<string, unknown>,
        outputs: (r.outputs ?? {}) as Record<string, unknown>,
        protect: r.protect === true,
        retainOnDelete: r.retainOnDelete === true,
      }));
  }

  /** A resource of the checkpoint by logical name. */
  resource(name: string): StateResource | undefined {
    return this.state().find((r) => r.urn.split("::").pop() === name);
  }
}
