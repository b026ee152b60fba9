/**
 * `wavix:index:Account` (docs/PULUMI.md, "One resource for a whole account"): the whole desired
 * state as ONE resource of the native plugin, whose Diff is the CLI's plan and whose Create and
 * Update are the CLI's apply — `computePlan` and `applyPlan` of src/plan/engine.ts, the same code
 * `wavix-sync plan` / `apply` run:
 *
 *  - Check reads the file (`file`, relative to the plugin's working directory, which the engine
 *    sets to the program's) or takes the inline maps, and runs the file's own checks (a problem is
 *    a failure worded `FILE:LINE:COL: message (at path)`). With `file`, it plans the account too
 *    (listing pages, not a read per object) and gives as the resource's inputs the file's path, its
 *    digest and what the plan changes: the new value of each changed property of each object
 *    (`numbers["15551230001"].smsEnabled`), each collection a map keyed by identity, entries in
 *    camelCase — not the whole declared state, which the engine would carry through every call and
 *    the state (docs/SPEED.md, "One resource for a whole account"). Inline maps are the inputs as
 *    given, in that form.
 *  - Diff takes the plan its Check made (or plans) and names each changed property of each object,
 *    so the preview shows one line per change with its new value; the blast radius is counted for
 *    the whole plan and refused before any write (the preview fails).
 *  - Create and Update apply the plan through a write gate (src/kit/gate/) holding every rail the
 *    CLI has: the pins (`wavix:accountId`, the file's `account_id:`), the limits (`wavix:maxDestructive`,
 *    the file's `safety:`), the override `wavix:force`, the secrets read at apply (`password_env`).
 *  - Delete leaves the account as it is (it says so); import takes the path of the file.
 *
 * Outputs are a digest and counts, never a secret (the declared state holds none: a trunk's
 * password is named by its `password_env`, never held).
 */
import { createHash } from "node:crypto";
import type { LoadResult } from "../../config";
import type { DesiredState } from "../../config/types";
import type { EntryKey } from "../../kit/contract";
import type { CheckFailure } from "../../kit/provider/checks";
import type { CheckResult, DiffResult, KindProvider, ReadResult } from "../../kit/provider/contract";
import { hasUnknown, snakeToCamel, UNKNOWN, type Props } from "../../kit/provider/props";
import { PULUMI_GATE_NAMES, type ProviderSession } from "../../kit/provider/session";
import type { AccountPin, WriteGate } from "../../kit/gate";
import type { PreparedPlan } from "../../plan/engine";
import type { ApplyResult, PlannedChange } from "../../plan/types";
import { accountSchema } from "./account-schema";
import { packageVersion } from "./version";

/**
 * What the declared state, the plan and the apply need: loaded by their first use, not with this
 * module (an instance that only gives the schema, or serves other resource types, loads none of them).
 */
const lazy = {
  get config(): typeof import("../../config") {
    return require("../../config");
  },
  get kinds(): typeof import("../../kinds") {
    return require("../../kinds");
  },
  get diff(): typeof import("../../kit/change/diff") {
    return require("../../kit/change/diff");
  },
  get gate(): typeof import("../../kit/gate") {
    return require("../../kit/gate");
  },
  get engine(): typeof import("../../plan/engine") {
    return require("../../plan/engine");
  },
};

/** What the file's top-level keys are, from the kind registry (computed once, on first use). */
interface FileShape {
  /** The file's collections that are lists, by top-level key, and what identifies an entry (the map key): each kind's own. */
  readonly keyed: Readonly<Record<string, EntryKey>>;
  /**
   * The file's top-level keys the resource manages: the pin, each kind's part in the file's order (the
   * kind registry's, so a kind added there is carried too), and the limits (`audit` is the audit's,
   * `version` implied).
   */
  readonly topLevel: readonly string[];
  /** The inline input of each top-level key (`sub_accounts` → `subAccounts`), in that order. */
  readonly inlineKeys: readonly string[];
}
let shape: FileShape | undefined;
function fileShape(): FileShape {
  if (shape) return shape;
  const kinds = lazy.kinds.kindsInFileOrder();
  const topLevel = ["account_id", ...kinds.map((k) => k.file.key), "safety"];
  shape = {
    keyed: Object.fromEntries(kinds.flatMap((k) => (k.fileForm.entryKey ? [[k.file.key, k.fileForm.entryKey] as const] : []))),
    topLevel,
    inlineKeys: topLevel.map(snakeToCamel),
  };
  return shape;
}

