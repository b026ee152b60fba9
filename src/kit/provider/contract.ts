/**
 * The per-kind provider interface (docs/ARCHITECTURE.md, "The per-kind provider"): what a kind
 * does for a resource engine — check, diff, create, read, update, delete — over plain objects,
 * with a context. Engine-agnostic: no `@pulumi/pulumi` type or import. Two faces call it: the
 * dynamic provider (src/pulumi/provider-host.ts `dynamicProvider`, inside Pulumi's
 * dynamic-provider host) and a native provider plugin; each turns its wire form into these plain
 * props (values not known yet as `UNKNOWN`, src/kit/provider/props.ts) and back.
 *
 * `In` is the resource's inputs (camelCase), `Out` its outputs (what state holds).
 */
import type { GatedClient } from "../gate/gate";
import type { DestructiveEffect } from "../change/effects";
import type { WavixClient } from "../../client";
import type { ConfigProblem } from "../file/problems";
import type { CheckFailure } from "./checks";
import type { Props } from "./props";
import type { FaceWords } from "./words";

export interface CheckResult<In> {
  /** The normalised inputs (what state will hold); the inputs as given when a failure is reported. */
  readonly inputs: In;
  readonly failures: CheckFailure[];
}

export interface DiffResult {
  readonly changes: boolean;
  /**
   * The properties that change, as paths (`url`, `defaultDestinations.smsEndpoint`), replacing ones
   * included: what a preview shows per property (the native plugin's detailed diff). A face that
   * shows only whether something changes ignores it.
   */
  readonly diffs: string[];
  /**
   * How some of `diffs` change, where comparing the old inputs with the new cannot tell (a change
   * of an object inside the resource that the inputs hold the same: `wavix:index:Account`'s plan).
   * @default each path's kind is read from the old and new inputs
   */
  readonly kinds?: Readonly<Record<string, "add" | "update" | "delete">>;
  /** Properties whose change replaces the resource (create the new one, then delete the old). */
  readonly replaces: string[];
  /** Outputs that do not change when the resource is updated in place. */
  readonly stables: string[];
  readonly deleteBeforeReplace: boolean;
}

export interface CreateResult<Out> {
  readonly id: string;
  readonly outs: Out;
}

/** `{}` (no id): the object is gone. `inputs`: the inputs that would reproduce it (a refresh, an import). */
export interface ReadResult<Out> {
  readonly id?: string;
  readonly props?: Out;
  readonly inputs?: Out;
}

export interface UpdateResult<Out> {
  readonly outs: Out;
}

/** The desired-state file's own checks of one entry, as the file loader gives them (injected: it sits above the kinds). */
export type EntryCheck<View extends object> = { ok: true; state: View } | { ok: false; problems: ConfigProblem[] };

/**
 * What a kind's provider works with: the account's clients, the deployment's bookkeeping of the
 * Wavix objects its resources hold, a warning channel, and the file's own checks. One context per
 * configuration (credentials); the face that serves the engine makes it (src/kit/provider/session.ts).
 */
