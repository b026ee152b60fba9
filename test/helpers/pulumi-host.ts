/**
 * Drives Pulumi dynamic providers without the Pulumi CLI (docs/CONTRACT.md part 6).
 *
 * Two steps, as `pulumi up` does them:
 *
 * 1. **Capture** (`capturePulumiResources`): runs `test/helpers/pulumi-capture.js` with plain
 *    `node` on a compiled CommonJS module (e.g. `dist/pulumi/...`). The module's export declares
 *    resources under `pulumi.runtime.setMocks`; the script records every
 *    `pulumi-nodejs:dynamic[/<module>]:<Type>` registration: name, URN, inputs (including
 *    `__provider`, the serialized provider source the engine stores in state for every resource)
 *    and options (`additionalSecretOutputs`, ...). It must not run inside vitest: vitest
 *    transforms sources and the closure serializer needs the real function text.
 *
 * 2. **Host** (`startPulumiHost`): spawns the real dynamic-provider host
 *    `node @pulumi/pulumi/cmd/dynamic-provider/index.js <engine-address>` (cwd = project root)
 *    and talks to it over gRPC (`pulumirpc.ResourceProvider`) as the engine does. The host
 *    and the capture preload test/helpers/pulumi-lazy-deps.js: the two packages @pulumi/pulumi
 *    loads for function serialization (typescript, @npmcli/arborist) load at their first use.
 *    - The host requires an engine address argument but (3.248) never dials it, so no fake
 *      engine server is needed; a placeholder is passed. It prints its gRPC port on the first
 *      stdout line; errors of check/diff/read/delete are also printed on its stderr, which is
 *      kept (`host.stderr()`) and appended to rejected calls' messages.
 *    - Every resource call must carry `__provider` (the captured text) in `news`/`properties`:
 *      the host deserializes it with `require-from-string` (module paths resolve from the host's
 *      cwd, hence cwd = project root so `require("p-retry")` etc. resolve), calls `handler()`,
 *      and caches the provider per provider text for the life of the process.
 *    - `configure(vars)` sends ConfigureRequest.args = the whole stack config with full keys
 *      (`"wavix:apiKey"`), as the engine does for dynamic providers since pulumi#17697. The
 *      host only stores it; the provider's optional `configure({config})` method is called with
 *      `config.get("wavix:apiKey")` (keys without `:` are prefixed by the project name) on the
 *      FIRST deserialization of a given provider text in this process. Hence: call
 *      `configure` before any resource call (the host crashes the call otherwise, its config is
 *      undefined), and start a new host to change config. `pulumi.Config` does NOT work in the
 *      host (no PULUMI_CONFIG); `process.env` does (the child env is set by `env`).
 *    - Secrets: the host answers `acceptSecrets: false`, so the engine strips secret wrappers
 *      from resource properties before calling it: send plain values. Only configure values may
 *      arrive wrapped (`{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 *      value}`); the host unwraps them (`configure(vars, { secretKeys })` sends them so).
 *      `additionalSecretOutputs` is applied by the engine, not the provider: assert it on the
 *      captured options.
 *    - Unknowns (preview) are the string `UNKNOWN_VALUE`.
 *    - Struct values are JSON-like: numbers come back as doubles and `undefined` must not appear
 *      (google-protobuf throws on it; this helper drops undefined keys before sending, but the
 *      host does `Struct.fromJavaScript(outs)` on what the provider returns, so a provider that
 *      returns `undefined` in `outs`/`props` fails the call).
 *
 * Serializer pitfalls seen with @pulumi/pulumi 3.248 on Node 20 (project code the provider
 * reaches is copied as source; node_modules packages become `require("name")`):
 *    - ES `#private` members in copied classes: the host fails to load the provider
 *      ("Private field '#x' must be declared in an enclosing class").
 *    - Class field initializers (`queue = Promise.resolve()`, emitted natively for target
 *      ES2022) are dropped: only the constructor body and prototype members are copied.
 *    - Copied subclasses of Error with no own methods lose their prototype chain (not
 *      `instanceof Error`, no message).
 *    - `const { default: pRetry } = require("p-retry")` fails to serialize; keep the module
 *      object (`p_retry_1.default(...)`, what tsc emits) so it stays `require("p-retry")`.
 *      ESM-only p-retry then loads fine in the host (the echo fixture proves it).
 *
 * Per call (request fields -> what the host does):
 *   configure(args)                 stores config, answers acceptSecrets=false
 *   check(urn, olds, news)          provider.check(olds, news) -> {inputs (+__provider), failures}
 *   diff(id, urn, olds, news)       provider.diff(id, olds, news) -> changes/replaces/deleteBeforeReplace
 *   create(urn, properties)         provider.create(props) -> {id, properties (+__provider)}
 *   read(id, urn, properties, inputs) provider.read(id, props) -> {id ("" = gone), properties, inputs}
 *   update(id, urn, olds, news)     provider.update(id, olds, news) -> properties (+__provider)
 *   delete(id, urn, properties)     provider.delete(id, props)
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import { loopbackChildEnv } from "./child-env";

/** Repository root (this file lives in test/helpers/). */
export const PROJECT_ROOT = path.resolve(__dirname, "..", "..");
/** Preloaded by the host and the capture (test/helpers/pulumi-lazy-deps.js). */
const LAZY_DEPS = path.join(PROJECT_ROOT, "test", "helpers", "pulumi-lazy-deps.js");
/** Key of the serialized provider in every dynamic resource's inputs/state. */
export const PROVIDER_KEY = "__provider";
/** What the engine sends for a value not known during preview. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** Signature key/value of a secret wrapper in Pulumi's wire format. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Plain JSON-like property bag, as carried in a google.protobuf.Struct. */
export type Props = Record<string, unknown>;

