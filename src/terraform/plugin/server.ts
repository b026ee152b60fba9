/**
 * `terraform-provider-wavix` (docs/TERRAFORM.md): the Terraform plugin protocol 6 (`tfplugin6.Provider`,
 * proto/tfplugin6.proto) served over every registered kind's provider (`kind.provider()`: the same
 * engine-agnostic logic the native Pulumi plugin and the dynamic resources run), as the resources
 * `wavix_<kind>`, and the audit's data sources.
 *
 * What this face adds to the kinds' logic is Terraform's side of the contract:
 *  - PlanResourceChange says exactly what ApplyResourceChange will do: the kind's `check` and `diff`
 *    decide; a replacing property is `requires_replace`; what a create or an update decides is
 *    unknown in the plan, the rest of the planned state is the configuration (as Terraform demands),
 *    and the apply returns the planned state with only its unknowns filled in — so Terraform never
 *    finds an "inconsistent result after apply";
 *  - the kind's own outputs (what its diff, read, update and delete compare against) travel in the
 *    resource's private state, secrets left out (those are in the state's sensitive attributes);
 *  - a refresh (ReadResource) keeps the configuration's spelling of a setting the kind reads back as
 *    the same (`transport = "sip"` read back as code 1);
 *  - `import` takes the ids `pulumi import` takes (the kind's `import`);
 *  - the kinds' warnings (an adopted object left on destroy, a destructive change) are warnings of
 *    the call; errors are one diagnostic each, their message only, never a stack; both said in
 *    Terraform's words (TERRAFORM_WORDS: `on_delete = "delete"`, `tofu state rm`, the provider block);
 *  - the write gate (src/kit/gate/, docs/TERRAFORM.md "Guard rails"): every write of the kinds'
 *    `create`, `update`, `delete` leaves through the session's gate (`ctx.writer`), made from the
 *    provider block's `account_id`, `max_destructive` and `force` and naming them in its messages
 *    (TERRAFORM_GATE_NAMES). A destructive update or replacement is counted at plan (the kind's
 *    diff forecasts it, as in a Pulumi preview), so a plan past the limit fails before any write;
 *    a delete (destroy, or a resource removed from the configuration) is counted at apply, and the
 *    one past the limit is refused before any of its writes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KindProvider } from "../../kit/provider/contract";
import { type Props } from "../../kit/provider/props";
import { ProviderSession, accountIdOf, type Credentials, type SessionGateNames } from "../../kit/provider/session";
import { parseDesiredState } from "../../config";
import { resolveBaseUrl } from "../../client/base-url";
import { FUNCTIONS } from "../../pulumi/plugin/invoke";
import type { FaceWords } from "../../kit/provider/words";
import { dataSources, providerBlock, resources, snake, type TfAttribute, type TfBlock, type TfDataSource, type TfResource } from "../schema";
import { fillUnknowns, fromKind, toKind } from "../convert";
import { decodeValue, encodeObject, sameValue, UNKNOWN_VALUE, type TfObject, type TfValue } from "../values";

/** How to set the key, said when none is set. */
const MISSING_KEY_HINT = 'set api_key in the provider "wavix" block (from a sensitive variable), or WAVIX_API_KEY in the environment';

/** The provider block's names for the write gate's settings, in its messages. */
export const TERRAFORM_GATE_NAMES: SessionGateNames = {
  pin: 'account_id in the provider "wavix" block',
  pinHint: (a) => `\`account_id = ${a}\` in the provider "wavix" block`,
  limitName: 'max_destructive in the provider "wavix" block',
  override: 'set `force = true` in the provider "wavix" block for one run (and remove it after), or raise max_destructive',
};

/**
 * The words of the kinds' messages under Terraform (src/kit/provider/words.ts): a resource's
 * settings by their attribute names (`on_delete = "delete"`), the provider block's settings, and
 * the OpenTofu/Terraform commands (`tofu state rm`, `tofu import`, `tofu apply -refresh-only`).
 */