export interface ProviderContext {
  /** The master account's client, built on first use; with an account pin, nothing is sent before the pin is checked. */
  masterClient(): WavixClient;
  /**
   * The client to manage a sub-account's objects with: its own key, fetched with the master key
   * and kept in memory only (seed 5.11); the master's when `subAccountId` is undefined.
   */
  clientFor(subAccountId: number | undefined): Promise<WavixClient>;
  /**
   * The account the master key belongs to (one `GET /v1/profile` for this context; with a pin, the
   * pinned account once checked); undefined when the key may not read the profile. Creates record
   * it, and deletes compare it (src/kit/provider/guards.ts): a stack moved to another account
   * deletes nothing there.
   */
  account(): Promise<number | undefined>;
  /** One value per client and name for this context (a kind's page reader), made on first use. */
  perClient<T>(client: WavixClient, name: string, make: (client: WavixClient) => T): T;
  /**
   * Records that a create in this deployment now holds the Wavix object `id` of resource type
   * `type` (it adopted or made it): the delete of the old half of a replacement must not touch it.
   */
  recordTakenOver(type: string, id: string | number): void;
  /** Records that a declared resource keeps the Wavix object `id` (its diff replaced nothing). */
  recordKept(type: string, id: string | number): void;
  /**
   * True when a resource of this deployment holds `id`: the delete of another state entry naming
   * it must not release, disable or delete it (`not` says which), and says so as a warning.
   */
  keptForReplacement(type: string, id: string | number, what: string, not: "released" | "disabled" | "deleted"): boolean;
  /**
   * Records that a resource to be created in this deployment (a new one, or a replacement: its
   * check had no old state) will look its Wavix object up by `identity` (`label:acme-pbx`, `id:144`).
   */
  recordToCreate(type: string, identity: string): void;
  /** True when a resource to be created in this deployment looks its object up by `identity` ({@link ProviderContext.recordToCreate}). */
  toCreate(type: string, identity: string): boolean;
  /**
   * Records that the delete of a resource its state says the stack made left the object `id` in
   * place (numbers route to it, `onDelete: "retain"`): with delete-before-replace, the first half of
   * a replacement. A create in this deployment that then finds `id` keeps it as made
   * ({@link ProviderContext.leftMadeInPlace}).
   */
  recordLeftMade(type: string, id: string | number, stored: Props): void;
  /**
   * Once, when this deployment's delete of a resource the stack made left `id` in place
   * ({@link ProviderContext.recordLeftMade}): the state that delete was given (what the stack last
   * wrote), for the create that finds it — the replacement, whose object keeps its origin (made
   * stays made). Undefined otherwise.
   */
  leftMadeInPlace(type: string, id: string | number): Props | undefined;
  /**
   * The client a resource's writes go through: the deployment's write gate (src/kit/gate/) first
   * admits the change — its destructive effects counted against the deployment's limit
   * (`wavix:maxDestructive`), refused past it — and every write then waits for the account rail:
   * the key's account compared with `wavix:accountId` and with the account `stored` (the state)
   * recorded for the object. Throws the refusal; nothing is sent.
   */
  writer(client: WavixClient, change: ProviderChange): GatedClient;
  /**
   * What a diff foresees (the preview): a destructive change counted apart from the writes, so a
   * preview past the deployment's limit fails before `pulumi up` writes anything. Throws the refusal.
   */
  forecast(what: string, effects: readonly DestructiveEffect[]): void;
  /** A warning for the person running the engine (a Pulumi diagnostic, a Terraform warning). */
  warn(message: string): void;
  /** How the face names settings and commands in messages (src/kit/provider/words.ts): `onDelete` or `on_delete`. */
  readonly words: FaceWords;
  /** Runs one entry through the desired-state file's own checks (docs/CONTRACT.md part 3); `label` names it in messages. */
  checkEntry<View extends object>(doc: Props, label: string): EntryCheck<View>;
}

/** One change of a resource, as the write gate counts it. */
export interface ProviderChange {
  /** The object, for messages and counting: `SubAccount "Acme" (id 501)`. */
  readonly what: string;
  /** Its destructive effects (the kind's `effects.ts`); empty for none. */
  readonly effects: readonly DestructiveEffect[];
  /** The state the engine holds for it (undefined for a create): its recorded `accountId`. */
  readonly stored?: object;
}

/** A kind's resource provider: plain props in, plain props out, a context (docs/ARCHITECTURE.md). */
export interface KindProvider<In = Props, Out = Props> {
  /**
   * Validates and normalises the inputs (the file's own rules). Sends no write; for a resource not
   * in state yet (`olds` empty) it may read whether the object exists, to say before the create
   * that it will be adopted (src/kit/provider/guards.ts `adoptionHint`).
   */
  check(ctx: ProviderContext, olds: In, news: In): Promise<CheckResult<In>>;
  /** What changes between the state (`olds`, outputs) and the new inputs; never sends a request. */
  diff(ctx: ProviderContext, id: string, olds: Out, news: In): Promise<DiffResult>;
  /** Creates (or adopts) the object. */
  create(ctx: ProviderContext, inputs: In): Promise<CreateResult<Out>>;
  /** Reads the object back (`props`: what state holds, when it holds anything). GETs only. */
  read(ctx: ProviderContext, id: string, props?: Out): Promise<ReadResult<Out>>;
  /** Absent when every change replaces the resource (the diff never reports an in-place change). */
  update?(ctx: ProviderContext, id: string, olds: Out, news: In): Promise<UpdateResult<Out>>;
  delete(ctx: ProviderContext, id: string, props: Out): Promise<void>;
  /**
   * Finds the object an import id names (the kind's documented form: digits, a label, an event
   * type...; docs/PULUMI.md "Import ids") and reads it whole: `id` is the resource id state will
   * hold, `props` its outputs and `inputs` every setting the API shows, normalised as `check` would
   * give them, so that a program declaring them plans no change. GETs only. `{}`: nothing by that id.
   * Throws, saying what an id of this kind looks like, when `importId` is not one.
   */
  import(ctx: ProviderContext, importId: string): Promise<ReadResult<Out>>;
}
