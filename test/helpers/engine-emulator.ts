/**
 * A small stand-in for the Pulumi engine: `pulumi up`, `preview`, `refresh` and `destroy` of one
 * stack, with a checkpoint kept between runs (docs/CONTRACT.md part 6; the Pulumi CLI cannot be
 * installed here). Real parts wherever they exist: the program runs through the real nodejs
 * runner (`@pulumi/pulumi/cmd/run`) in a child process, and resources go through the real
 * dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`, driven by ./pulumi-host.ts).
 *
 * Faithful to (pulumi/pulumi, read for this module):
 * - pkg/engine/project.go `getPwdMain`: the program's working directory is the folder of `main`
 *   (a file: its folder, entry point its base name; a folder: itself, entry "."; no `main`: the
 *   project root, entry ".").
 * - sdk/nodejs/cmd/pulumi-language-nodejs/main.go `constructArguments` / `constructEnv`: the
 *   runner's flags `--monitor --engine --project --root-directory --stack --pwd [--dry-run]
 *   --parallel <entry>`; config in `PULUMI_CONFIG` (full keys), secret keys in
 *   `PULUMI_CONFIG_SECRET_KEYS`; `PULUMI_NODEJS_TYPESCRIPT` from the runtime option; the runner
 *   resolved from the program's own `node_modules`. Project config defaults of Pulumi.yaml apply.
 * - The plugin host: the dynamic-provider host starts in the program's working directory with
 *   the engine's address as argument, and is configured with the whole stack config (full keys,
 *   secrets wrapped) before any call.
 * - pkg/resource/deploy/step_generator.go and step.go: URNs
 *   (`urn:pulumi:<stack>::<project>::<type>::<name>`, parent types joined by `$`); aliases take
 *   over the old resource; `check(old inputs, new inputs)` then `create`, or `diff(old outputs,
 *   checked inputs)` → same / update / replace; a replace creates first and deletes the old one
 *   at the end, unless `deleteBeforeReplace` (the provider's answer or the option); resources the
 *   program no longer registers are deleted after it finishes, dependents first, never when the
 *   program failed; `protect` blocks delete and replace; `retainOnDelete` drops from state
 *   without calling the provider; delete and refresh run with the provider text stored in the
 *   OLD state; preview sends unknown values (the runner's sentinel) to check and diff and writes
 *   nothing (a provider without preview support is not asked to create or update: the checked
 *   inputs stand for the outputs); refresh `read`s each resource (no id back: gone) and takes the
 *   inputs read returns; secrets (`additionalSecretOutputs`, secret inputs) are encrypted in the
 *   checkpoint and sent back to the program as secrets.
 *
 * Leaves out: other providers and explicit provider resources, components' aliases, `import`,
 * `ignoreChanges`, `replaceOnChanges`, `deletedWith`, transforms, hooks, invokes and `.get`
 * (readResource), resource references and output values (reported as unsupported features),
 * targets, plans, policy packs, partial state after an interrupted step (a failed run keeps the
 * old state plus what completed), per-property diff details (the dynamic host reports only
 * changes / replaces / deleteBeforeReplace).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createCipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import { parse as parseYaml } from "yaml";
import { PROVIDER_KEY, SECRET_SIG, SECRET_SIG_KEY, UNKNOWN_VALUE, startPulumiHost, type PulumiHost, type Props } from "./pulumi-host";

/** One resource of the checkpoint (values plain; `secrets` says which top-level keys are secret). */
export interface StateResource {
  urn: string;
  type: string;
  custom: boolean;
  id?: string;
  parent?: string;
  /** Checked inputs, `__provider` included for dynamic resources. */
  inputs: Props;
  /** Outputs, `__provider` included for dynamic resources. */
  outputs: Props;
  secrets: string[];
  dependencies: string[];
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  additionalSecretOutputs: string[];
}

export type StepOp = "create" | "update" | "same" | "replace" | "delete" | "refresh" | "refresh-gone" | "retain";

export interface Step {
  op: StepOp;
  urn: string;
  /** The logical name (last URN part). */
  name: string;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  /** refresh: whether outputs or inputs changed. */
  changed?: boolean;
}

export interface Diagnostic {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}

export interface OperationResult {
  steps: Step[];
  /** Stack outputs, secrets unwrapped (their names in `secretOutputs`). */
  outputs: Props;
  secretOutputs: string[];
  diagnostics: Diagnostic[];
  /** What the runner printed (stdout + stderr). */
  programOutput: string;
  /** What the provider host printed on stderr. */
  hostStderr: string;
}