export const TERRAFORM_WORDS: FaceWords = {
  prop: (name) => snake(name),
  setting: (name, value) => `${snake(name)} = ${JSON.stringify(value)}`,
  holder: "configuration",
  engine: "OpenTofu/Terraform",
  command: "`tofu` (or `terraform`)",
  config: (name) => `${snake(name)} in the provider "wavix" block`,
  configPlace: 'the provider "wavix" block',
  forget: "`tofu state rm` the resource (`terraform state rm`)",
  adoptAgain: "import it again (`tofu import`, or an `import` block)",
  refresh: "`tofu apply -refresh-only`",
  trunkPassword: () => "set `password` on the resource (from a sensitive variable)",
};

type Severity = "ERROR" | "WARNING";
interface Diagnostic {
  severity: Severity;
  summary: string;
  detail?: string;
  attribute?: { steps: { attribute_name?: string; element_key_int?: number }[] };
}

interface DynamicValue {
  msgpack?: Buffer;
  json?: Buffer;
}

/** A message, never a stack. */
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** `defaultDestinations.smsEndpoint` / `destinations[0].transport` as an attribute path (snake_case). */
function pathOf(property: string): Diagnostic["attribute"] {
  const steps: { attribute_name?: string; element_key_int?: number }[] = [];
  for (const part of property.split(/\.|(\[\d+\])/).filter((x) => x)) {
    const m = /^\[(\d+)\]$/.exec(part);
    steps.push(m ? { element_key_int: Number(m[1]) } : { attribute_name: part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) });
  }
  return { steps };
}

/** The block's attributes a kind's outputs hold secrets in. */
const sensitive = (block: TfBlock): TfAttribute[] => block.attributes.filter((a) => a.sensitive);

export class TerraformProvider {
  private session: ProviderSession | undefined;
  private readonly resourceTypes = resources();
  private readonly dataSourceTypes = dataSources();
  private readonly provider = providerBlock();
  private readonly providers = new Map<string, KindProvider>();
  /** The warnings of the call being served. */
  private readonly warnings = new AsyncLocalStorage<Diagnostic[]>();

  private context(): ProviderSession {
    this.session ??= this.sessionFor({});
    return this.session;
  }

  private sessionFor(credentials: Credentials): ProviderSession {
    return new ProviderSession({
      credentials,
      missingApiKeyHint: MISSING_KEY_HINT,
      apiKeyName: "api_key",
      gateNames: TERRAFORM_GATE_NAMES,
      words: TERRAFORM_WORDS,
      warn: (message) => this.warnings.getStore()?.push({ severity: "WARNING", summary: message }),
      // JSON is YAML: the file's own parser, schema and checks for one entry.
      checkEntry: (doc, label) => parseDesiredState(JSON.stringify({ version: 1, ...doc }), label),
    });
  }

  private resource(typeName: string): TfResource {
    const r = this.resourceTypes.get(typeName);
    if (!r) throw new Error(`the wavix provider has no resource type ${JSON.stringify(typeName)} (its types: ${[...this.resourceTypes.keys()].join(", ")})`);
    return r;
  }

  private kindProvider(r: TfResource): KindProvider {
    let p = this.providers.get(r.typeName);
    if (!p) this.providers.set(r.typeName, (p = r.kind.provider() as KindProvider));
    return p;
  }