/** One dynamic resource as recorded by `pulumi-capture.js`. */
export interface CapturedResource {
  /** e.g. `pulumi-nodejs:dynamic/wavix:PhoneNumber` */
  type: string;
  name: string;
  urn: string;
  custom: boolean;
  /** Deserialized inputs, `__provider` included; secrets stay wrapped (see SECRET_SIG_KEY). */
  inputs: Props;
  /** Top-level input keys that were secret. */
  secretInputs: string[];
  /** The serialized provider source (unwrapped if it was a secret). */
  provider: string;
  /** True when the provider closure captured a secret Output (it should never). */
  providerIsSecret: boolean;
  options: {
    additionalSecretOutputs: string[];
    ignoreChanges: string[];
    replaceOnChanges: string[];
    protect: boolean;
    deleteBeforeReplace: boolean;
    retainOnDelete: boolean;
    parent: string;
    dependencies: string[];
    aliases: unknown[];
  };
}

export interface CaptureOptions {
  /** Argument passed to the export (a function gets it as-is; a class gets `{name, args, opts}`). @default {} */
  args?: unknown;
  /** Extra environment for the capture process; `undefined` removes a variable. @default {} */
  env?: Record<string, string | undefined>;
  /** Also record non-dynamic resources. @default false */
  all?: boolean;
  /** @default 60000 */
  timeoutMs?: number;
}

/** The child environment: the current one (loopback only: no extra CA bundle) plus overrides (`undefined` deletes). */
const childEnv = loopbackChildEnv;

/** One capture waiting for its batch's process. */
interface CaptureJob {
  modulePath: string;
  exportName: string;
  args: unknown;
  resolve(resources: CapturedResource[]): void;
  reject(err: Error): void;
}

/** Captures asked for in the same turn of the event loop with the same environment, by that environment. */
const pendingBatches = new Map<string, { env: NodeJS.ProcessEnv; timeoutMs: number; jobs: CaptureJob[] }>();

/**
 * Runs `exportName` of the compiled CommonJS module `modulePath` under `setMocks` in a child
 * `node` process and returns the dynamic resources it declared.
 *
 * Captures started in the same turn of the event loop (`Promise.all([capture(a), capture(b)])`)
 * with the same `env` and `all` run in ONE child, one after another, each under its own mocks
 * (pulumi-capture.js `--batch`): loading @pulumi/pulumi is some 0.8 CPU-s of a capture's 0.85, and
 * a batch loads it once. Each capture still resolves or rejects on its own.
 */
