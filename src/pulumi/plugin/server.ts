/**
 * The native provider `pulumi-resource-wavix` (docs/PULUMI.md; docs/ARCHITECTURE.md, "The per-kind
 * provider"): Pulumi's ResourceProvider gRPC service (pulumi/pulumi proto/pulumi/provider.proto),
 * its no-change calls' messages read and written by hand (src/pulumi/plugin/fast-wire.ts,
 * fast-answers.ts), the writes' on the stubs `@pulumi/pulumi` ships, served on HTTP/2 framed by
 * hand (src/pulumi/plugin/h2-server.ts, whose handlers are called as `@grpc/grpc-js` calls them),
 * serving every registered kind's provider
 * (`kind.provider()`, the logic the dynamic resources run too) as the resource
 * `wavix:index:<type>`, and the data sources as functions.
 *
 * What it adds to the kinds' logic is the engine's side of the protocol:
 *  - provider config (CheckConfig, DiffConfig, Configure) as one `ProviderSession` per
 *    configuration (src/kit/provider/session.ts), the API key read from Configure's `args` where it
 *    is still a secret (`@pulumi/pulumi`'s own `provider.main()` ignores Configure: pulumi/pulumi#10915);
 *  - values: secrets unwrapped for the kinds and wrapped again in every answer (the schema's secret
 *    properties always, and whatever the program sent as a secret), unknowns as the kit's `UNKNOWN`;
 *  - a detailed diff: one entry per changed property (`defaultDestinations.smsEndpoint`: update),
 *    `replaces` only where a kind says so; an id a diff keeps is recorded (`recordKept`);
 *  - previews that send nothing (Create and Update with `preview` answer from the inputs, outputs
 *    not known yet as unknowns);
 *  - `pulumi import`: a Read with no state is the kind's `import` by its documented id.
 * Errors go back to the engine as their message (one line, no stack): the engine prints it once,
 * naming the resource.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as grpc from "@grpc/grpc-js";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import type { Empty as EmptyType } from "google-protobuf/google/protobuf/empty_pb";
import type { KindProvider } from "../../kit/provider/contract";
import type { Credentials, ProviderSession } from "../../kit/provider/session";
import { UNKNOWN, type Props } from "../../kit/provider/props";
import { secretProperties, token, type ResourceSchema } from "../../kit/provider/schema";
import { warnEngine } from "../engine-log";
import { committedSchemaText } from "./schema-file";
import { MISSING_KEY_HINT } from "../key-hint";
import { ACCOUNT_TYPE, accountSchema } from "./account-schema";
import { packageVersion } from "./version";
import { decode, encode, sameJson, type JsonValue } from "./wire";
import { CheckFailureOut, CheckResponseOut, ConfigureResponseOut, DiffChanges, DiffKind, DiffResponseOut, EmptyOut, PlainStruct, PluginInfoOut, PropertyDiffOut, SchemaResponseOut } from "./fast-answers";
import { Status, type UnaryHandler, type UnaryHandlers } from "./h2-server";

/**
 * What serving a call needs beyond gRPC, loaded on the first call that needs it unless the
 * preload (`preloadSteps`) has loaded it already: the plugin prints its port after loading its
 * HTTP/2 server only (docs/SPEED.md, "The native plugin's start").
 */
const lazy = {
  get kinds(): typeof import("../../kinds") {
    return require("../../kinds");
  },
  get session(): typeof import("../../kit/provider/session") {
    return require("../../kit/provider/session");
  },
  get entryCheck(): typeof import("../entry-check") {
    return require("../entry-check");
  },
  get config(): typeof import("./config") {
    return require("./config");
  },
  get guards(): typeof import("../../kit/provider/guards") {
    return require("../../kit/provider/guards");
  },
  get invoke(): typeof import("./invoke") {
    return require("./invoke");
  },
  get account(): typeof import("./account") {
    return require("./account");
  },
};

/**
 * Each kind's resource type (`kind.pulumi.type`) and where the kind is (its folder under src/kinds/,
 * its export): a Check, the first call of a resource, loads its own kind, not the registry's seven
 * (docs/SPEED.md, "The native plugin's start"). test/pulumi/plugin-kind-modules.test.ts holds it to
 * the registry (src/kinds/index.ts).
 */
