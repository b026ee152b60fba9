/**
 * The contract every resource kind implements (docs/ARCHITECTURE.md, "Resource kinds"). The plan
 * engine, `validate`, `export`, the renderers and the file schema iterate the registry
 * (`./index.ts`) of these; none of them names a kind.
 *
 * Generic over each kind's own types, so nothing is lost to `unknown`:
 *   `Declared` — what the file declares (typed, normalised: `DesiredSubAccount[]`, …);
 *   `Current`  — what one read of the account gives (a list, a map by key);
 *   `Op`       — what apply needs for one planned change (ids, the current record, the patch);
 *   `View`     — the parts of the typed file the kind reads, by top-level key (its own, and another
 *                kind's where a rule needs it: `{ numbers?: DesiredNumber[]; sub_accounts?: … }`).
 *                The file loader above the registry composes `DesiredState` from these parts
 *                (src/config/types.ts), so nothing here names it.
 *
 * This module is the kit (docs/ARCHITECTURE.md, "The four floors"): it never imports a kind, the
 * registry (src/kinds/index.ts) or anything that iterates it.
 *
 * Shared mechanisms stay out of kinds: requests, retries, pacing and pagination are the client's
 * (`src/client`); scheduling, bounded concurrency, progress, interruption, bulk fallback and the
 * bookkeeping of partial failures are the engine's (`src/plan/engine.ts`). A kind says what to
 * send (its writes, as data) and how to confirm it.
 */
import type { WavixClient } from "../client";
import type { GatedClient } from "./gate/gate";
import type { RawProblem, SourcePosition } from "./file/problems";
import type { PathSegment } from "./file/yaml-nodes";
import type { FieldDiff } from "./change/diff";
import type { ChangeAction, ChangeOwner, ChangeResult } from "./change/types";
import type { EffectsOf } from "./change/effects";
import type { KindProvider } from "./provider/contract";
import type { KindSchemaPart } from "./provider/schema";

/** A JSON Schema (draft-07) object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The part of the file a kind owns: one top-level key, its schema, and the definitions it uses. */
export interface FileFragment {
  /** Where the key sits in the file, the schema and an export: lower first. */
  readonly order: number;
  /** Top-level key of the file (`sub_accounts`). */
  readonly key: string;
  /** The schema of that key's value; refers to definitions as `#/definitions/<name>`. */
  readonly schema: JsonSchema;
  /** Definitions this kind adds to the one document (`schemas/wavix.schema.json`). */
  readonly definitions?: Readonly<Record<string, JsonSchema>>;
}

/** Tools a kind's file checks use (the file loader, src/config/semantic.ts, gives them). */
export interface FileCheckTools {
  /** The whole file as plain data (a check across kinds: a number's `trunk:` names a declared trunk). */
  readonly root: Readonly<Record<string, unknown>>;
  /** Line of a path, for "first declared at line N". */
  lineOf(segments: PathSegment[]): number;
  describePath(segments: PathSegment[]): string;
  /** Remembers the first item holding `key`; a later one is reported as a duplicate pointing back at it. */
  unique<K>(seen: Map<K, number>, key: K, list: string, i: number, field: string, what: string): void;
  /** Reports a string that starts like an http(s) URL but is not one the API would take. */
  urlCheck(v: unknown, segments: PathSegment[]): void;
  /** Reports a name matched exactly that has leading or trailing blanks; true when it did. */
  padded(v: unknown, segments: PathSegment[], what: string): boolean;
  report(problem: RawProblem): void;
  /** The whole file's data, for a check that refers to another kind's part (a number's `sub_account`). */
  readonly document: Readonly<Record<string, unknown>>;
}

/** The kind's part of the file as data: checks past the schema, normalisation, and the way back. */
/**
 * What identifies an entry of a list part of the file (a number by its digits, a trunk by its
 * label, a 10DLC entry by `BRAND/CAMPAIGN`): the key one resource holding the whole account keys
 * the entry by (src/pulumi/plugin/account.ts, `numbers["15551230001"]`), and the fields that key
 * stands for, given back to the entry.
 */
export interface EntryKey {
  /** The entry's key, from its fields in the file's form (snake_case). */
  of(entry: Readonly<Record<string, unknown>>): string;
  /** The fields the key stands for (`BRAND/CAMPAIGN` is two); the inverse of `of`. */
  fields(key: string): Record<string, string>;
}