/** An operation that failed: the message names the cause; `result` holds what happened before. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly result: OperationResult,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/**
 * Awaits an operation; an EngineError is rethrown with what the program and the host printed, so a
 * failing test shows the engine's whole story.
 */
export async function must<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof EngineError) {
      throw new Error(`${e.message}\n--- program ---\n${e.result.programOutput}\n--- host ---\n${e.result.hostStderr}`);
    }
    throw e;
  }
}

export interface EngineOptions {
  /** The folder of `Pulumi.yaml`. */
  projectDir: string;
  /** @default "dev" */
  stack?: string;
  /** Stack config as `pulumi config set` takes it: a key without `:` belongs to the project. @default {} */
  config?: Record<string, string>;
  /** Keys of `config` set with `--secret`. @default [] */
  secretKeys?: string[];
  /** Environment of the program and the host on top of this process's; `undefined` removes. @default {} */
  env?: Record<string, string | undefined>;
  /** The checkpoint file. @default a new temporary file */
  checkpointFile?: string;
  /** Steps run at once (`--parallel`). @default 16 */
  parallel?: number;
}

interface Project {
  name: string;
  main?: string;
  typescript: boolean;
  configDefaults: Record<string, string>;
}

const STACK_TYPE = "pulumi:pulumi:Stack";
const SEVERITIES: Record<number, Diagnostic["severity"]> = {
  [engproto.LogSeverity.DEBUG]: "debug",
  [engproto.LogSeverity.INFO]: "info",
  [engproto.LogSeverity.WARNING]: "warning",
  [engproto.LogSeverity.ERROR]: "error",
};

function readProject(dir: string): Project {
  const doc = parseYaml(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
  const runtime = doc.runtime as string | { name: string; options?: { typescript?: boolean } };
  const options = typeof runtime === "object" ? (runtime.options ?? {}) : {};
  const configDefaults: Record<string, string> = {};
  for (const [k, v] of Object.entries((doc.config ?? {}) as Record<string, unknown>)) {
    const value = v !== null && typeof v === "object" ? (v as { default?: unknown }).default : v;
    if (value !== undefined) configDefaults[k.includes(":") ? k : `${String(doc.name)}:${k}`] = String(value);
  }
  return { name: String(doc.name), main: doc.main as string | undefined, typescript: options.typescript !== false, configDefaults };
}

/** pkg/engine/project.go getPwdMain. */
export function getPwdMain(root: string, main: string | undefined): { pwd: string; entry: string } {
  if (main === undefined || main === "") return { pwd: root, entry: "." };
  if (path.isAbsolute(main)) throw new Error("project 'main' must be a relative path");
  const full = path.normalize(path.join(root, main));
  if (!full.startsWith(path.normalize(root))) throw new Error("project 'main' must be a subfolder");
  if (!existsSync(full)) throw new Error(`project 'main' could not be read: ${full}`);
  return statSync(full).isDirectory() ? { pwd: full, entry: "." } : { pwd: path.dirname(full), entry: path.basename(full) };
}

const isSecret = (v: unknown): v is { value: unknown } =>
  v !== null && typeof v === "object" && (v as Props)[SECRET_SIG_KEY] === SECRET_SIG;

/** Splits secret wrappers off the top-level values (a nested secret makes its top-level key secret). */
function unwrapSecrets(props: Props): { plain: Props; secrets: string[] } {
  const secrets: string[] = [];
  const strip = (v: unknown): unknown => {
    if (isSecret(v)) return strip(v.value);
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  const hasSecret = (v: unknown): boolean =>
    isSecret(v) || (Array.isArray(v) ? v.some(hasSecret) : v !== null && typeof v === "object" && Object.values(v).some(hasSecret));
  const plain: Props = {};
  for (const [k, v] of Object.entries(props)) {
    if (hasSecret(v)) secrets.push(k);
    plain[k] = strip(v);
  }
  return { plain, secrets };
}

function wrapSecrets(props: Props, secrets: Iterable<string>): Props {
  const out = { ...props };
  for (const k of secrets) if (k in out) out[k] = { [SECRET_SIG_KEY]: SECRET_SIG, value: out[k] };
  return out;
}

const toStruct = (p: Props): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(p)) as Record<string, JavaScriptValue>);
const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Props)[k])]));
  return v;
}