/**
 * The inline inputs as the schema declares them (src/pulumi/plugin/account-schema.ts; the same as
 * {@link FileShape.inlineKeys}, test/pulumi/native-account.test.ts holds them so): what a Check
 * tells apart without loading the kind registry.
 */
const INLINE_INPUTS: ReadonlySet<string> = new Set(Object.keys(accountSchema.resource.inputProperties).filter((k) => k !== "file" && k !== "prune"));

const camelToSnake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every object key of a value renamed, at every depth (values as they are). */
function renameKeys(v: unknown, rename: (k: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => renameKeys(x, rename));
  if (v === null || typeof v !== "object") return v;
  const out: Props = {};
  for (const [k, x] of Object.entries(v)) out[rename(k)] = renameKeys(x, rename);
  return out;
}

/**
 * The declared state as the resource's inputs: each list of the file a map keyed by identity, the
 * entries' keys in camelCase; the other parts (`call_webhooks`, `account_callbacks`, `account_id`,
 * `safety`) as they are, camelCase. The inverse is {@link documentOf}.
 */
export function viewOf(state: DesiredState): Props {
  const doc = lazy.config.toFileObject(state);
  const out: Props = {};
  const { topLevel, keyed } = fileShape();
  for (const key of topLevel) {
    const value = doc[key];
    if (value === undefined) continue;
    const identity = keyed[key];
    if (identity && Array.isArray(value)) {
      const byKey: Props = {};
      for (const entry of value as Props[]) {
        const id = identity.of(entry);
        const rest: Props = {};
        const fields = identity.fields(id);
        for (const [k, x] of Object.entries(entry)) if (!(k in fields)) rest[snakeToCamel(k)] = renameKeys(x, snakeToCamel);
        const known = byKey[id] as Props | undefined;
        // Two entries of one 10DLC campaign: one entry of their numbers (the file allows it).
        if (known && Array.isArray(known.numbers) && Array.isArray(rest.numbers)) known.numbers = [...(known.numbers as unknown[]), ...(rest.numbers as unknown[])];
        else byKey[id] = rest;
      }
      out[snakeToCamel(key)] = byKey;
    } else if (key === "call_webhooks") {
      out.callWebhooks = value; // keys are event types (data), values URLs
    } else {
      out[snakeToCamel(key)] = renameKeys(value, snakeToCamel);
    }
  }
  return out;
}

/** The file's document from the resource's inline inputs (the maps of {@link viewOf}). */
export function documentOf(inputs: Props): Record<string, unknown> {
  const doc: Record<string, unknown> = { version: 1 };
  const { topLevel, keyed } = fileShape();
  for (const key of topLevel) {
    const value = inputs[snakeToCamel(key)];
    if (value === undefined || value === null) continue;
    const identity = keyed[key];
    if (identity && typeof value === "object" && !Array.isArray(value)) {
      doc[key] = Object.entries(value as Props).map(([id, entry]) => ({ ...identity.fields(id), ...((renameKeys(entry ?? {}, camelToSnake) as Props) ?? {}) }));
    } else if (key === "call_webhooks") {
      doc[key] = value;
    } else {
      doc[key] = renameKeys(value, camelToSnake);
    }
  }
  return doc;
}

/**
 * A checked input of file mode: the SHA-256 of the file's bytes (and of this package's version, whose
 * normal forms the declared state is in). When the next Check finds the same, the declared state
 * the last one gave (the old inputs) is given again without reading the file anew.
 */