export interface FileForm<Declared> {
  /** For a list part: what identifies an entry (absent: the part is one value, or a map by data). */
  readonly entryKey?: EntryKey;
  /** URL fields under the key (`*`: any list index): rewritten to their ASCII form before any check. */
  readonly urls: readonly (readonly string[])[];
  /** Checks the schema cannot express (unique identities, cross-field rules), on plain data that may have failed the schema. */
  check(value: unknown, tools: FileCheckTools): void;
  /** The schema-valid value as the typed declared state; undefined when it declares nothing. */
  normalize(value: unknown, positionOf: (segments: readonly PathSegment[]) => SourcePosition | undefined): Declared | undefined;
  /** The declared state in the file's form (keys absent stay absent). */
  toFile(declared: Declared): unknown;
}

/** What every op carries; a kind's own op type extends it. */
export interface OpBase {
  readonly key: string;
  readonly action: ChangeAction;
}

/** One planned change of a kind, with what apply needs to carry it out. */
export interface KindChange<Op extends OpBase> {
  readonly diff: FieldDiff[];
  readonly op: Op;
  /** Who owns the item, when not the account itself (a tenant's number: its sub-account); shown in plans. */
  readonly owner?: ChangeOwner;
}

/**
 * Where a declared item sits in the file: its path (`sender_ids[1]`) and, when the loader kept it,
 * its position. A declared item carries both (`path`, `pos`), so a kind passes the item itself.
 */
export interface FileSpot {
  readonly path: string;
  readonly pos?: SourcePosition;
}

/** A declared item that cannot be planned; `at` (the item) words it `FILE:LINE:COL: … (at path)`. */
export interface KindProblem {
  key: string;
  message: string;
  at?: FileSpot;
}

/** A kind's part of the plan. The engine stamps `kind` onto each item. */
export interface KindPlan<Op extends OpBase> {
  changes: KindChange<Op>[];
  problems: KindProblem[];
  /** Keys in the account the file does not declare (shown when not pruning). */
  unmanaged: string[];
  unchanged: number;
  /**
   * What a person should know that is neither a change nor a problem (a link still pending at the
   * API, a value the API cannot show back): shown by every renderer, never changes the exit code.
   */
  notes?: { key: string; message: string }[];
}

/** Per-run memo for reads several kinds need (e.g. the sub-account list), so each is sent once. */
export interface ReadCache {
  once<T>(name: string, read: () => Promise<T>): Promise<T>;
}

export interface PlanContext<View extends object = object> {
  readonly client: WavixClient;
  /** `--prune`: remove (or disable) what the file does not declare. */
  readonly prune: boolean;
  /**
   * Opt-ins of this run, by name, for what a kind does only when asked (`--send-callbacks`:
   * `send-callbacks`). The engine passes them through without reading them.
   */
  readonly flags: ReadonlySet<string>;
  /** The whole file, for a kind whose plan must consult another kind's declarations (numbers routed to a trunk). */
  readonly desired: View;
  /** Keys whose write-only secrets are sent again (`--rotate-password LABEL`: a trunk's password). */
  readonly rotate: ReadonlySet<string>;
  readonly cache: ReadCache;
  /** The one-sentence form of an error (src/kit/change/error-text.ts). */
  describe(err: unknown): string;
}

/**
 * One write, as data the engine schedules under the run's concurrency bound, counts for progress
 * and records: which ops (keys) it carries and which of their fields, how to send it, and what to
 * try instead when the server refuses it (a bulk write falls back to one write per item).
 */
export interface Write {
  readonly keys: readonly string[];
  /** Fields of `key` this write carries: what is reported unsent or failed when it is. */
  fields(key: string): readonly string[];
  /**
   * Sends it through the write gate's client (src/kit/gate/gate.ts: the only way to a client
   * write); may say how a create went (found after an unknown outcome, adopted).
   */
  send(client: GatedClient): Promise<WriteNote | void>;
  /** After a refusal: the writes to send instead, or undefined to record the failure. */
  fallback?(err: unknown): Write[] | undefined;
  /** The failure message for `key`; undefined (or absent): the error as one plain sentence. */
  failure?(key: string, err: unknown): string | undefined;
}

export interface WriteNote {
  reconciled?: boolean;
  adopted?: boolean;
  /** The Wavix id of what a create made (or adopted): apply names it. Never a secret. */
  id?: string | number;
  /** A twin this create made and removed again (src/kit/twins.ts): the sentence apply says. Never a secret. */
  twin?: string;
  /** What a create made that later waves' writes need (a new trunk's id and login). Never a secret. */
  made?: Readonly<Record<string, unknown>>;
}