/** At most `n` tasks at once (the engine's step parallelism). */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

function bind(server: grpc.Server): Promise<string> {
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(`127.0.0.1:${port}`))),
  );
}

/** One stack of one project, with its checkpoint. */
export class EngineEmulator {
  readonly projectDir: string;
  readonly stack: string;
  readonly checkpointFile: string;
  private config: Record<string, string> = {};
  private secretKeys = new Set<string>();
  private resources: StateResource[] = [];
  private stackOutputs: Props = {};
  private stackSecretOutputs: string[] = [];
  private readonly key = randomBytes(32);

  constructor(private readonly options: EngineOptions) {
    this.projectDir = path.resolve(options.projectDir);
    this.stack = options.stack ?? "dev";
    this.checkpointFile = options.checkpointFile ?? path.join(mkdtempSync(path.join(tmpdir(), "wavix-engine-")), "checkpoint.json");
    for (const [k, v] of Object.entries(options.config ?? {})) this.setConfig(k, v, options.secretKeys?.includes(k));
  }

  /** `pulumi config set [--secret] KEY VALUE`. */
  setConfig(key: string, value: string, secret = false): void {
    const full = key.includes(":") ? key : `${readProject(this.projectDir).name}:${key}`;
    this.config[full] = value;
    if (secret) this.secretKeys.add(full);
    else this.secretKeys.delete(full);
  }

  /** The resources of the checkpoint (plain values). */
  state(): StateResource[] {
    return structuredClone(this.resources);
  }

  /** A resource of the checkpoint by logical name. */
  resource(name: string): StateResource | undefined {
    return this.state().find((r) => nameOf(r.urn) === name);
  }

  /** The checkpoint file's text (secrets encrypted, as Pulumi writes them). */
  checkpointText(): string {
    return existsSync(this.checkpointFile) ? readFileSync(this.checkpointFile, "utf8") : "";
  }

  up(): Promise<OperationResult> {
    return this.deploy(false);
  }

  preview(): Promise<OperationResult> {
    return this.deploy(true);
  }

  /** `pulumi refresh`: read every resource with the provider text of its state. */
  refresh(): Promise<OperationResult> {
    return this.withHost("refresh", async (run, host) => {
      const limit = limiter(this.options.parallel ?? 16);
      const next: (StateResource | undefined)[] = await Promise.all(
        this.resources.map((r) =>
          limit(async () => {
            if (!r.custom || r.id === undefined) return r;
            const read = await host.read(r.id, r.urn, r.outputs, r.inputs);
            if (read.id === "") {
              run.steps.push({ op: "refresh-gone", urn: r.urn, name: nameOf(r.urn) });
              return undefined;
            }
            const updated = { ...r, id: read.id, outputs: read.properties, inputs: read.inputs ?? r.inputs };
            const changed = !sameJson(updated.outputs, r.outputs) || !sameJson(updated.inputs, r.inputs);
            run.steps.push({ op: "refresh", urn: r.urn, name: nameOf(r.urn), changed });
            return updated;
          }),
        ),
      );
      this.resources = next.filter((r): r is StateResource => r !== undefined);
    });
  }

  /** `pulumi destroy`: every resource deleted, dependents first, with the provider of its state. */
  destroy(): Promise<OperationResult> {
    return this.withHost("destroy", async (run, host) => {
      try {
        const keep = await this.deleteAll([...this.resources].reverse(), host, run, false);
        this.resources = this.resources.filter((r) => keep.has(r.urn));
      } catch (e) {
        // What was deleted before the failure is gone: the checkpoint says so.
        this.save();
        throw e;
      }
    });
  }

  /**
   * An operation without the program (refresh, destroy): the Engine service and the provider host
   * started for it, the checkpoint saved when it succeeds, both shut down whatever happens.
   */
  private async withHost(
    name: string,
    work: (run: ReturnType<EngineEmulator["newRun"]>, host: PulumiHost) => Promise<void>,
  ): Promise<OperationResult> {
    const run = this.newRun();
    const engine = await this.startEngine(run);
    const host = await this.startHost(run).catch((e: unknown) => {
      engine.forceShutdown();
      throw e;
    });
    try {
      await work(run, host);
      this.save();
      return this.result(run, host);
    } catch (e) {
      throw new EngineError(`${name} failed: ${(e as Error).message}`, this.result(run, host));
    } finally {
      await host.close();
      engine.forceShutdown();
    }
  }