export function capturePulumiResources(
  modulePath: string,
  exportName: string,
  options: CaptureOptions = {},
): Promise<CapturedResource[]> {
  const env = childEnv({ ...options.env, PULUMI_CAPTURE_ALL: options.all ? "1" : undefined });
  const key = JSON.stringify([options.env ?? {}, options.all === true]);
  return new Promise((resolve, reject) => {
    let batch = pendingBatches.get(key);
    if (!batch) {
      batch = { env, timeoutMs: 0, jobs: [] };
      pendingBatches.set(key, batch);
      setImmediate(() => {
        pendingBatches.delete(key);
        runCaptureBatch(batch!);
      });
    }
    batch.timeoutMs += options.timeoutMs ?? 60_000;
    batch.jobs.push({ modulePath: path.resolve(PROJECT_ROOT, modulePath), exportName, args: options.args ?? {}, resolve, reject });
  });
}

function runCaptureBatch(batch: { env: NodeJS.ProcessEnv; timeoutMs: number; jobs: CaptureJob[] }): void {
  const script = path.join(PROJECT_ROOT, "test", "helpers", "pulumi-capture.js");
  const failAll = (message: string) => {
    for (const job of batch.jobs) job.reject(new Error(`pulumi capture of ${job.exportName} failed: ${message}`));
  };
  const child = execFile(
    process.execPath,
    [script, "--batch"],
    { cwd: PROJECT_ROOT, env: batch.env, timeout: batch.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
    (err, stdout, stderr) => {
      let results: Array<{ resources?: CapturedResource[]; error?: string }> | undefined;
      try {
        results = (JSON.parse(stdout) as { batch: typeof results }).batch;
      } catch (e) {
        failAll(err ? `${err.message}\n${stderr}` : `pulumi capture printed no JSON: ${String(e)}\n${stderr}`);
        return;
      }
      // Exit 1 with every job done: the runtime found leaked promises at exit (stderr says so).
      const leaked = err && results!.every((r) => r.resources);
      batch.jobs.forEach((job, i) => {
        const r = results![i];
        if (r?.resources && !leaked) job.resolve(r.resources);
        else job.reject(new Error(`pulumi capture of ${job.exportName} failed: ${r?.error ?? err?.message ?? "no result"}\n${stderr}`));
      });
    },
  );
  child.stdin!.end(JSON.stringify(batch.jobs.map(({ modulePath, exportName, args }) => ({ modulePath, exportName, args }))));
}

/** Drops keys whose value is `undefined`, deeply, as JSON would (Struct rejects undefined). */
function toStructValue(value: unknown): JavaScriptValue {
  return JSON.parse(JSON.stringify(value ?? {})) as JavaScriptValue;
}

function toStruct(props: Props): Struct {
  return Struct.fromJavaScript(toStructValue(props) as Record<string, JavaScriptValue>);
}

function fromStruct(s: Struct | undefined): Props {
  return s ? (s.toJavaScript() as Props) : {};
}

/** A copy of `props` without `__provider`, for assertions. */
export function stripProvider(props: Props): Props {
  const { [PROVIDER_KEY]: _omit, ...rest } = props;
  return rest;
}

/** Wraps a value the way the engine marks a secret. */
export function secretValue(value: unknown): Props {
  return { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

export interface CheckResult {
  /** Inputs after check, `__provider` included. */
  inputs: Props;
  failures: { property: string; reason: string }[];
}

export interface DiffResult {
  /** `DIFF_SOME` → true, `DIFF_NONE` → false, `DIFF_UNKNOWN` (provider has no diff) → undefined. */
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export interface CreateResult {
  id: string;
  /** Outputs, `__provider` included. */
  properties: Props;
}

export interface ReadResult {
  /** `""` when the provider reports the resource gone (the engine then drops it). */
  id: string;
  properties: Props;
  /** Present when the provider returned inputs (refresh updates state inputs). */
  inputs: Props | undefined;
}

/** Low-level engine-side API over one host process; props must carry `__provider`. */
export interface PulumiHost {
  /** Port the host listens on (loopback). */
  readonly port: number;
  /** Host process id. */
  readonly pid: number;
  /**
   * Sends the stack config (full keys, e.g. `"wavix:apiKey"`). `secretKeys` are sent wrapped
   * as secrets, as the engine does for secret config; the host unwraps them.
   */
  configure(vars: Record<string, string>, options?: { secretKeys?: string[] }): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffResult>;
  create(urn: string, props: Props): Promise<CreateResult>;
  read(id: string, urn: string, props: Props, inputs?: Props): Promise<ReadResult>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<Props>;
  delete(id: string, urn: string, props: Props): Promise<void>;
  /** A driver bound to one captured resource: injects its `__provider` and URN. */
  forResource(resource: Pick<CapturedResource, "urn" | "provider">): PulumiResourceDriver;
  /** Everything the host wrote to stderr so far. */
  stderr(): string;
  /** Everything the host wrote to stdout so far (first line is the port). */
  stdout(): string;
  /** Closes the channel and kills the host (SIGTERM, then SIGKILL after 2 s). Idempotent. */
  close(): Promise<void>;
}

/** Same calls as PulumiHost, bound to a resource; `__provider` is added when absent. */
export interface PulumiResourceDriver {
  readonly urn: string;
  readonly provider: string;
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(props: Props): Promise<CreateResult>;
  read(id: string, props: Props, inputs?: Props): Promise<ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<Props>;
  delete(id: string, props: Props): Promise<void>;
}

export interface StartHostOptions {
  /** Extra environment for the host (e.g. WAVIX_BASE_URL); `undefined` removes a variable. @default {} */
  env?: Record<string, string | undefined>;
  /** Working directory; module resolution of serialized providers starts here. @default PROJECT_ROOT */
  cwd?: string;
  /**
   * The engine address passed as the host's first argument, as the engine passes its own to every
   * plugin (providers may send `Log` calls there). @default "127.0.0.1:1" (nothing listens)
   */
  engineAddress?: string;
  /** Max wait for the host to print its port. @default 20000 */
  startTimeoutMs?: number;
  /** Deadline of each gRPC call. @default 30000 */
  callTimeoutMs?: number;
}

/** Hosts alive in this process, killed on exit in case a test forgets `close()`. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of liveChildren) c.kill("SIGKILL");
    });
  }
}

type Unary<Req, Res> = (
  req: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  cb: (err: grpc.ServiceError | null, res: Res) => void,
) => grpc.ClientUnaryCall;

/** Spawns the dynamic-provider host and connects to it. */
export async function startPulumiHost(options: StartHostOptions = {}): Promise<PulumiHost> {
  // The engine runs the host of the program's own @pulumi/pulumi; resolve it from where it starts.
  const hostScript = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [options.cwd ?? PROJECT_ROOT, PROJECT_ROOT] });
  // The real host, with typescript and @npmcli/arborist (which it never uses) loaded at their first
  // use instead of with @pulumi/pulumi: 0.25 CPU-s to start instead of 0.75 (pulumi-lazy-deps.js).
  const child = spawn(process.execPath, ["--require", LAZY_DEPS, hostScript, options.engineAddress ?? "127.0.0.1:1"], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: childEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  trackChild(child);
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`dynamic-provider host printed no port in time; stderr: ${err}`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (): void => {
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      cleanup();
      const p = Number(out.slice(0, nl).trim());
      if (Number.isInteger(p) && p > 0) resolve(p);
      else reject(new Error(`dynamic-provider host printed ${JSON.stringify(out.slice(0, nl))}; stderr: ${err}`));
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`dynamic-provider host exited (${code}) before listening; stderr: ${err}`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.off("exit", onExit);
    };
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
  }).catch((e: unknown) => {
    child.kill("SIGKILL");
    throw e;
  });

  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  let closed = false;
  let configured = false;

  function unary<Req, Res>(name: string, fn: Unary<Req, Res>, req: Req): Promise<Res> {
    if (closed) return Promise.reject(new Error(`pulumi host closed; cannot ${name}`));
    return new Promise((resolve, reject) => {
      fn.call(client, req, new grpc.Metadata(), { deadline: Date.now() + callTimeoutMs }, (e, res) => {
        if (e) {
          const tail = err.trim() ? `\nhost stderr:\n${err.trim().split("\n").slice(-20).join("\n")}` : "";
          reject(Object.assign(new Error(`${name} failed: ${e.details || e.message}${tail}`), { code: e.code, details: e.details }));
        } else resolve(res);
      });
    });
  }

  function requireProvider(name: string, ...bags: Props[]): void {
    if (!configured) {
      // The host builds the provider's Config from what Configure stored; without it the
      // provider's configure() sees an undefined config (the engine always configures first).
      throw new Error(`pulumi host: call configure() before ${name}`);
    }
    for (const b of bags) {
      if (typeof b[PROVIDER_KEY] !== "string") {
        throw new Error(`pulumi host: ${name} needs ${PROVIDER_KEY} (the serialized provider) in its props`);
      }
    }
  }

  const host: PulumiHost = {
    port,
    pid: child.pid ?? -1,
    async configure(vars, opts = {}) {
      const secret = new Set(opts.secretKeys ?? []);
      const args: Props = {};
      for (const [k, v] of Object.entries(vars)) args[k] = secret.has(k) ? secretValue(v) : v;
      const req = new provproto.ConfigureRequest();
      req.setArgs(toStruct(args));
      // The engine also sets acceptSecrets/acceptResources; the dynamic host ignores them.
      req.setAcceptsecrets(true);
      req.setAcceptresources(true);
      await unary("configure", client.configure as Unary<provproto.ConfigureRequest, provproto.ConfigureResponse>, req);
      configured = true;
    },
    async check(urn, olds, news) {
      requireProvider("check", news);
      const req = new provproto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await unary("check", client.check as Unary<provproto.CheckRequest, provproto.CheckResponse>, req);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news) {
      requireProvider("diff", news);
      const req = new provproto.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await unary("diff", client.diff as Unary<provproto.DiffRequest, provproto.DiffResponse>, req);
      const c = res.getChanges();
      const Changes = provproto.DiffResponse.DiffChanges;
      return {
        changes: c === Changes.DIFF_SOME ? true : c === Changes.DIFF_NONE ? false : undefined,
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(urn, props) {
      requireProvider("create", props);
      const req = new provproto.CreateRequest();
      req.setUrn(urn);
      req.setProperties(toStruct(props));
      const res = await unary("create", client.create as Unary<provproto.CreateRequest, provproto.CreateResponse>, req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, props, inputs) {
      requireProvider("read", props);
      const req = new provproto.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(props));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await unary("read", client.read as Unary<provproto.ReadRequest, provproto.ReadResponse>, req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()), inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined };
    },
    async update(id, urn, olds, news) {
      requireProvider("update", news);
      const req = new provproto.UpdateRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await unary("update", client.update as Unary<provproto.UpdateRequest, provproto.UpdateResponse>, req);
      return fromStruct(res.getProperties());
    },
    async delete(id, urn, props) {
      requireProvider("delete", props);
      const req = new provproto.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(props));
      await unary("delete", client.delete as Unary<provproto.DeleteRequest, unknown>, req);
    },
    forResource(resource) {
      const withP = (p: Props): Props => (PROVIDER_KEY in p ? p : { ...p, [PROVIDER_KEY]: resource.provider });
      const { urn } = resource;
      return {
        urn,
        provider: resource.provider,
        check: (olds, news) => host.check(urn, olds, withP(news)),
        diff: (id, olds, news) => host.diff(id, urn, withP(olds), withP(news)),
        create: (props) => host.create(urn, withP(props)),
        read: (id, props, inputs) => host.read(id, urn, withP(props), inputs && withP(inputs)),
        update: (id, olds, news) => host.update(id, urn, withP(olds), withP(news)),
        delete: (id, props) => host.delete(id, urn, withP(props)),
      };
    },
    stderr: () => err,
    stdout: () => out,
    async close() {
      if (closed) return;
      closed = true;
      client.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const killTimer = setTimeout(() => child.kill("SIGKILL"), 2_000);
        child.once("exit", () => {
          clearTimeout(killTimer);
          resolve();
        });
        child.kill("SIGTERM");
      });
    },
  };
  return host;
}