/**
 * What the writes of earlier apply waves made, for a later wave's `writes` (a number routed by
 * label to a trunk created in this same run needs the trunk's new id).
 */
export interface EarlierWrites {
  /** What the create of `key` of kind `kind` made (its `WriteNote.made`); undefined when none was made. */
  made(kind: string, key: string): Readonly<Record<string, unknown>> | undefined;
}

/** No earlier writes (a kind's writes outside the engine's waves). */
export const NO_EARLIER_WRITES: EarlierWrites = { made: () => undefined };

/** What the engine recorded while sending a kind's writes, per op key. */
export interface WriteReport {
  /** Fields whose write failed. */
  readonly failedFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Failure messages, joined with `; `. */
  readonly failures: ReadonlyMap<string, string>;
  /** Fields never sent because the run was interrupted (present, possibly empty, for every unsent op). */
  readonly unsent: ReadonlyMap<string, ReadonlySet<string>>;
  readonly notes: ReadonlyMap<string, WriteNote>;
}

export interface ConfirmContext {
  /** The run's gated client: a read-back that writes again (a reverted PUT, a twin removed) writes through the gate. */
  readonly client: GatedClient;
  /** How long asynchronous changes may take to show, in seconds. */
  readonly waitSeconds: number;
  readonly pollBaseMs: number;
  /** How long to wait before looking again for another run's stale write; undefined: the kind's default. */
  readonly settleMs?: number;
  readonly signal?: AbortSignal;
  /** The one-sentence form of an error (src/kit/change/error-text.ts). */
  describe(err: unknown): string;
}

/** The results of a kind's ops once written and read back. */
export interface KindResults {
  results: Omit<ChangeResult, "kind">[];
  /** Keys written whose asynchronous part had not shown yet. */
  pending?: string[];
}

/**
 * A kind's part of an export, as file text: a list's items (each its own lines, in order), or one
 * value. `chunked`: a list long enough to be written a chunk of items at a time (numbers); `notes`:
 * what the file should say about the list (written as comments above its key). A value
 * `undefined` leaves the kind's key out of the file (nothing it manages can be shown).
 */
export type ExportedText = (
  | { readonly form: "list"; readonly items: readonly string[]; readonly chunked?: boolean; readonly notes?: readonly string[] }
  | { readonly form: "value"; readonly value: unknown }
) & {
  /** What the account holds that the file cannot declare, left out (printed as warnings). @default [] */
  readonly warnings?: readonly string[];
};

/** How a kind writes the account into a file on which plan is clean (no secrets). */
export interface KindExport<Declared> {
  /** Reads this kind's part of the account (in pages) as file text. */
  text(client: WavixClient): Promise<ExportedText>;
  /** The same content as the typed declared state; undefined leaves the key out, as `text` does. */
  state(client: WavixClient): Promise<Declared | undefined>;
}

/**
 * The program side of a kind's Pulumi adapter (src/kinds/<kind>/pulumi.ts, which needs
 * `@pulumi/pulumi`): the file's items as dynamic resources, by identity, and the stack outputs
 * they give. `R` is the kind's resource class.
 */
export interface PulumiProgramPart<Declared, R> {
  /**
   * `earlier`: the resources of the kinds declared before this one (file order), by collection
   * (`subAccounts`, `sipTrunks`), so a resource can take its inputs from another's outputs (a
   * tenant's number from its sub-account's id; a number routed by label from its trunk's).
   *
   * When `Declared` is a list, each item is declared on its own: declaring two parts of the list one
   * after the other gives the same resources as declaring it whole (the root program declares a
   * long list in chunks, src/pulumi/program.ts `declareResourcesStreamed`).
   */
  declare(declared: Declared, opts: PulumiResourceOptions, earlier?: Readonly<Record<string, Readonly<Record<string, unknown>>>>): Record<string, R>;
  outputs?(resources: Record<string, R>): Record<string, unknown>;
}

/** `pulumi.CustomResourceOptions`, named structurally so the CLI's types never need `@pulumi/pulumi`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PulumiResourceOptions = { aliases?: any[] } & Record<string, any>;

/**
 * A kind's Pulumi adapter: its names under Pulumi and the program half (which loads on first use
 * only: the CLI runs without `@pulumi/pulumi` installed, and a provider never loads it). The
 * provider half is engine-agnostic: `Kind.provider`.
 */