  // ---- internals -----------------------------------------------------------------------------

  /**
   * The Engine service the program and the provider host log to (`engineAddress` while it runs):
   * warnings and errors become the operation's diagnostics.
   */
  private async startEngine(run: ReturnType<EngineEmulator["newRun"]>): Promise<grpc.Server> {
    let root = "";
    const engine = new grpc.Server();
    type Cb<T> = grpc.sendUnaryData<T>;
    engine.addService(engrpc.EngineService, {
      log(call: grpc.ServerUnaryCall<engproto.LogRequest, unknown>, cb: Cb<Empty>) {
        const r = call.request;
        // Debug messages are shown only with `-v`; the runner sends many.
        if (r.getSeverity() !== engproto.LogSeverity.DEBUG) run.diagnostics.push({ severity: SEVERITIES[r.getSeverity()] ?? "info", message: r.getMessage(), urn: r.getUrn() });
        cb(null, new Empty());
      },
      getRootResource(_call: unknown, cb: Cb<engproto.GetRootResourceResponse>) {
        const res = new engproto.GetRootResourceResponse();
        res.setUrn(root);
        cb(null, res);
      },
      setRootResource(call: grpc.ServerUnaryCall<engproto.SetRootResourceRequest, unknown>, cb: Cb<engproto.SetRootResourceResponse>) {
        root = call.request.getUrn();
        cb(null, new engproto.SetRootResourceResponse());
      },
    } as unknown as grpc.UntypedServiceImplementation);
    this.engineAddress = await bind(engine);
    return engine;
  }

  private newRun() {
    return { steps: [] as Step[], diagnostics: [] as Diagnostic[], programOutput: "", hostStderr: "" };
  }

  private result(run: ReturnType<EngineEmulator["newRun"]>, host?: PulumiHost): OperationResult {
    return {
      steps: run.steps,
      outputs: { ...this.stackOutputs },
      secretOutputs: [...this.stackSecretOutputs],
      diagnostics: run.diagnostics,
      programOutput: run.programOutput,
      hostStderr: host ? host.stderr() : run.hostStderr,
    };
  }

  private fullConfig(): Record<string, string> {
    return { ...readProject(this.projectDir).configDefaults, ...this.config };
  }

  private engineAddress = "127.0.0.1:1";
  private program: ChildProcess | undefined;

  private async startHost(run: ReturnType<EngineEmulator["newRun"]>): Promise<PulumiHost> {
    const project = readProject(this.projectDir);
    const { pwd } = getPwdMain(this.projectDir, project.main);
    const host = await startPulumiHost({ cwd: pwd, env: this.options.env, engineAddress: this.engineAddress });
    try {
      await host.configure(this.fullConfig(), { secretKeys: [...this.secretKeys] });
    } catch (e) {
      run.hostStderr = host.stderr();
      await host.close();
      throw e;
    }
    return host;
  }

  /** Deletes `targets` in the order given; returns the URNs that stay in state. */
  private async deleteAll(targets: StateResource[], host: PulumiHost, run: ReturnType<EngineEmulator["newRun"]>, preview: boolean): Promise<Set<string>> {
    const keep = new Set(this.resources.map((r) => r.urn));
    const problems: string[] = [];
    for (const r of targets) {
      if (r.protect) {
        problems.push(`unable to delete resource "${r.urn}" as it is currently marked for protection`);
        continue;
      }
      if (r.retainOnDelete) {
        run.steps.push({ op: "retain", urn: r.urn, name: nameOf(r.urn) });
      } else {
        run.steps.push({ op: "delete", urn: r.urn, name: nameOf(r.urn) });
        if (!preview && r.custom && r.id !== undefined) await host.delete(r.id, r.urn, r.outputs);
      }
      keep.delete(r.urn);
    }
    if (problems.length > 0) throw new Error(problems.join("\n"));
    return keep;
  }

