/**
 * The real Pulumi engine for tests: the CLI built by `npm run pulumi:cli` (scripts/pulumi-cli.js,
 * Pulumi v3.259.0 from its Go module), a local file backend, a per-project PULUMI_HOME and
 * passphrase, driven through the Automation API (`@pulumi/pulumi/automation`).
 *
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
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

export const ROOT = path.resolve(__dirname, "..", "..");
export const CLI = path.join(ROOT, ".tools", "pulumi", "bin", "pulumi");

/**
 * Why the real engine cannot run here, or undefined when it can. CI (CI=true, after `.ci/run` ran
 * `npm run pulumi:cli`) never skips: a missing CLI fails the run there.
 */
export function engineUnavailable(): string | undefined {
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
  stack: Stack;
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
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    WAVIX_API_KEY: "",
    WAVIX_BASE_URL: "",
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(path.dirname(CLI)) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", projectName: "wavix-sync", program },
    { workDir: dir, pulumiCommand, envVars: env, projectSettings: { name: "wavix-sync", runtime: "nodejs" } },
  );
  for (const [k, v] of Object.entries(config)) await stack.setConfig(k, { value: v, secret: /apiKey$/.test(k) });
  return {
    dir,
    env,
    stack,
    cli(args) {
      return new Promise((resolve) => {
        const child = spawn(CLI, [...args, "--stack", "dev", "--non-interactive"], { cwd: dir, env: { ...process.env, ...env } });
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
  /** Stack outputs are not read after each operation (the bench: a secret one costs a CLI run). */
  skipOutputs?: boolean;
}

/** The key of a special value in the checkpoint (sdk/go/common/resource/sig), and a secret's signature. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

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
    const child = spawn(cmd, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    // Sampled until the process is gone: the last sample is within 100 ms of its end.
    let written: number | undefined;
    const sample = setInterval(() => (written = bytesWrittenBy(child.pid) ?? written), 100);
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", () => clearInterval(sample));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, bytesWritten: written }));
  });
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
      ...process.env,
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

  private async prepare(): Promise<void> {
    if (!this.ready) {
      const r = await run(CLI, ["stack", "init", "dev", "--non-interactive"], this.options.projectDir, this.env);
      if (r.code !== 0) throw new Error(`pulumi stack init: ${r.stderr}`);
      this.ready = true;
    }
    // Every pending value in one `pulumi config set-all` (one CLI run, not one a key).
    const pending = this.pending.splice(0);
    if (pending.length > 0) {
      const r = await this.cli(["config", "set-all", ...pending.flatMap(([k, v, secret]) => [secret ? "--secret" : "--plaintext", `${k}=${v}`])]);
      if (r.code !== 0) throw new Error(`pulumi config set-all ${pending.map(([k]) => k).join(" ")}: ${r.stderr}`);
    }
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
    const stackResource = this.options.skipOutputs ? undefined : this.checkpoint()?.latest?.resources?.find((x) => x.type === "pulumi:pulumi:Stack");
    if (stackResource) {
      // The stack's outputs as the checkpoint holds them: plain values as `pulumi stack output
      // --json` prints them; a secret (or another special value) is an object keyed by the
      // engine's signature key, whose clear value only the CLI gives (one run, only then).
      const stored = (stackResource.outputs ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(stored)) if ((v as Record<string, unknown> | null)?.[SIG_KEY] === SECRET_SIG) secretOutputs.push(k);
      if (!JSON.stringify(stored).includes(SIG_KEY)) Object.assign(outputs, stored);
      else {
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

  private checkpoint(): { latest?: { resources?: Array<Record<string, unknown>> } } | undefined {
    const file = this.checkpointFile();
    return file ? (JSON.parse(readFileSync(file, "utf8")) as { checkpoint: { latest?: { resources?: Array<Record<string, unknown>> } } }).checkpoint : undefined;
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