const FILE_SHA = "fileSha256";

/** The digest {@link FILE_SHA} records for these bytes. */
const fileSha = (bytes: Buffer): string => createHash("sha256").update(`${packageVersion()}\u0000`).update(bytes).digest("hex");

/**
 * How long the plan a Check made waits for its Diff (or Create): the engine sends it right after its
 * work on the Check's answer; a later one plans again.
 */
const PLAN_FOR_MS = 10_000;

/** What the label of an inline document says in the file's messages. */
const INLINE_LABEL = "the Account resource's inputs";

/** The file's problems as check failures (at most 20, then how many more). */
function failuresOf(problems: Extract<LoadResult, { ok: false }>, property: string): CheckFailure[] {
  const { formatProblem } = lazy.config;
  const shown = problems.problems.slice(0, 20).map((p) => ({ property, reason: formatProblem(p) }));
  const more = problems.problems.length - shown.length;
  return more > 0 ? [...shown, { property, reason: `and ${more} more problem${more === 1 ? "" : "s"} (wavix-sync validate lists them all)` }] : shown;
}

/** A path segment of a detailed diff: `["key"]` (any text), or `.name` for an identifier. */
const seg = (k: string): string => `[${JSON.stringify(k)}]`;

/** The camelCase names of a field path of the plan (`default_destinations.sms_endpoint`). */
const camelNames = (p: string): string[] => p.split(".").map(snakeToCamel);

/** Where a change shows: its collection, the object's key in it (none for `accountCallbacks`), the field names under it. */
interface ChangePlace {
  readonly collection: string;
  readonly key?: string;
  readonly fields: readonly string[];
  readonly kind: "add" | "update" | "delete";
}

/** The places of a planned change in the resource's inputs ({@link detailedPaths} writes them as paths). */
function changePlaces(change: Pick<PlannedChange, "kind" | "key" | "action" | "diff">): ChangePlace[] {
  const fileKey = lazy.kinds.kindNamed(change.kind)?.file.key ?? change.kind;
  const collection = snakeToCamel(fileKey);
  if (fileKey === "account_callbacks") return change.diff.map((d) => ({ collection, fields: camelNames(d.path), kind: "update" }));
  // A link (`BRAND/CAMPAIGN/NUMBER`) is one number of its campaign's list.
  if (fileKey === "ten_dlc_campaign_numbers") return [{ collection, key: change.key.split("/").slice(0, 2).join("/"), fields: ["numbers"], kind: "update" }];
  const key = change.key;
  if (change.action === "create") return [{ collection, key, fields: [], kind: "add" }];
  if (change.action === "delete") return [{ collection, key, fields: [], kind: "delete" }];
  if (fileKey === "call_webhooks") return [{ collection, key, fields: [], kind: "update" }];
  const places = change.diff.map((d): ChangePlace => ({ collection, key, fields: camelNames(d.path), kind: "update" }));
  return places.length > 0 ? places : [{ collection, key, fields: [], kind: "update" }];
}

/**
 * Where a planned change shows in the resource's inputs, and how: an object of a collection
 * (`numbers["15551230001"]`, added or deleted) or each changed property of it
 * (`numbers["15551230001"].smsEnabled`).
 */
export function detailedPaths(change: Pick<PlannedChange, "kind" | "key" | "action" | "diff">): Array<[string, "add" | "update" | "delete"]> {
  return changePlaces(change).map((p) => [`${p.collection}${p.key !== undefined ? seg(p.key) : ""}${p.fields.map((f) => `.${f}`).join("")}`, p.kind]);
}

/**
 * What a file's plan changes, in the inline form ({@link viewOf}): for each place of the detailed
 * diff an object added or a property changed takes, its new value (null when the file unsets it),
 * under the same path — so the preview shows each change with its new value. An object deleted
 * (`prune`) is named by the detailed diff alone. Empty when nothing changes (the view is then not built).
 */