  /** The gRPC handlers of `tfplugin6.Provider`, by method name. */
  handlers(): Record<string, (call: { request: Record<string, unknown> }, callback: (err: unknown, res?: unknown) => void) => void> {
    const unary =
      (fn: (req: never) => Promise<Record<string, unknown>> | Record<string, unknown>, diagnosticsField = "diagnostics") =>
      (call: { request: Record<string, unknown> }, callback: (err: unknown, res?: unknown) => void) => {
        const warnings: Diagnostic[] = [];
        this.warnings.run(warnings, () => {
          Promise.resolve()
            .then(() => fn(call.request as never))
            .then(
              (res) => {
                const own = (res[diagnosticsField] as Diagnostic[] | undefined) ?? [];
                callback(null, { ...res, [diagnosticsField]: [...warnings, ...own] });
              },
              (err: unknown) => callback(null, { [diagnosticsField]: [...warnings, { severity: "ERROR", summary: messageOf(err) }] }),
            );
        });
      };
    return {
      GetMetadata: unary(() => ({
        server_capabilities: { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false },
        resources: [...this.resourceTypes.keys()].map((type_name) => ({ type_name })),
        data_sources: [...this.dataSourceTypes.keys()].map((type_name) => ({ type_name })),
      })),
      GetProviderSchema: unary(() => ({
        provider: schemaMessage(this.provider),
        resource_schemas: Object.fromEntries([...this.resourceTypes].map(([n, r]) => [n, schemaMessage(r.block)])),
        data_source_schemas: Object.fromEntries([...this.dataSourceTypes].map(([n, d]) => [n, schemaMessage(d.block)])),
        server_capabilities: { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false },
      })),
      GetFunctions: unary(() => ({ functions: {} })),
      ValidateProviderConfig: unary((req: { config?: DynamicValue }) => ({ diagnostics: this.validateProvider(decodeValue(req.config) as TfObject | null) })),
      ValidateResourceConfig: unary((req: { type_name: string }) => {
        this.resource(req.type_name);
        return {};
      }),
      ValidateDataResourceConfig: unary(() => ({})),
      ConfigureProvider: unary((req: { config?: DynamicValue }) => this.configure(decodeValue(req.config) as TfObject | null)),
      UpgradeResourceState: unary((req: { type_name: string; version: number; raw_state?: { json?: Buffer } }) => this.upgrade(req)),
      ReadResource: unary((req: { type_name: string; current_state?: DynamicValue; private?: Buffer }) => this.read(req)),
      PlanResourceChange: unary((req: PlanRequest) => this.plan(req)),
      ApplyResourceChange: unary((req: ApplyRequest) => this.apply(req)),
      ImportResourceState: unary((req: { type_name: string; id: string }) => this.import(req)),
      MoveResourceState: unary(() => ({ diagnostics: [{ severity: "ERROR", summary: "the wavix provider does not take resources moved from another resource type (a `moved` block between two wavix_ addresses of one type needs no provider)" }] })),
      ReadDataSource: unary((req: { type_name: string; config?: DynamicValue }) => this.readDataSource(req)),
      StopProvider: unary(() => ({}), "Error"),
    };
  }

  private validateProvider(config: TfObject | null): Diagnostic[] {
    const out: Diagnostic[] = [];
    const baseUrl = config?.base_url;
    if (typeof baseUrl === "string" && baseUrl.trim() !== "") {
      try {
        resolveBaseUrl(baseUrl);
      } catch (err) {
        out.push({ severity: "ERROR", summary: `base_url: ${messageOf(err)}`, attribute: pathOf("base_url") });
      }
    }
    const accountId = config?.account_id;
    if (typeof accountId === "number" && !(Number.isSafeInteger(accountId) && accountId >= 1)) {
      out.push({ severity: "ERROR", summary: `account_id must be the account's id, a whole number of at least 1 (got ${accountId})`, attribute: pathOf("account_id") });
    }
    const max = config?.max_destructive;
    if (typeof max === "number" && !(Number.isSafeInteger(max) && max >= 0)) {
      out.push({ severity: "ERROR", summary: `max_destructive must be a whole number of at least 0 (got ${max})`, attribute: pathOf("max_destructive") });
    }
    return out;
  }