export const KIND_MODULES: Readonly<Record<string, readonly [folder: string, exported: string]>> = {
  SubAccount: ["sub-account", "subAccountKind"],
  SipTrunk: ["sip-trunk", "sipTrunkKind"],
  CallWebhook: ["call-webhook", "callWebhookKind"],
  PhoneNumber: ["number", "numberKind"],
  SenderId: ["sender-id", "senderIdKind"],
  TenDlcCampaignNumber: ["ten-dlc-number", "tenDlcNumberKind"],
  AccountCallbacks: ["account-callbacks", "accountCallbacksKind"],
};

/** The kind serving a resource type (`wavix:index:PhoneNumber`), loading its module alone; undefined when none does. */
function kindOfType(type: string): import("../../kinds").AnyKind | undefined {
  const prefix = token("");
  const at = type.startsWith(prefix) && Object.hasOwn(KIND_MODULES, type.slice(prefix.length)) ? KIND_MODULES[type.slice(prefix.length)] : undefined;
  if (!at) return undefined;
  const kind = (require(`../../kinds/${at[0]}`) as Record<string, import("../../kinds").AnyKind>)[at[1]];
  return kind !== undefined && token(kind.pulumi.type) === type ? kind : undefined;
}

/**
 * The generated stubs and the gRPC library they load (one instance, so their classes match), each
 * loaded when first used (src/pulumi/plugin/main.ts `loadStubs`). The plugin writes its writes'
 * answers with the message classes (src/pulumi/plugin/service.ts); `grpc` and `service` (the stubs'
 * own service definition, which loads `@grpc/grpc-js`) are for clients and tests.
 */
export interface Stubs {
  grpc: typeof grpc;
  provider: typeof providerPb;
  plugin: typeof pluginPb;
  Struct: typeof StructType;
  Empty: typeof EmptyType;
  service: grpc.ServiceDefinition;
}

/** What the provider needs to know about one resource type, from its kind. */
interface ResourceType {
  /** The type's name (`PhoneNumber`, `Account`). */
  readonly name: string;
  readonly provider: KindProvider;
  /** A refresh keeps the inputs state holds (`wavix:index:Account`: they are the file's content, not the account's). */
  readonly keepsInputsOnRead?: boolean;
  readonly schema: ResourceSchema;
  /** Outputs always secret. */
  readonly secretOutputs: readonly string[];
  /** Inputs always secret. */
  readonly secretInputs: readonly string[];
  /** Outputs a create makes (not inputs, or always set): unknown in a preview until the create has run. */
  readonly computed: readonly string[];
}

/** The resource type of a request: its `type` field (engines since 3.1xx), else its URN's last type. */
function typeOf(req: { getType?(): string; getUrn?(): string }): string {
  const t = req.getType?.();
  if (t) return t;
  const urn = req.getUrn?.() ?? "";
  const parts = urn.split("::");
  return parts.length >= 4 ? (parts[2].split("$").pop() ?? "") : "";
}

/** A message, never a stack: the engine shows it as the resource's error. */
function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

const isEmpty = (p: Props): boolean => Object.keys(p).length === 0;

/** A property's value by its path (`defaultDestinations.smsEndpoint`, `destinations[0]`). */
function at(props: Props, p: string): unknown {
  let v: unknown = props;
  for (const part of p.split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== "")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Props)[part];
  }
  return v;
}