export interface PulumiAdapter<Declared, Type extends string = string> {
  /**
   * The type name: resource type `pulumi-nodejs:dynamic/wavix:<type>`, the export of
   * `wavix-sync/pulumi/provider-impl` and the kind in provider text stored in state. Never change it.
   */
  readonly type: Type;
  /** The key of `declareResources`' result holding this kind's resources (`subAccounts`). */
  readonly collection: string;
  /** The program half (src/kinds/<kind>/pulumi.ts). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  program(): PulumiProgramPart<Declared, any>;
  /**
   * The kind's part of the native provider's package schema (src/kinds/<kind>/pulumi-schema.ts):
   * the resource `wavix:index:<type>` and its types (plain data, loaded with the kind).
   */
  schema(): KindSchemaPart;
}

/**
 * One change as a saved plan holds it (`plan --save`, docs/SAVED-PLANS.md): plain JSON data, with
 * no secret in it (never a key, a password or a token; the file is a CI artifact).
 */
export interface SavedChange {
  /**
   * The values the change was computed from, as they were read (only what the change depends on,
   * normalised as the diff compares them); `null` when the item did not exist (a create).
   */
  readonly read: unknown;
  /** What apply needs, besides `key`, `action` and `read`, to carry the change out. */
  readonly op: unknown;
}

/** An item a saved plan touches that is no longer as the plan read it. */
export interface Drift {
  readonly key: string;
  /** What changed, in one sentence (`status was enabled when planned, now disabled`). */
  readonly message: string;
}

export interface RecheckContext {
  readonly client: WavixClient;
  /** The one-sentence form of an error (src/kit/change/error-text.ts). */
  describe(err: unknown): string;
}

/**
 * A kind's part of saved plans (`plan --save` / `apply --plan`). Optional: a kind without it makes
 * `plan --save` refuse, naming the kind, whenever the plan holds one of its changes (a plan with
 * none of its changes saves and applies as usual).
 */
export interface SavedPlanSupport<Op extends OpBase, Declared = unknown, Current = unknown> {
  /** The op as data (JSON-safe, no secrets). `load(save(op))` must carry out the same writes. */
  save(op: Op): SavedChange;
  /**
   * The op back from a saved plan's data. The data comes from a file: check every field this kind
   * reads and throw an Error whose message says what is wrong (the apply is refused, naming it).
   */
  load(key: string, action: ChangeAction, saved: SavedChange): Op;
  /**
   * Re-reads only what `ops` touch, with a bounded number of requests (one GET per item, or one
   * listing when that is cheaper or the only way to see that a create's name is still free), and
   * returns every item that is no longer as its `read` says. GETs only. Throws when it cannot read:
   * the apply is then refused, because nothing could be compared.
   */
  recheck(ctx: RecheckContext, ops: readonly Op[]): Promise<Drift[]>;
  /**
   * What the kind's own `plan` needs to compute `ops` again (`apply --plan` verifies a saved plan so,
   * docs/SAVED-PLANS.md): the part of the file's `declared` those ops are about (the items whose
   * identity is one of theirs, or that pin one of their reads' ids), and a `Current` rebuilt from the
   * values the ops recorded as read (nothing else: no item the plan did not change). Pure: no request.
   * The engine runs `plan` over them with this run's flags and refuses the saved plan unless `plan`
   * gives back exactly these ops (compared as `save` writes them), each change's diff and effects.
   */
  replay(declared: Declared, ops: readonly Op[]): { declared: Declared; current: Current };
}

/**
 * A resource kind. `Name` is what plans show (`sub_account`); the rest is the kind's own types.
 */