export function changedView(desired: DesiredState, changes: readonly PlannedChange[]): Props {
  if (changes.length === 0) return {};
  const view = viewOf(desired);
  const out: Props = {};
  for (const c of changes) {
    for (const place of changePlaces(c)) {
      if (place.kind === "delete") continue;
      const segs = [place.collection, ...(place.key !== undefined ? [place.key] : []), ...place.fields];
      let from: unknown = view;
      for (const k of segs) from = from !== null && typeof from === "object" ? (from as Props)[k] : undefined;
      let to = out;
      for (const k of segs.slice(0, -1)) {
        const next = to[k];
        to = (to[k] = next !== null && typeof next === "object" && !Array.isArray(next) ? next : {}) as Props;
      }
      to[segs[segs.length - 1]] = from === undefined ? null : from;
    }
  }
  return out;
}

/** A plan that cannot be carried out: its problems, as the CLI words them, and nothing written. */
function problemsError(prepared: PreparedPlan): Error {
  const p = prepared.plan.problems;
  const shown = p.slice(0, 10).map((x) => `${x.kind} "${x.key}": ${x.message}`);
  return new Error(
    `the plan has ${p.length} problem${p.length === 1 ? "" : "s"}, and nothing is written from an incomplete plan: ${shown.join("; ")}${p.length > shown.length ? `; and ${p.length - shown.length} more` : ""}`,
  );
}

/** The failed items of an apply, in one sentence each (no secret: the results never hold one). */
function applyError(result: ApplyResult): Error {
  const failed = result.results.filter((r) => r.outcome !== "ok");
  const shown = failed.slice(0, 10).map((r) => `${r.kind} "${r.key}" (${r.action}): ${r.outcome}${r.error ? `: ${r.error}` : ""}`);
  return new Error(
    `${failed.length} of ${result.results.length} changes did not complete (the others were written): ${shown.join("; ")}${failed.length > shown.length ? `; and ${failed.length - shown.length} more` : ""}. ` +
      "Run `pulumi up` again: it plans afresh and writes what is left",
  );
}

/** The provider of `wavix:index:Account` over a native plugin's session. */
export class AccountProvider implements KindProvider {
  /** The plan the last Diff made, which the Update right after it in the same deployment applies. */
  private lastPlan: { key: string; prepared: PreparedPlan; desired: DesiredState; at: number } | undefined;
  /** Notes already said (a plan's notes come back with every Diff). */
  private readonly said = new Set<string>();
  /**
   * The plan a Check of the file made (GETs only), for the Diff or the Create the engine sends next
   * with the inputs that Check gave: it plans no second time.
   */
  private checkedPlan: { key: string; session: ProviderSession; at: number; desired: DesiredState; prepared: PreparedPlan } | undefined;

  /**
   * The file read once and checked, and the digest ({@link FILE_SHA}) of the very bytes checked: what
   * a Check records is what it planned, even when the file is being written meanwhile.
   */
  private load(ctx: ProviderSession, file: string): { result: LoadResult; sha?: string } {
    const { readDesiredStateFile, parseDesiredStateBytes } = lazy.config;
    const read = readDesiredStateFile(file);
    if (!read.ok) return { result: read.result };
    return { result: parseDesiredStateBytes(read.bytes, file, { secretValues: [ctx.credentials.apiKey] }), sha: fileSha(read.bytes) };
  }

  /**
   * The declared state of checked inputs: with `file`, the file as Check read it (its digest the
   * same: a file changed since then fails, to be previewed again); inline, the maps through the
   * file's checks as data. Throws the problems.
   */
  private desired(ctx: ProviderSession, inputs: Props): DesiredState {
    if (typeof inputs.file === "string") {
      const { result, sha } = this.load(ctx, inputs.file);
      if (sha === undefined || sha !== inputs[FILE_SHA]) {
        throw new Error(`${inputs.file} changed since this deployment checked it (or cannot be read): nothing was written; run the preview again`);
      }
      if (!result.ok) throw new Error(result.problems.slice(0, 10).map(lazy.config.formatProblem).join("\n"));
      return result.state;
    }
    const result = lazy.config.checkDesiredData(documentOf(inputs), INLINE_LABEL);
    if (!result.ok) throw new Error(result.problems.slice(0, 10).map(lazy.config.formatProblem).join("\n"));
    return result.state;
  }