const topOf = (p: string): string => p.split(/[.[]/)[0];

export interface ProviderOptions {
  /** The schema served by GetSchema. @default schemas/pulumi/schema.json of this package */
  schemaText?: () => string;
  /** Warnings for the person running the engine. @default the engine's Log service (src/pulumi/engine-log.ts) */
  warn?: (message: string, urn: string) => void;
  /**
   * Called once, on the first call that configures the provider or checks a resource (CheckConfig,
   * Configure, Check): this instance serves resources, so what they need may be loaded. The
   * engine also starts instances that only answer GetSchema (for the language host): they never
   * load the kinds. @default nothing
   */
  onServing?: () => void;
}

/** The ResourceProvider service's methods over the registered kinds. */
export class WavixProvider {
  private session: ProviderSession | undefined;
  private readonly types = new Map<string, ResourceType>();
  /** The URN of the request being served, so a kind's warning is shown under its resource. */
  private readonly current = new AsyncLocalStorage<string>();
  /** URNs this process imported (a Read with no state): their next Check is the import's, no create follows. */
  private readonly imported = new Set<string>();
  private readonly warn: (message: string, urn: string) => void;
  private readonly schemaText: () => string;
  private onServing: (() => void) | undefined;

  constructor(
    private readonly stubs: Stubs,
    options: ProviderOptions = {},
  ) {
    this.warn = options.warn ?? warnEngine;
    this.onServing = options.onServing;
    this.schemaText = options.schemaText ?? committedSchemaText;
  }

  /** The context of the configuration of the moment; the environment's credentials before any Configure. */
  private context(): ProviderSession {
    this.session ??= this.sessionFor({});
    return this.session;
  }

  private sessionFor(credentials: Credentials): ProviderSession {
    return new lazy.session.ProviderSession({
      credentials,
      missingApiKeyHint: MISSING_KEY_HINT,
      warn: (message) => {
        const urn = this.current.getStore() ?? "";
        // `pulumi import` checks the resource it has just read with no old inputs, as if a create
        // followed; none does: the adoption hint would be false (docs/PULUMI.md, "Import").
        if (this.imported.has(urn) && message.includes(lazy.guards.ADOPTION_HINT)) return;
        this.warn(message, urn);
      },
      // The file's checks are loaded by the first entry checked, not by Configure.
      checkEntry: (doc, label) => lazy.entryCheck.validateEntry(doc, label),
    });
  }

  private resourceType(type: string): ResourceType {
    let t = this.types.get(type);
    if (t) return t;
    if (type === token(ACCOUNT_TYPE)) {
      // The whole account as one resource (src/pulumi/plugin/account.ts): not a kind, the plan engine's face.
      const schema = accountSchema.resource;
      const provider = new lazy.account.AccountProvider();
      t = {
        name: ACCOUNT_TYPE,
        provider,
        keepsInputsOnRead: true,
        schema,
        secretOutputs: [],
        secretInputs: [],
        computed: Object.keys(schema.properties).filter((k) => !(k in schema.inputProperties) || schema.required.includes(k)),
      };
      this.types.set(type, t);
      return t;
    }
    const kind = kindOfType(type);
    if (!kind) {
      const { KINDS } = lazy.kinds;
      throw new Error(`the wavix provider has no resource type ${JSON.stringify(type)} (its types: ${[...KINDS.map((k) => token(k.pulumi.type)), token(ACCOUNT_TYPE)].join(", ")})`);
    }
    const schema = kind.pulumi.schema().resource;
    const computed = Object.keys(schema.properties).filter((k) => !(k in schema.inputProperties) || schema.required.includes(k));
    t = {
      name: kind.pulumi.type,
      provider: kind.provider(),
      schema,
      secretOutputs: secretProperties(schema.properties),
      secretInputs: secretProperties(schema.inputProperties),
      computed,
    };
    this.types.set(type, t);
    return t;
  }

  private struct(props: object, secrets: Iterable<string>): StructType {
    return this.stubs.Struct.fromJavaScript(encode(props, secrets) as { [key: string]: JsonValue });
  }

  /**
   * What serving resources needs, loaded from the first CheckConfig on while the engine is busy
   * elsewhere, one small step at a time, so that a call arriving meanwhile waits for one step at
   * most (docs/SPEED.md, "The native plugin's start"). First what every resource's first Check
   * needs: the settings' checks (CheckConfig, Configure), the provider session and the file's
   * checks. A Check loads its own kind; the other kinds' resource types, the write guards and the
   * whole-account resource wait for the first resource call to be answered (a step that is a
   * promise is waited for), so that they never stand between the handshake and the first Check; an
   * instance whose first resource is an Account loads none of them.
   */
  *preloadSteps(): Generator<() => void | Promise<unknown>, void, undefined> {
    // CheckConfig and Configure, the engine's first calls after the handshake, need the settings' checks.
    yield () => require("../../kit/provider/session");
    yield () => void lazy.config;
    yield () => require("../../client/errors");
    yield () => require("../../client");
    yield () => void this.context();
    yield () => require("../../config/schema");
    yield () => require("../../config/load");
    // One entry through the file's checks: V8 compiles the schema's validator on its first run, and the path every Check takes is warmed.
    yield () => void lazy.entryCheck.validateEntry({ numbers: [{ number: "15550000000", sms_enabled: true }] }, "preload");
    yield () => this.firstAnswered;
    // An instance whose resource is the whole account (src/pulumi/plugin/account.ts) needs no kind's
    // resource type: its Diff's reads, which start once its Check has answered, load what they use.
    if (this.types.size === 1 && this.types.has(token(ACCOUNT_TYPE))) return;
    for (const folder of Object.values(KIND_MODULES).map(([f]) => f)) yield () => require(`../../kinds/${folder}`);
    for (const k of lazy.kinds.KINDS) yield () => void this.resourceType(token(k.pulumi.type));
    yield () => void lazy.guards;
    // The whole-account resource (src/pulumi/plugin/account.ts; the plan engine loads with the reads of its first Diff).
    yield () => void this.resourceType(token(ACCOUNT_TYPE));
  }

  /** Resolved once the first resource call (Check, Diff, Read, Create, Update, Delete, Invoke) has been answered. */
  private readonly firstAnswered = new Promise<void>((resolve) => (this.answered = resolve));
  /** Resolves {@link firstAnswered}; unset once it has. */
  private answered: (() => void) | undefined;
  private firstAnswer(): void {
    const f = this.answered;
    this.answered = undefined;
    f?.();
  }

  /** The first call of an instance that serves resources: {@link ProviderOptions.onServing}, once. */
  private serving(): void {
    const f = this.onServing;
    this.onServing = undefined;
    f?.();
  }

  /** GetSchema's one answer, its bytes written once (the schema is some 60 KB). */
  private schemaAnswer: SchemaResponseOut | undefined;

  /** The gRPC handlers, by method name (served by src/pulumi/plugin/h2-server.ts). */
  handlers(): UnaryHandlers {
    const unary =
      <Req extends object, Res>(fn: (req: Req) => Promise<Res> | Res): UnaryHandler<Req, Res> =>
      (call, callback) => {
        const urn = (call.request as { getUrn?(): string | undefined }).getUrn?.() ?? "";
        if (serving.has(fn)) this.serving();
        this.current.run(urn, () => {
          Promise.resolve()
            .then(() => fn(call.request))
            .then(
              (res) => {
                callback(null, res);
                if (this.answered && !configOnly.has(fn)) this.firstAnswer();
              },
              (err: unknown) => {
                callback({ code: Status.UNKNOWN, details: messageOf(err) });
                if (this.answered && !configOnly.has(fn)) this.firstAnswer();
              },
            );
        });
      };

    const serving = new Set<unknown>();
    // Calls about the provider itself, not a resource (the preload's second part waits for a resource call).
    const configOnly = new Set<unknown>();
    const configCall = <F>(fn: F): F => {
      configOnly.add(fn);
      return fn;
    };
    const servingCall = <F>(fn: F): F => {
      serving.add(fn);
      return fn;
    };
    return {
      getPluginInfo: unary(configCall(() => new PluginInfoOut(packageVersion()))),
      getSchema: unary(configCall(() => (this.schemaAnswer ??= new SchemaResponseOut(this.schemaText())))),
      checkConfig: unary(configCall(servingCall((req: providerPb.CheckRequest) => {
        const news = decode(req.getNews());
        const { failures, warnings } = lazy.config.checkSettings(news.props);
        for (const w of warnings) this.warn(w, "");
        const r = new CheckResponseOut();
        // The inputs as given (the engine keeps their representation, secrets included).
        r.setInputs(req.getNews());
        for (const f of failures) r.addFailures(this.failure(f.property, f.reason));
        return r;
      }))),
      diffConfig: unary(configCall((req: providerPb.DiffRequest) => {
        const changed = lazy.config.changedSettings(decode(req.getOldInputs() ?? req.getOlds()).props, decode(req.getNews()).props);
        return this.diffResponse(changed, [], [], false, {}, {});
      })),
      configure: unary(configCall(servingCall((req: providerPb.ConfigureRequest) => {
        const args = req.getArgs() ? decode(req.getArgs()).props : undefined;
        const variables = new Map<string, string>(req.getVariablesMap().entries());
        const next = lazy.config.credentialsOf(args, variables);
        // A new key, base URL or pin: new clients and bookkeeping (as the dynamic provider does).
        if (!this.session || !lazy.session.sameCredentials(next, this.session.credentials)) this.session = this.sessionFor(next);
        return new ConfigureResponseOut({ acceptSecrets: true, supportsPreview: true, acceptResources: false, acceptOutputs: false });
      }))),
      check: unary(servingCall((req: providerPb.CheckRequest) => this.check(req))),
      diff: unary((req: providerPb.DiffRequest) => this.diff(req)),
      create: unary((req: providerPb.CreateRequest) => this.create(req)),
      read: unary((req: providerPb.ReadRequest) => this.read(req)),
      update: unary((req: providerPb.UpdateRequest) => this.update(req)),
      delete: unary((req: providerPb.DeleteRequest) => this.delete(req)),
      invoke: unary((req: providerPb.InvokeRequest) => this.invoke(req)),
      cancel: unary(configCall(() => new EmptyOut())),
    };
  }

  private failure(property: string, reason: string): CheckFailureOut {
    return new CheckFailureOut(property, reason);
  }

  private async check(req: providerPb.CheckRequest): Promise<CheckResponseOut> {
    const t = this.resourceType(typeOf(req));
    const news = decode(req.getNews());
    const olds = decode(req.getOlds());
    const result = await t.provider.check(this.context(), olds.props, news.props);
    const r = new CheckResponseOut();
    const inputs = encode(result.inputs as Props, [...t.secretInputs, ...news.secrets]);
    // Inputs already in their checked form (every Check of a stack that changes nothing) go back
    // as they came, not built again value by value (docs/SPEED.md, "The native plugin's per-call cost").
    // So do inputs the provider gave back as they were in state.
    // When the request was read by hand (src/pulumi/plugin/fast-wire.ts), its bytes go back unread.
    if (sameJson(inputs, news.raw)) r.setInputs(req.getNews());
    else if (req.getOlds() && sameJson(inputs, olds.raw)) r.setInputs(req.getOlds());
    else r.setInputs(new PlainStruct(inputs));
    for (const f of result.failures) r.addFailures(this.failure(f.property, f.reason));
    return r;
  }

  private async diff(req: providerPb.DiffRequest): Promise<DiffResponseOut> {
    const t = this.resourceType(typeOf(req));
    const olds = decode(req.getOlds()).props;
    // The old inputs only where a path's kind is read from them: decoded only when needed (an Account's in a state an earlier version wrote hold the whole file).
    let oldInputs: Props | undefined;
    const oldInputsOf = (): Props => (oldInputs ??= req.getOldInputs() ? decode(req.getOldInputs()).props : olds);
    const news = decode(req.getNews()).props;
    const ctx = this.context();
    const result = await t.provider.diff(ctx, req.getId(), olds, news);
    // The old half of a replacement an interrupted deployment left pending must then touch nothing.
    if (result.replaces.length === 0) ctx.recordKept(t.name, req.getId());
    return this.diffResponse(
      [...(result.diffs ?? []), ...result.replaces],
      result.replaces,
      result.changes ? result.stables : [],
      result.deleteBeforeReplace,
      () => (isEmpty(oldInputsOf()) ? olds : oldInputsOf()),
      news,
      result.changes,
      result.kinds,
    );
  }

  /** A detailed diff: each changed property with its kind (add, delete, update; replacing or not). */
  private diffResponse(
    paths: string[],
    replaces: string[],
    stables: string[],
    deleteBeforeReplace: boolean,
    oldsOf: Props | (() => Props),
    news: Props,
    changes?: boolean,
    kinds?: Readonly<Record<string, "add" | "update" | "delete">>,
  ): DiffResponseOut {
    let oldValues: Props | undefined;
    const olds = (): Props => (oldValues ??= typeof oldsOf === "function" ? oldsOf() : oldsOf);
    const K = DiffKind;
    const r = new DiffResponseOut();
    const unique = [...new Set(paths)];
    const some = changes ?? unique.length > 0;
    r.setChanges(some ? DiffChanges.DIFF_SOME : DiffChanges.DIFF_NONE);
    r.setReplacesList([...new Set(replaces)]);
    r.setStablesList(stables);
    r.setDeletebeforereplace(deleteBeforeReplace && replaces.length > 0);
    r.setDiffsList([...new Set(unique.map(topOf))]);
    r.setHasdetaileddiff(true);
    const detailed = r.getDetaileddiffMap();
    const given = { add: K.ADD, update: K.UPDATE, delete: K.DELETE } as const;
    for (const p of unique) {
      const known = kinds?.[p];
      if (known !== undefined) {
        // The provider knows how this path changes (the inputs alone cannot tell).
        detailed.set(p, new PropertyDiffOut(given[known], true));
        continue;
      }
      const replacing = replaces.includes(p) || replaces.includes(topOf(p));
      const before = at(olds(), p);
      const after = at(news, p);
      const kind = before === undefined ? (replacing ? K.ADD_REPLACE : K.ADD) : after === undefined ? (replacing ? K.DELETE_REPLACE : K.DELETE) : replacing ? K.UPDATE_REPLACE : K.UPDATE;
      detailed.set(p, new PropertyDiffOut(kind, true));
    }
    return r;
  }

  private async create(req: providerPb.CreateRequest): Promise<providerPb.CreateResponse> {
    const t = this.resourceType(typeOf(req));
    const inputs = decode(req.getProperties());
    const r = new this.stubs.provider.CreateResponse();
    const secrets = [...t.secretOutputs, ...inputs.secrets];
    if (req.getPreview()) {
      // Nothing is sent in a preview: the outputs are the inputs, what a create makes not known yet.
      const outs: Props = { ...inputs.props };
      for (const k of t.computed) if (outs[k] === undefined) outs[k] = UNKNOWN;
      r.setProperties(this.struct(outs, secrets));
      return r;
    }
    const made = await t.provider.create(this.context(), inputs.props);
    r.setId(made.id);
    r.setProperties(this.struct(made.outs as Props, secrets));
    return r;
  }

  private async read(req: providerPb.ReadRequest): Promise<providerPb.ReadResponse> {
    const t = this.resourceType(typeOf(req));
    const props = decode(req.getProperties());
    const inputs = decode(req.getInputs());
    const ctx = this.context();
    // No state: `pulumi import` (or a program's `get`): the id is the kind's import id.
    const importing = isEmpty(props.props) && isEmpty(inputs.props);
    if (importing) this.imported.add(req.getUrn());
    let result = importing ? await t.provider.import(ctx, req.getId()) : await t.provider.read(ctx, req.getId(), props.props);
    // An imported object existed before the stack (adopted, never made: a destroy leaves it unless
    // onDelete says "delete"), and belongs to the key's account: both recorded (issue #33 item 9).
    if (importing && result.id !== undefined) result = { ...result, props: { ...(result.props ?? {}), ...(await lazy.guards.importedOrigin(ctx)) } };
    const r = new this.stubs.provider.ReadResponse();
    if (result.id === undefined) return r; // gone: the engine drops it from the state
    r.setId(result.id);
    r.setProperties(this.struct((result.props ?? {}) as Props, [...t.secretOutputs, ...props.secrets]));
    if (t.keepsInputsOnRead && !importing && result.inputs === undefined) r.setInputs(req.getInputs());
    else r.setInputs(this.struct((result.inputs ?? {}) as Props, [...t.secretInputs, ...inputs.secrets]));
    return r;
  }

  private async update(req: providerPb.UpdateRequest): Promise<providerPb.UpdateResponse> {
    const t = this.resourceType(typeOf(req));
    const olds = decode(req.getOlds());
    const news = decode(req.getNews());
    const r = new this.stubs.provider.UpdateResponse();
    const secrets = [...t.secretOutputs, ...news.secrets];
    if (req.getPreview()) {
      // Nothing is sent in a preview: the new inputs, and what the last create or update made.
      const outs: Props = { ...news.props };
      for (const k of t.computed) if (outs[k] === undefined && olds.props[k] !== undefined) outs[k] = olds.props[k];
      r.setProperties(this.struct(outs, secrets));
      return r;
    }
    const update = t.provider.update;
    if (!update) throw new Error(`${t.name} cannot be updated in place: every change replaces it`);
    const result = await update.call(t.provider, this.context(), req.getId(), olds.props, news.props);
    r.setProperties(this.struct(result.outs as Props, secrets));
    return r;
  }

  private async delete(req: providerPb.DeleteRequest): Promise<EmptyType> {
    const t = this.resourceType(typeOf(req));
    await t.provider.delete(this.context(), req.getId(), decode(req.getProperties()).props);
    return new this.stubs.Empty();
  }

  private async invoke(req: providerPb.InvokeRequest): Promise<providerPb.InvokeResponse> {
    const { FUNCTIONS } = lazy.invoke;
    const fn = FUNCTIONS[req.getTok()];
    if (!fn) throw new Error(`the wavix provider has no function ${JSON.stringify(req.getTok())} (its functions: ${Object.keys(FUNCTIONS).join(", ")})`);
    const result = await fn(this.context().masterClient(), decode(req.getArgs()).props);
    const r = new this.stubs.provider.InvokeResponse();
    r.setReturn(this.struct(result, []));
    return r;
  }
}