export interface Kind<Name extends string, Declared, Current, Op extends OpBase, PulumiType extends string = string, View extends object = object> {
  readonly name: Name;
  /** For `validate`'s summary line: `3 sub-accounts`. */
  readonly label: { readonly one: string; readonly many: string };
  /** The file's part this kind owns: its schema fragment. */
  readonly file: FileFragment;
  /** The same part as data: checks, normalisation, the way back (src/config iterates it). */
  readonly fileForm: FileForm<Declared>;
  /**
   * Kinds whose creates and updates must be carried out before this kind's writes (a trunk before
   * the numbers routed to it; a sub-account before its tenants' numbers); their deletes then wait
   * for this kind's writes. Acyclic; checked when the registry loads.
   */
  readonly after?: readonly string[];
  /**
   * The destructive effects of one of this kind's changes (src/kit/change/effects.ts): what the change
   * does — a delete, a disable, an unlink, routing removed, a limit lifted — whatever asked for it.
   * The one place the kind decides it: the plan engine, saved plans and the Pulumi providers call it.
   * @default actionEffects (a delete deletes, a replace replaces, nothing else is destructive)
   */
  readonly effects?: EffectsOf;
  /** Said after a delete in plans, when a delete is not what happens (`(disabled: the API has no delete)`). */
  readonly deleteNote?: string;
  /**
   * An item's name as `--target KIND/NAME` gives it, turned into the key its changes carry (a number
   * written `+15551230001` is keyed by its digits, as the file's numbers are).
   * @default the name as given
   */
  readonly targetKey?: (name: string) => string;
  /** Said after a replace in plans, what a replace is for this kind (` (deleted, then created again: the API has no update)`). */
  readonly replaceNote?: string;
  /** The kind's part of the typed file; undefined when the file does not name it (nothing managed). */
  declared(state: View): Declared | undefined;
  /** How many items the file declares (validate's summary). */
  count(declared: Declared): number;
  /** Reads the current state the plan needs, in pages (GETs only). */
  read(ctx: PlanContext<View>, declared: Declared): Promise<Current>;
  /** Identity, normalisation and diff: what would change. May read more on an error path. */
  plan(ctx: PlanContext<View>, declared: Declared, current: Current): KindPlan<Op> | Promise<KindPlan<Op>>;
  /**
   * The writes that carry out `ops`, in the order to enqueue them. `earlier`: what the writes of
   * the kinds this one is ordered after (`after`) made in this run.
   */
  writes(ops: readonly Op[], earlier: EarlierWrites): Write[];
  /** The result of each op from the write report, after reading back what was written. */
  confirm(ctx: ConfirmContext, ops: readonly Op[], report: WriteReport): Promise<KindResults>;
  /** `export`: the account's items of this kind as the file declares them. */
  readonly export: KindExport<Declared>;
  /** The kind under Pulumi: its type name, its collection and the program half. */
  readonly pulumi: PulumiAdapter<Declared, PulumiType>;
  /**
   * The kind's resource provider (src/kinds/<kind>/provider.ts; src/kit/provider/contract.ts):
   * check, diff, create, read, update and delete over plain props, which the dynamic provider
   * (src/pulumi/provider-host.ts) and a native plugin both serve. Loaded on first use.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  provider(): KindProvider<any, any>;
  /** Saved plans (`plan --save`, `apply --plan`); absent: a plan holding this kind's changes cannot be saved. */
  readonly saved?: SavedPlanSupport<Op, Declared, Current>;
  /**
   * The secrets these ops read at apply (a trunk's password, from the variable its `password_env`
   * names: a plan never needs one): one problem per op that cannot have its secret now. Apply
   * (`applyPlan`, and the CLI before it asks) refuses before any write when any kind gives one.
   * @default none needed
   */
  readonly secrets?: (ops: readonly Op[], ctx: SecretsContext) => ReadonlyArray<{ readonly key: string; readonly message: string }>;
}

/** What a kind's `secrets` reads: the environment of this apply, and how the API key is recognised. */
export interface SecretsContext {
  readonly env: NodeJS.ProcessEnv;
  /** The client's own test: a secret that is the API key is never sent as anything else. */
  isApiKey(value: string): boolean;
}

/**
 * Any kind, for the code that iterates kinds (its own types stay in its folder). The registry
 * (src/kinds/index.ts) narrows the name to the registered kinds' names.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind<Name extends string = string> = Kind<Name, any, any, any, string, any>;

/**
 * The usual outcome of one op from the write report: failed (with the message), not started
 * (nothing of it sent), failed after a partial interruption, or ok with the create's note.
 */
export function reportedResult(op: OpBase, fields: readonly string[], report: WriteReport): Omit<ChangeResult, "kind"> {
  const base = { key: op.key, action: op.action };
  const error = report.failures.get(op.key);
  const unsent = report.unsent.get(op.key);
  if (error !== undefined) return { ...base, outcome: "failed", error };
  if (unsent && unsent.size >= fields.length) return { ...base, outcome: "not_started" };
  if (unsent) return { ...base, outcome: "failed", error: `interrupted before ${[...unsent].join(", ")} was sent; the rest was written` };
  const note = report.notes.get(op.key);
  return {
    ...base,
    outcome: "ok",
    ...(note?.id !== undefined ? { id: note.id } : {}),
    ...(note?.reconciled ? { reconciled: true } : {}),
    ...(note?.adopted ? { adopted: true } : {}),
    ...(note?.twin !== undefined ? { twin: note.twin } : {}),
  };
}