  private async deploy(preview: boolean): Promise<OperationResult> {
    const project = readProject(this.projectDir);
    const { pwd, entry } = getPwdMain(this.projectDir, project.main);
    const run = this.newRun();
    const olds = new Map(this.resources.map((r) => [r.urn, r]));
    const news: StateResource[] = [];
    const seen = new Set<string>();
    const takenOver = new Set<string>();
    const pendingDeletes: StateResource[] = [];
    const failures: string[] = [];
    const limit = limiter(this.options.parallel ?? 16);
    let stackUrn = "";
    let stackOutputs: Props | undefined;
    let hostPromise: Promise<PulumiHost> | undefined;
    const host = (): Promise<PulumiHost> => (hostPromise ??= this.startHost(run));
    const inFlight = new Set<Promise<unknown>>();

    const qualifiedType = (type: string, parent: string): string => {
      if (!parent || parent === stackUrn) return type;
      const parentType = parent.split("::")[2];
      return `${parentType}$${type}`;
    };

    const register = async (req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> => {
      const type = req.getType();
      const parent = req.getParent();
      const urn = `urn:pulumi:${this.stack}::${project.name}::${qualifiedType(type, parent)}::${req.getName()}`;
      if (seen.has(urn)) throw new Error(`Duplicate resource URN '${urn}'; try giving it a unique name`);
      seen.add(urn);
      const res = new resproto.RegisterResourceResponse();
      res.setUrn(urn);
      res.setResult(resproto.Result.SUCCESS);
      const { plain: inputs, secrets } = unwrapSecrets((req.getObject()?.toJavaScript() ?? {}) as Props);
      const base = {
        urn,
        type,
        custom: req.getCustom(),
        parent: parent || undefined,
        dependencies: req.getDependenciesList(),
        protect: req.getProtect() === true,
        retainOnDelete: req.getRetainondelete() === true,
        deleteBeforeReplace: req.getDeletebeforereplace(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      };
      if (type === STACK_TYPE) stackUrn = urn;
      if (!base.custom) {
        run.steps.push({ op: olds.has(urn) ? "same" : "create", urn, name: nameOf(urn) });
        news.push({ ...base, inputs, outputs: {}, secrets });
        res.setObject(toStruct({}));
        return res;
      }
      if (!type.startsWith("pulumi-nodejs:dynamic")) throw new Error(`the engine emulator runs dynamic resources only, not ${type}`);

      // The old resource: same URN, or one of the aliases (which it then takes over).
      let old = olds.get(urn);
      if (!old) {
        for (const alias of req.getAliasurnsList()) {
          const o = olds.get(alias);
          if (o && !seen.has(alias)) {
            old = o;
            takenOver.add(alias);
            break;
          }
        }
      }
      if (old) takenOver.add(old.urn);

      const h = await host();
      return limit(async () => {
        const checked = await h.check(urn, old?.inputs ?? {}, inputs);
        if (checked.failures.length > 0) {
          const message = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
          run.diagnostics.push({ severity: "error", message, urn });
          throw new Error(`${urn}: ${message}`);
        }
        const newInputs = checked.inputs;
        const secretKeys = [...new Set([...secrets, ...base.additionalSecretOutputs])];
        let id: string | undefined;
        let outputs: Props;
        if (!old) {
          run.steps.push({ op: "create", urn, name: nameOf(urn) });
          if (preview) outputs = newInputs;
          else ({ id, properties: outputs } = await h.create(urn, newInputs));
        } else {
          const diff = await h.diff(old.id ?? "", urn, old.outputs, newInputs);
          const changes = diff.changes ?? !sameJson(old.inputs, newInputs);
          if (!changes) {
            run.steps.push({ op: "same", urn, name: nameOf(urn) });
            id = old.id;
            outputs = old.outputs;
          } else if (diff.replaces.length === 0) {
            run.steps.push({ op: "update", urn, name: nameOf(urn) });
            id = old.id;
            outputs = preview ? newInputs : await h.update(old.id ?? "", urn, old.outputs, newInputs);
          } else {
            if (old.protect) throw new Error(`unable to replace resource "${urn}" as it is currently marked for protection`);
            const dbr = diff.deleteBeforeReplace || base.deleteBeforeReplace;
            run.steps.push({ op: "replace", urn, name: nameOf(urn), replaces: diff.replaces, deleteBeforeReplace: dbr });
            if (preview) outputs = newInputs;
            else {
              if (dbr) {
                // The OLD provider text (in the old outputs) deletes the old resource first.
                if (!old.retainOnDelete) await h.delete(old.id ?? "", old.urn, old.outputs);
                olds.delete(old.urn);
                this.resources = this.resources.filter((r) => r.urn !== old!.urn);
              } else pendingDeletes.push(old);
              ({ id, properties: outputs } = await h.create(urn, newInputs));
            }
          }
        }
        news.push({ ...base, id, inputs: newInputs, outputs, secrets: secretKeys });
        if (id !== undefined) res.setId(id);
        res.setObject(toStruct(wrapSecrets(outputs, secretKeys)));
        return res;
      });
    };

    // A failed step cancels the deployment: the engine stops serving the program, whose pending
    // RPCs then fail and which exits (or is stopped), instead of waiting for outputs that never come.
    let cancelled = false;
    const cancel = (): void => {
      if (cancelled) return;
      cancelled = true;
      setTimeout(() => monitor.forceShutdown(), 1_000).unref();
      setTimeout(() => this.program?.kill("SIGKILL"), 3_000).unref();
    };
    const monitor = new grpc.Server();
    const track = <T>(p: Promise<T>): Promise<T> => {
      inFlight.add(p);
      void p.catch(() => undefined).finally(() => inFlight.delete(p));
      return p;
    };
    type Cb<T> = grpc.sendUnaryData<T>;
    const fail = (e: unknown) => ({ code: grpc.status.UNKNOWN, details: (e as Error).message }) as grpc.ServiceError;
    monitor.addService(resrpc.ResourceMonitorService, {
      supportsFeature(call: grpc.ServerUnaryCall<resproto.SupportsFeatureRequest, unknown>, cb: Cb<resproto.SupportsFeatureResponse>) {
        const res = new resproto.SupportsFeatureResponse();
        res.setHassupport(call.request.getId() === "secrets");
        cb(null, res);
      },
      registerResource(call: grpc.ServerUnaryCall<resproto.RegisterResourceRequest, unknown>, cb: Cb<resproto.RegisterResourceResponse>) {
        track(register(call.request)).then(
          (res) => cb(null, res),
          (e: unknown) => {
            failures.push((e as Error).message);
            cb(fail(e));
            cancel();
          },
        );
      },
      registerResourceOutputs(call: grpc.ServerUnaryCall<resproto.RegisterResourceOutputsRequest, unknown>, cb: Cb<Empty>) {
        if (call.request.getUrn() === stackUrn) stackOutputs = (call.request.getOutputs()?.toJavaScript() ?? {}) as Props;
        cb(null, new Empty());
      },
      signalAndWaitForShutdown(_call: unknown, cb: Cb<Empty>) {
        void Promise.allSettled([...inFlight]).then(() => cb(null, new Empty()));
      },
    } as unknown as grpc.UntypedServiceImplementation);

    const monitorAddress = await bind(monitor);
    const engine = await this.startEngine(run);

    let exitCode: number | null = null;
    try {
      exitCode = await this.runProgram(project, pwd, entry, monitorAddress, preview, run);
      await Promise.allSettled([...inFlight]);
      const programFailed = exitCode !== 0 || failures.length > 0;
      if (programFailed) {
        const errors = [...failures, ...run.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)];
        const message = `the program failed (exit code ${exitCode}):\n${[...new Set(errors)].join("\n") || run.programOutput.trim()}`;
        if (!preview) this.commit(news, olds, new Set(), pendingDeletes, true);
        throw new EngineError(message, this.result(run, hostPromise ? await hostPromise : undefined));
      }

      // Deletes at the end: resources no longer registered (and not taken over), then the old
      // halves of replacements; dependents first (reverse state order), with the OLD provider.
      const unseen = this.resources.filter((r) => !seen.has(r.urn) && !takenOver.has(r.urn)).reverse();
      const deletes = [...unseen, ...pendingDeletes.reverse()];
      let deleted = new Set<string>();
      if (deletes.length > 0) {
        const h = await host();
        const keep = await this.deleteAll(deletes, h, run, preview).catch((e: unknown) => {
          if (!preview) this.commit(news, olds, new Set(), [], false);
          throw e;
        });
        deleted = new Set(deletes.map((r) => r.urn).filter((u) => !keep.has(u)));
      }
      if (!preview) {
        this.commit(news, olds, deleted, [], false);
        const { plain, secrets } = unwrapSecrets(stackOutputs ?? {});
        this.stackOutputs = plain;
        this.stackSecretOutputs = secrets;
        this.save();
        return this.result(run, hostPromise ? await hostPromise : undefined);
      }
      const { plain, secrets } = unwrapSecrets(stackOutputs ?? {});
      return { ...this.result(run, hostPromise ? await hostPromise : undefined), outputs: plain, secretOutputs: secrets };
    } catch (e) {
      if (e instanceof EngineError) throw e;
      throw new EngineError((e as Error).message, this.result(run, hostPromise ? await hostPromise.catch(() => undefined) : undefined));
    } finally {
      if (hostPromise) await (await hostPromise.catch(() => undefined))?.close();
      monitor.forceShutdown();
      engine.forceShutdown();
      this.engineAddress = "127.0.0.1:1";
    }
  }

  /**
   * The new state: resources registered this run (registration order), then old ones not
   * registered and not deleted (after a failure: all of them, as the engine keeps them).
   */
  private commit(news: StateResource[], olds: Map<string, StateResource>, deleted: Set<string>, pending: StateResource[], failed: boolean): void {
    const registered = new Set(news.map((r) => r.urn));
    const kept = [...olds.values()].filter((r) => !registered.has(r.urn) && !deleted.has(r.urn));
    const stillPending = failed ? pending.filter((r) => !registered.has(r.urn)) : [];
    const next = [...news];
    for (const r of [...kept, ...stillPending]) if (!next.some((n) => n.urn === r.urn)) next.push(r);
    // Resources that took over an alias replace it: drop the alias entry.
    this.resources = next.filter((r) => !(deleted.has(r.urn) && !registered.has(r.urn)));
    this.save();
  }

  private runProgram(project: Project, pwd: string, entry: string, monitor: string, preview: boolean, run: ReturnType<EngineEmulator["newRun"]>): Promise<number | null> {
    const runner = require.resolve("@pulumi/pulumi/cmd/run", { paths: [pwd] });
    const config = this.fullConfig();
    const args = [
      runner,
      "--monitor", monitor,
      "--engine", this.engineAddress,
      "--project", project.name,
      "--root-directory", this.projectDir,
      "--stack", this.stack,
      "--pwd", pwd,
      ...(preview ? ["--dry-run"] : []),
      "--parallel", String(this.options.parallel ?? 16),
      entry,
    ];
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith("PULUMI_")) delete env[k];
    for (const [k, v] of Object.entries(this.options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    env.PULUMI_CONFIG = JSON.stringify(config);
    env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify([...this.secretKeys]);
    env.PULUMI_NODEJS_TYPESCRIPT = String(project.typescript);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: pwd, env, stdio: ["ignore", "pipe", "pipe"] });
      this.program = child;
      child.stdout.setEncoding("utf8").on("data", (d: string) => (run.programOutput += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (run.programOutput += d));
      child.once("error", reject);
      child.once("exit", (code) => resolve(code));
    });
  }

  /** Writes the checkpoint as Pulumi's file backend would: secret values encrypted. */
  private save(): void {
    const encrypt = (value: unknown): Props => {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", this.key, iv);
      const text = Buffer.concat([c.update(JSON.stringify(value), "utf8"), c.final(), c.getAuthTag()]);
      return { [SECRET_SIG_KEY]: SECRET_SIG, ciphertext: `v1:${iv.toString("base64")}:${text.toString("base64")}` };
    };
    const seal = (props: Props, secrets: string[]): Props => {
      const out = { ...props };
      for (const k of secrets) if (k in out) out[k] = encrypt(out[k]);
      return out;
    };
    const resources = this.resources.map((r) => ({
      urn: r.urn,
      custom: r.custom,
      ...(r.id !== undefined ? { id: r.id } : {}),
      type: r.type,
      inputs: seal(r.inputs, r.secrets),
      outputs: seal(r.type === STACK_TYPE ? this.stackOutputs : r.outputs, r.type === STACK_TYPE ? this.stackSecretOutputs : r.secrets),
      ...(r.parent ? { parent: r.parent } : {}),
      ...(r.protect ? { protect: true } : {}),
      ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(r.dependencies.length > 0 ? { dependencies: r.dependencies } : {}),
      ...(r.additionalSecretOutputs.length > 0 ? { additionalSecretOutputs: r.additionalSecretOutputs } : {}),
    }));
    const doc = { version: 3, checkpoint: { stack: this.stack, latest: { manifest: { magic: "emulator", version: "v3" }, secrets_providers: { type: "emulator" }, resources } } };
    writeFileSync(this.checkpointFile, JSON.stringify(doc, null, 4));
  }
}

export { PROVIDER_KEY, UNKNOWN_VALUE };