  private prune(inputs: Props): { prune: boolean } {
    return { prune: inputs.prune === true };
  }

  /** The old inputs play no part: what the file declares is planned against the account as it is. */
  async check(_ctx: unknown, _olds: Props, news: Props): Promise<CheckResult<Props>> {
    const ctx = _ctx as ProviderSession;
    const { desired, ...result } = this.checked(ctx, news);
    if (!desired) return result;
    // The file's plan, for the Diff (or the Create) that follows with these inputs; a failed read
    // is theirs to report (they plan again).
    const { inputs } = result;
    try {
      const prepared = await lazy.engine.computePlan(ctx.masterClient(), desired, this.prune(inputs));
      this.checkedPlan = { key: this.inputsKey(inputs), session: ctx, at: Date.now(), desired, prepared };
      return { inputs: { ...inputs, ...changedView(desired, prepared.plan.changes) }, failures: [] };
    } catch {
      return { inputs, failures: [] };
    }
  }

  /** The plan the Check before made for these inputs and this session, when recent; taken once. */
  private takeChecked(ctx: ProviderSession, inputs: Props): { desired: DesiredState; prepared: PreparedPlan } | undefined {
    const a = this.checkedPlan;
    this.checkedPlan = undefined;
    return a && a.session === ctx && Date.now() - a.at < PLAN_FOR_MS && a.key === this.inputsKey(inputs) ? a : undefined;
  }

  /** The inputs checked; with `file`, also the declared state it was read into (what Check plans). */
  private checked(ctx: ProviderSession, news: Props): CheckResult<Props> & { desired?: DesiredState } {
    const failures: CheckFailure[] = [];
    const inline = Object.keys(news).some((k) => INLINE_INPUTS.has(k) && news[k] !== undefined) ? fileShape().inlineKeys.filter((k) => news[k] !== undefined) : [];
    const unknown = Object.keys(news).filter((k) => k !== "file" && k !== "prune" && k !== FILE_SHA && !k.startsWith("__") && !INLINE_INPUTS.has(k));
    for (const k of unknown) failures.push({ property: k, reason: `unknown property ${JSON.stringify(k)} (expected file, prune, or the inline ${fileShape().inlineKeys.join(", ")})` });
    if (news.prune !== undefined && news.prune !== UNKNOWN && typeof news.prune !== "boolean") failures.push({ property: "prune", reason: "prune must be true or false" });
    if (news.file !== undefined && inline.length > 0) failures.push({ property: "file", reason: `give file or the inline ${inline.join(", ")}, not both` });
    if (news.file === undefined && inline.length === 0) failures.push({ property: "file", reason: "give file (the path of wavix.yaml) or the inline maps (numbers, subAccounts, ...)" });
    if (failures.length > 0 || hasUnknown(news)) return { inputs: news, failures };
    if (news.file !== undefined && typeof news.file !== "string") return { inputs: news, failures: [{ property: "file", reason: "file must be a path (text)" }] };
    const prune = news.prune !== undefined ? { prune: news.prune } : {};
    if (typeof news.file === "string") {
      const { result, sha } = this.load(ctx, news.file);
      if (!result.ok) return { inputs: news, failures: failuresOf(result, "file") };
      return { inputs: { file: news.file, ...prune, [FILE_SHA]: sha }, failures: [], desired: result.state };
    }
    const result = lazy.config.checkDesiredData(documentOf(news), INLINE_LABEL);
    if (!result.ok) return { inputs: news, failures: failuresOf(result, inline[0] ?? "numbers") };
    return { inputs: { ...prune, ...viewOf(result.state) }, failures: [] };
  }