  private configure(config: TfObject | null): Record<string, unknown> {
    const text = (v: TfValue | undefined): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : undefined);
    const max = config?.max_destructive;
    const credentials: Credentials = {
      apiKey: text(config?.api_key),
      baseUrl: text(config?.base_url),
      accountId: accountIdOf(text(config?.account_id)),
      // Validated (validateProvider); anything else would let nothing destructive pass.
      ...(typeof max === "number" ? { maxDestructive: Number.isSafeInteger(max) && max >= 0 ? max : 0 } : {}),
      ...(config?.force === true ? { force: true } : {}),
    };
    this.session = this.sessionFor(credentials);
    return {};
  }

  /** The kind's outputs a state stands for: its private part (secrets left out) and the state's sensitive attributes. */
  private kindState(r: TfResource, state: TfObject, priv: Buffer | undefined): Props {
    const secrets = toKind(pick(state, sensitive(r.block)), sensitive(r.block), false);
    if (priv && priv.length > 0) {
      try {
        return { ...(JSON.parse(priv.toString("utf8")) as Props), ...secrets };
      } catch {
        // not ours: the state's attributes below
      }
    }
    return toKind(state, r.block.attributes, false);
  }

  /** The private part of a state: the kind's outputs without their secrets (those are sensitive attributes). */
  private privateOf(r: TfResource, outs: Props): Buffer {
    const copy: Props = { ...outs };
    for (const a of sensitive(r.block)) delete copy[a.prop];
    return Buffer.from(JSON.stringify(copy));
  }

  private encode(r: { block: TfBlock }, value: TfObject | null): DynamicValue {
    return encodeObject(value, r.block) as DynamicValue;
  }

  private async upgrade(req: { type_name: string; version: number; raw_state?: { json?: Buffer } }): Promise<Record<string, unknown>> {
    const r = this.resource(req.type_name);
    const raw = req.raw_state?.json && req.raw_state.json.length > 0 ? (JSON.parse(req.raw_state.json.toString("utf8")) as TfObject) : {};
    if (req.version > r.block.version) throw new Error(`${req.type_name}: the state was written by a newer wavix provider (schema version ${req.version}, this one knows ${r.block.version}): upgrade terraform-provider-wavix`);
    // Version 0 is the only one so far: attributes this provider no longer has are dropped, new ones are null.
    return { upgraded_state: this.encode(r, raw) };
  }

  private async read(req: { type_name: string; current_state?: DynamicValue; private?: Buffer }): Promise<Record<string, unknown>> {
    const r = this.resource(req.type_name);
    const state = decodeValue(req.current_state) as TfObject | null;
    if (!state) return { new_state: req.current_state, private: req.private };
    const olds = this.kindState(r, state, req.private);
    const result = await this.kindProvider(r).read(this.context(), String(state.id), olds);
    if (result.id === undefined) return { new_state: this.encode(r, null) };
    const outs: Props = { ...((result.props ?? {}) as Props) };
    // A setting the API does not show (the official answer need not carry it) is not known to have
    // changed: state keeps it, and the kind keeps comparing against it.
    for (const a of r.block.attributes) if (a.input && outs[a.prop] === undefined && olds[a.prop] !== undefined) outs[a.prop] = olds[a.prop];
    const next = fromKind({ ...outs, id: result.id }, r.block.attributes);
    for (const a of r.block.attributes) {
      // A setting read back as the kind holds it already keeps the configuration's spelling;
      // one the configuration leaves out and the kind does not read stays as state had it.
      if (a.input && (sameValue(outs[a.prop], olds[a.prop]) || outs[a.prop] === undefined)) next[a.name] = state[a.name] ?? null;
    }
    return { new_state: this.encode(r, next), private: this.privateOf(r, outs) };
  }

  private async plan(req: PlanRequest): Promise<Record<string, unknown>> {
    const r = this.resource(req.type_name);
    const proposed = decodeValue(req.proposed_new_state) as TfObject | null;
    const prior = decodeValue(req.prior_state) as TfObject | null;
    if (!proposed) return { planned_state: req.proposed_new_state, planned_private: req.prior_private }; // destroy
    const config = decodeValue(req.config) as TfObject | null;
    const ctx = this.context();
    const provider = this.kindProvider(r);
    const olds = prior ? this.kindState(r, prior, req.prior_private) : {};
    const checked = await provider.check(ctx, olds, inputsOf(r, config, olds));
    if (checked.failures.length > 0) {
      return { planned_state: req.proposed_new_state, diagnostics: checked.failures.map((f) => ({ severity: "ERROR", summary: `${r.typeName}: ${f.reason}`, attribute: pathOf(f.property) })) };
    }
    const planned: TfObject = { ...proposed };
    if (!prior) {
      // A create: what it decides is not known yet; a setting left out stays unset (not managed).
      for (const a of r.block.attributes) if (a.computed && planned[a.name] === null && (!a.input || a.decidedByCreate)) planned[a.name] = UNKNOWN_VALUE;
      return { planned_state: this.encode(r, planned) };
    }
    const diff = await provider.diff(ctx, String(prior.id), olds, checked.inputs);
    if (diff.replaces.length === 0) ctx.recordKept(r.kind.pulumi.type, String(prior.id));
    if (!diff.changes) return { planned_state: this.encode(r, planned), planned_private: req.prior_private };
    const replaceAttrs = [...new Set(diff.replaces.map((p) => p.split(/[.[]/)[0]))];
    // A replacement is planned again as a create (prior null). An update in place keeps what the
    // resource's outputs were (its ids, key, origin): apply returns them as planned, and a later
    // refresh shows any that the API changed.
    return {
      planned_state: this.encode(r, planned),
      planned_private: req.prior_private,
      requires_replace: replaceAttrs.map((p) => pathOf(p)),
    };
  }

  private async apply(req: ApplyRequest): Promise<Record<string, unknown>> {
    const r = this.resource(req.type_name);
    const prior = decodeValue(req.prior_state) as TfObject | null;
    const planned = decodeValue(req.planned_state) as TfObject | null;
    const ctx = this.context();
    const provider = this.kindProvider(r);
    if (!planned) {
      if (prior) await provider.delete(ctx, String(prior.id), this.kindState(r, prior, req.planned_private));
      return { new_state: this.encode(r, null) };
    }
    const config = decodeValue(req.config) as TfObject | null;
    const olds = prior ? this.kindState(r, prior, req.planned_private) : {};
    const checked = await provider.check(ctx, olds, inputsOf(r, config, olds));
    if (checked.failures.length > 0) throw new Error(`${r.typeName}: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    let id: string;
    let outs: Props;
    if (!prior) {
      const made = await provider.create(ctx, checked.inputs);
      id = made.id;
      outs = made.outs as Props;
    } else {
      id = String(prior.id);
      const diff = await provider.diff(ctx, id, olds, checked.inputs);
      if (diff.changes && diff.replaces.length === 0) {
        if (!provider.update) throw new Error(`${r.typeName} cannot be updated in place: every change replaces it`);
        outs = (await provider.update(ctx, id, olds, checked.inputs)).outs as Props;
      } else outs = olds;
    }
    const got = fromKind({ ...outs, id }, r.block.attributes);
    const next: TfObject = {};
    for (const a of r.block.attributes) {
      // Known in the plan: as planned. Unknown: the configuration's value (known now), else what the write gave.
      const fromConfig = config?.[a.name];
      next[a.name] = fillUnknowns(planned[a.name] ?? null, fromConfig !== undefined && fromConfig !== null && a.input ? fromConfig : (got[a.name] ?? null));
    }
    return { new_state: this.encode(r, next), private: this.privateOf(r, outs) };
  }

  private async import(req: { type_name: string; id: string }): Promise<Record<string, unknown>> {
    const r = this.resource(req.type_name);
    const ctx = this.context();
    const result = await this.kindProvider(r).import(ctx, req.id);
    if (result.id === undefined) throw new Error(`${r.typeName}: nothing in the account by the import id ${JSON.stringify(req.id)}`);
    const outs: Props = { ...(result.props as Props), ...(result.inputs as Props) };
    // Imported, not made: a destroy leaves it unless the resource says on_delete = "delete".
    if (r.block.attributes.some((a) => a.prop === "adopted") && outs.adopted === undefined) {
      outs.adopted = true;
      const account = await ctx.account();
      if (account !== undefined) outs.accountId = account;
    }
    return {
      imported_resources: [{ type_name: r.typeName, state: this.encode(r, fromKind({ ...outs, id: result.id }, r.block.attributes)), private: this.privateOf(r, outs) }],
    };
  }

  private async readDataSource(req: { type_name: string; config?: DynamicValue }): Promise<Record<string, unknown>> {
    const d: TfDataSource | undefined = this.dataSourceTypes.get(req.type_name);
    if (!d) throw new Error(`the wavix provider has no data source ${JSON.stringify(req.type_name)}`);
    const config = (decodeValue(req.config) as TfObject | null) ?? {};
    const args = toKind(config, d.block.attributes);
    // `brands = ["all"]`: every Brand of the account (the native function's "all").
    if (Array.isArray(args.brands) && args.brands.length === 1 && args.brands[0] === "all") args.brands = "all";
    const result = await FUNCTIONS[d.token](this.context().masterClient(), args);
    const outputs = d.block.attributes.filter((a) => !a.input && a.name !== "id");
    const state: TfObject = { ...config, id: "wavix" };
    for (const a of outputs) state[a.name] = fromKind({ [a.prop]: result[a.prop] }, [a])[a.name];
    return { state: this.encode(d, state) };
  }
}

interface PlanRequest {
  type_name: string;
  prior_state?: DynamicValue;
  proposed_new_state?: DynamicValue;
  config?: DynamicValue;
  prior_private?: Buffer;
}

interface ApplyRequest {
  type_name: string;
  prior_state?: DynamicValue;
  planned_state?: DynamicValue;
  config?: DynamicValue;
  planned_private?: Buffer;
}

/**
 * The kind's inputs: the configuration's, and for a setting it leaves out (null: not managed) the
 * value the kind holds already, so that the kind sees no change where Terraform plans none (an
 * optional setting left out keeps its state value; a nested object's left-out fields too).
 */
function inputsOf(r: TfResource, config: TfObject | null, olds: Props): Props {
  const news = toKind(config, r.block.attributes);
  for (const a of r.block.attributes) {
    // An id the create decided (`sub_account_id`, `trunk_id`) is no pin the configuration made.
    if (!a.input || !a.optional || a.decidedByCreate || olds[a.prop] === undefined) continue;
    const v = news[a.prop];
    if (v === undefined) news[a.prop] = olds[a.prop];
    else if (a.nested?.nesting === "single" && isPlain(v) && isPlain(olds[a.prop])) news[a.prop] = { ...(olds[a.prop] as Props), ...v };
  }
  return news;
}

const isPlain = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

function pick(o: TfObject, attributes: readonly TfAttribute[]): TfObject {
  const out: TfObject = {};
  for (const a of attributes) out[a.name] = o[a.name] ?? null;
  return out;
}

/** A schema block as the protocol's `Schema` message. */
function schemaMessage(block: TfBlock): Record<string, unknown> {
  return { version: block.version, block: { version: block.version, description: block.description, description_kind: "MARKDOWN", attributes: block.attributes.map(attributeMessage) } };
}

function attributeMessage(a: TfAttribute): Record<string, unknown> {
  return {
    name: a.name,
    ...(a.nested
      ? { nested_type: { nesting: a.nested.nesting.toUpperCase(), attributes: a.nested.attributes.map(attributeMessage) } }
      : { type: Buffer.from(JSON.stringify(a.type)) }),
    description: a.description,
    description_kind: "MARKDOWN",
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
  };
}