  /** The write gate of one apply: the session's pin, limit and override, and the file's pin and `safety:`. */
  private gate(ctx: ProviderSession, desired: DesiredState): WriteGate {
    const names = PULUMI_GATE_NAMES;
    const { accountId, maxDestructive, force } = ctx.credentials;
    const pins: AccountPin[] = [];
    if (accountId !== undefined && Number.isSafeInteger(accountId)) pins.push({ account: accountId, source: names.pin });
    if (desired.account_id !== undefined) pins.push({ account: desired.account_id, source: `${desired.file ?? "the file"} account_id` });
    const fileTotal = desired.safety?.max_destructive_total;
    const total = maxDestructive === undefined ? fileTotal : fileTotal === undefined ? maxDestructive : Math.min(maxDestructive, fileTotal);
    return new lazy.gate.WriteGate({
      client: ctx.masterClient(),
      account: () => ctx.account(),
      pins,
      limits: { ...(desired.safety ?? {}), ...(total !== undefined ? { max_destructive_total: total } : {}) },
      force: force === true,
      onForced: (m) => ctx.warn(m),
      wording: {
        keyName: ctx.credentials.apiKey !== undefined ? "wavix:apiKey" : "WAVIX_API_KEY",
        pinHint: names.pinHint,
        limitName: fileTotal !== undefined && (maxDestructive === undefined || fileTotal < maxDestructive) ? `${desired.file ?? "the file"} safety.max_destructive_total` : names.limitName,
        override: names.override,
      },
    });
  }

  /**
   * The plan of the account against `desired` (the one `given` when a Check made it), its blast
   * radius counted (refused past the limit: nothing is written).
   */
  private async plan(ctx: ProviderSession, inputs: Props, desired: DesiredState, given?: PreparedPlan): Promise<PreparedPlan> {
    const { computePlan, existingItems } = lazy.engine;
    const prepared = given ?? (await computePlan(ctx.masterClient(), desired, this.prune(inputs)));
    if (prepared.plan.problems.length > 0) throw problemsError(prepared);
    for (const n of prepared.plan.notes ?? []) {
      const text = `Account: ${n.kind} "${n.key}": ${n.message}`;
      if (!this.said.has(text)) ctx.warn(text);
      this.said.add(text);
    }
    // The whole run's blast radius, as apply counts it (per kind and in total): a preview past it fails.
    await this.gate(ctx, desired).admitRun(
      prepared.ops.map((o) => ({ kind: o.kind, key: o.key, effects: o.effects })),
      existingItems(prepared.plan),
    );
    return prepared;
  }

  async diff(_ctx: unknown, id: string, _olds: Props, news: Props): Promise<DiffResult> {
    const ctx = _ctx as ProviderSession;
    if (hasUnknown(news)) return { changes: true, diffs: [], replaces: [], stables: [], deleteBeforeReplace: false };
    const checked = this.takeChecked(ctx, news);
    const desired = checked?.desired ?? this.desired(ctx, news);
    const prepared = await this.plan(ctx, news, desired, checked?.prepared);
    this.lastPlan = { key: this.planKey(id, news), prepared, desired, at: Date.now() };
    const kinds: Record<string, "add" | "update" | "delete"> = {};
    for (const c of prepared.plan.changes) for (const [p, k] of detailedPaths(c)) kinds[p] = k;
    return { changes: prepared.plan.changes.length > 0, diffs: Object.keys(kinds), kinds, replaces: [], stables: ["accountId"], deleteBeforeReplace: false };
  }

  /** What names the inputs a plan was made for: the file's digest when there is one (the maps are its), else the maps themselves. */
  private inputsKey(inputs: Props): string {
    return `${inputs.prune === true}\u0000${typeof inputs[FILE_SHA] === "string" ? `${String(inputs.file)}\u0000${inputs[FILE_SHA]}` : lazy.diff.canonicalKey(inputs)}`;
  }

  private planKey(id: string, inputs: Props): string {
    return `${id}\u0000${this.inputsKey(inputs)}`;
  }

  /** Plans (or takes the plan the Diff just made for these inputs) and applies it through the gate. */
  private async apply(ctx: ProviderSession, id: string, inputs: Props): Promise<Props> {
    const key = this.planKey(id, inputs);
    // The engine's Update follows its Diff in the same deployment: that plan is applied (as the CLI
    // applies the plan it showed), unless it is older than a minute; a Create follows its Check,
    // whose plan it takes. applyPlan's gate counts it again.
    const last = this.lastPlan && this.lastPlan.key === key && Date.now() - this.lastPlan.at < 60_000 ? this.lastPlan : undefined;
    this.lastPlan = undefined;
    const checked = last ? undefined : this.takeChecked(ctx, inputs);
    const desired = last?.desired ?? checked?.desired ?? this.desired(ctx, inputs);
    const fresh = last?.prepared ?? (await this.plan(ctx, inputs, desired, checked?.prepared));
    const result = fresh.ops.length === 0 ? { results: [], pending: [], ok: true } : await lazy.engine.applyPlan(ctx.masterClient(), fresh, { gate: this.gate(ctx, desired) });
    if (!result.ok) throw applyError(result);
    const s = fresh.plan.summary;
    return this.outputs(ctx, inputs, desired, { create: s.create, update: s.update, replace: s.replace, delete: s.delete, unchanged: s.unchanged });
  }

  /** The outputs: the file and prune as given, the account, and the declared state's digest and counts (its inline view's). */
  private async outputs(ctx: ProviderSession, inputs: Props, desired: DesiredState, lastApply: Record<string, number>): Promise<Props> {
    const declared: Record<string, number> = {};
    const view = viewOf(desired);
    for (const [k, v] of Object.entries(view)) {
      if (v !== null && typeof v === "object" && !Array.isArray(v) && k !== "accountCallbacks" && k !== "safety") declared[k] = Object.keys(v).length;
    }
    const account = await ctx.account();
    return {
      ...(typeof inputs.file === "string" ? { file: inputs.file } : {}),
      ...(inputs.prune !== undefined ? { prune: inputs.prune } : {}),
      ...(account !== undefined ? { accountId: account } : {}),
      digest: createHash("sha256").update(lazy.diff.canonicalKey(view)).digest("hex"),
      declared,
      lastApply,
    };
  }

  async create(_ctx: unknown, inputs: Props): Promise<{ id: string; outs: Props }> {
    const ctx = _ctx as ProviderSession;
    const outs = await this.apply(ctx, "", inputs);
    return { id: outs.accountId !== undefined ? String(outs.accountId) : "account", outs };
  }

  async update(_ctx: unknown, id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
    return { outs: await this.apply(_ctx as ProviderSession, id, news) };
  }

  /** A refresh keeps what the state holds: the account is read by the next Diff, as the CLI's plan reads it. */
  async read(_ctx: unknown, id: string, props?: Props): Promise<ReadResult<Props>> {
    return { id, props: props ?? {} };
  }

  async delete(_ctx: unknown, id: string): Promise<void> {
    (_ctx as ProviderSession).warn(
      `Account ${id}: the account is left as it is: the resource leaves the stack, and nothing was sent (no number released, no sub-account disabled, no trunk, webhook or Sender ID deleted)`,
    );
  }

  /** `pulumi import wavix:index:Account NAME <file>`: the file read and checked, GETs only (the key's account). */
  async import(_ctx: unknown, importId: string): Promise<ReadResult<Props>> {
    const ctx = _ctx as ProviderSession;
    const { result } = this.load(ctx, importId);
    if (!result.ok) {
      throw new Error(`the import id of an Account is the path of its desired-state file (wavix.yaml), relative to the program's folder: ${result.problems.slice(0, 5).map(lazy.config.formatProblem).join("; ")}`);
    }
    const inputs: Props = { file: importId };
    const outs = await this.outputs(ctx, inputs, result.state, {});
    return { id: outs.accountId !== undefined ? String(outs.accountId) : "account", props: outs, inputs };
  }
}
