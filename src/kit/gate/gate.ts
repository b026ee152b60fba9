/**
 * The write gate (docs/ARCHITECTURE.md, "The write gate"; docs/GUARD-RAILS.md): the one way any
 * code reaches a write of the Wavix client (POST, PUT, PATCH, DELETE). Every face — the CLI's
 * `apply` and `apply --plan`, the library's `applyPlan`, the Pulumi dynamic providers and native
 * plugin, a Terraform provider — makes a {@link WriteGate} for its run or deployment and hands the
 * kinds a {@link GatedClient}; the kinds say what a change does (`effects.ts`) and how to write it,
 * the gate decides whether it may leave:
 *
 * - **the account**: before a write leaves, the key's account (`GET /v1/profile`, read once) is
 *   compared with every pin that applies (src/kit/gate/account.ts);
 * - **the blast radius**: destructive changes are counted by effect, for the whole run at once
 *   ({@link WriteGate.admitRun}) or one at a time as an engine asks ({@link WriteGate.admit},
 *   {@link WriteGate.forecast}), and the one past the limit is refused, naming the limit and the
 *   override (src/kit/gate/blast.ts);
 * - **admission**: no write leaves for a run or change the gate has not admitted.
 *
 * No engine type in it: a face passes plain values (its names for the key, the pin, the limit and
 * the override, for messages). test/architecture/client-writes.test.ts fails when anything outside
 * this folder calls a write method of `WavixClient`.
 */
import { WavixClient } from "../../client";
import { compareAccounts, keyAccount, type AccountPin, type ObjectAccount } from "./account";
import { BLAST_DEFAULTS, BlastRadiusError, countBlast, overBlastLimit, type BlastLimits, type BlastVerdict, type GateChange } from "./blast";

/** How a face names its own settings in the gate's messages. */
export interface GateWording {
  /** Where the key was set. @default "WAVIX_API_KEY" */
  readonly keyName?: string;
  /** How to pin an account on this face. @default "`account_id: N` in the file" */
  readonly pinHint?: (account: number | "N") => string;
  /** The name of the total limit. @default "safety.max_destructive_total" */
  readonly limitName?: string;
  /** What lifts the limit. @default "--force" */
  readonly override?: string;
  /** How to forget an object whose recorded account is not the key's. @default "`pulumi state delete` the resource" */
  readonly forget?: string;
}

export interface WriteGateOptions {
  /** The master account's client: the one whose key's account is confirmed (`GET /v1/profile`). */
  readonly client: WavixClient;
  /**
   * How the key's account is read, when the face reads it already (a Pulumi session's memoised
   * profile): undefined when the key may not read the profile. @default one `GET /v1/profile` through `client`
   */
  readonly account?: () => Promise<number | undefined>;
  /** Every pin that applies to the run or deployment (the file's `account_id:`, `wavix:accountId`). @default none */
  readonly pins?: readonly AccountPin[];
  /** The blast-radius limits. @default {@link BLAST_DEFAULTS} */
  readonly limits?: Partial<BlastLimits>;
  /** Lift the blast-radius limit for this run (`--force`, `wavix:force`). @default false */
  readonly force?: boolean;
  /** Told when a destructive change passes a lifted limit. */
  readonly onForced?: (message: string) => void;
  readonly wording?: GateWording;
}

/** What a gated client writes for: the object (by its words) and the account recorded for it. */
export interface WritePass {
  /** The object, for messages: `SubAccount "Acme" (id 501)`, `sub_account "Acme"`. */
  readonly what: string;
  readonly object?: ObjectAccount;
}

const RUN: WritePass = { what: "the run" };

export class WriteGate {
  private readonly limits: BlastLimits;
  private readonly wording: Required<GateWording>;
  /** Admitted changes of this deployment, by `kind\0key` (a change asked twice counts once). */
  private readonly admitted = new Map<string, GateChange>();
  /** Changes a preview (diff) foresaw, counted apart from the writes (src/kit/gate/blast.ts). */
  private readonly foreseen = new Map<string, GateChange>();
  private runAdmitted = false;
  private account: Promise<number | undefined> | undefined;

  constructor(private readonly options: WriteGateOptions) {
    this.limits = { ...BLAST_DEFAULTS, ...stripUndefined(options.limits ?? {}) };
    const w = options.wording ?? {};
    this.wording = {
      keyName: w.keyName ?? "WAVIX_API_KEY",
      pinHint: w.pinHint ?? ((a) => `\`account_id: ${a}\` in the file`),
      limitName: w.limitName ?? "safety.max_destructive_total",
      override: w.override ?? "--force",
      forget: w.forget ?? "`pulumi state delete` the resource",
    };
  }

  /** The pins this gate compares (for a face's own messages). */
  get pins(): readonly AccountPin[] {
    return this.options.pins ?? [];
  }

  /** The total limit in force. */
  get limit(): number {
    return this.limits.max_destructive_total;
  }

  /** Destructive changes admitted so far (a deployment's count). */
  get destructive(): number {
    return [...this.admitted.values()].filter((c) => c.effects.length > 0).length;
  }

  /** The key's account (undefined: it may not read the profile), read once for the gate. */
  keyAccount(): Promise<number | undefined> {
    const read = this.options.account ?? (() => keyAccount(this.options.client));
    return (this.account ??= read().catch((err: unknown) => {
      this.account = undefined; // no answer (unreachable) is no verdict: asked again next time
      throw err;
    }));
  }

  /**
   * The account rail: resolves when a write for `pass` may go to the key's account; throws
   * (naming what to do) when a pin or the object's recorded account says otherwise or cannot be
   * compared. Sends at most one `GET /v1/profile` per gate, and none when nothing needs comparing.
   */
  async confirm(pass: WritePass = RUN): Promise<number | undefined> {
    if (this.pins.length === 0 && pass.object === undefined) return undefined;
    const account = await this.keyAccount();
    compareAccounts(account, this.pins, pass.object, pass.what, { keyName: this.wording.keyName, pinHint: this.wording.pinHint, forget: this.wording.forget });
    return account;
  }

  /**
   * A whole run counted at once, before its first write (the CLI and the library): throws
   * {@link BlastRadiusError} when its destructive changes pass a limit (per kind where `existing`
   * says how many the account holds, and in total), unless forced; then confirms the account.
   */
  async admitRun(changes: readonly GateChange[], existing?: (kind: string) => number): Promise<BlastVerdict> {
    const verdict = countBlast(changes, this.limits, existing);
    if (overBlastLimit(verdict) && !this.options.force) throw new BlastRadiusError(this.runRefusal(verdict), verdict);
    await this.confirm();
    for (const c of changes) this.admitted.set(id(c), c);
    this.runAdmitted = true;
    return verdict;
  }

  /**
   * One change of a deployment, before its writes (an engine's create, update or delete): throws
   * {@link BlastRadiusError} when it is destructive and the deployment's destructive changes would
   * pass the total limit, unless forced. A change admitted before counts once.
   */
  admit(change: GateChange): void {
    this.count(this.admitted, change, "written");
  }

  /**
   * One change an engine's preview foresees (a diff): counted apart from the writes, refused the
   * same way, so a preview whose destructive changes pass the limit fails before any write.
   */
  forecast(change: GateChange): void {
    this.count(this.foreseen, change, "planned");
  }

  private count(tally: Map<string, GateChange>, change: GateChange, verb: string): void {
    const known = tally.get(id(change));
    if (known !== undefined && (known.effects.length > 0 || change.effects.length === 0)) return;
    if (change.effects.length === 0) {
      tally.set(id(change), change);
      return;
    }
    const n = [...tally.values()].filter((c) => c.effects.length > 0).length + 1;
    if (n > this.limits.max_destructive_total) {
      const verdict: BlastVerdict = { limits: this.limits, violations: [], total: { destructive: n, limit: this.limits.max_destructive_total } };
      const message =
        `${change.what ?? `${change.kind} "${change.key}"`} (${change.effects.join(", ")}): not ${verb}: it would be destructive change ${n} of this deployment, ` +
        `past the limit of ${this.limits.max_destructive_total} (${this.wording.limitName}); nothing of it was written. ` +
        `Review the changes; to allow them for one run, ${this.wording.override}`;
      if (!this.options.force) throw new BlastRadiusError(message, verdict);
      this.options.onForced?.(`${change.what ?? `${change.kind} "${change.key}"`}: destructive change ${n}, past the limit of ${this.limits.max_destructive_total}, allowed (${this.wording.override})`);
    }
    tally.set(id(change), change);
  }

  private runRefusal(v: BlastVerdict): string {
    const parts = v.violations.map((x) => `${x.destructive} destructive change${x.destructive === 1 ? "" : "s"} of ${x.kind} (${x.percent}% of ${x.existing}) pass safety.max_destructive_percent ${v.limits.max_destructive_percent}%`);
    if (v.total) parts.push(`${v.total.destructive} destructive changes in all pass ${this.wording.limitName} ${v.total.limit}`);
    return `nothing was written: ${parts.join("; ")}; review the plan, and to apply it anyway use ${this.wording.override}`;
  }

  /** Called by every gated write before it leaves: admitted, and the account confirmed. */
  async beforeWrite(pass: WritePass): Promise<void> {
    if (!this.runAdmitted && !this.admitted.has(`\u0000${pass.what}`) && ![...this.admitted.values()].some((c) => c.what === pass.what)) {
      throw new Error(`${pass.what}: a write reached the write gate before any change was admitted (src/kit/gate/gate.ts); nothing was written`);
    }
    await this.confirm(pass);
  }

  /** The client the kinds write through: `client` (master or a sub-account's), gated for `pass`. */
  client(client: WavixClient, pass: WritePass = RUN): GatedClient {
    return GatedClient.over(client, this, pass);
  }
}

function id(c: GateChange): string {
  return `${c.kind}\u0000${c.key}`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

type W = WavixClient;

/**
 * A `WavixClient` whose writes pass the gate first: reads are the client's own; each write waits
 * for {@link WriteGate.beforeWrite}. The kinds' write helpers take this type, never a plain
 * client, so a write cannot leave without the gate (test/architecture/client-writes.test.ts).
 */
export class GatedClient extends WavixClient {
  #gate!: WriteGate;
  #pass!: WritePass;

  static over(client: WavixClient, gate: WriteGate, pass: WritePass): GatedClient {
    const g = GatedClient.sharing(client);
    g.#gate = gate;
    g.#pass = pass;
    return g;
  }

  /** The gate this client writes through. */
  get gate(): WriteGate {
    return this.#gate;
  }

  /** The same client, writing for another object (its own recorded account). */
  for(pass: WritePass): GatedClient {
    return GatedClient.over(this, this.#gate, pass);
  }

  /** Another client (a sub-account's, carried by an op) writing through the same gate and pass. */
  through(other: WavixClient): GatedClient {
    return other instanceof GatedClient ? other : GatedClient.over(other, this.#gate, this.#pass);
  }

  override withApiKey(apiKey: string): GatedClient {
    return GatedClient.over(super.withApiKey(apiKey), this.#gate, this.#pass);
  }

  private async gated<T>(send: () => Promise<T>): Promise<T> {
    await this.#gate.beforeWrite(this.#pass);
    return send();
  }

  override updateNumber(...a: Parameters<W["updateNumber"]>) {
    return this.gated(() => super.updateNumber(...a));
  }
  override bulkUpdateNumbers(...a: Parameters<W["bulkUpdateNumbers"]>) {
    return this.gated(() => super.bulkUpdateNumbers(...a));
  }
  override releaseNumbers(...a: Parameters<W["releaseNumbers"]>) {
    return this.gated(() => super.releaseNumbers(...a));
  }
  override createSubAccount(...a: Parameters<W["createSubAccount"]>) {
    return this.gated(() => super.createSubAccount(...a));
  }
  override replaceSubAccount(...a: Parameters<W["replaceSubAccount"]>) {
    return this.gated(() => super.replaceSubAccount(...a));
  }
  override createTrunk(...a: Parameters<W["createTrunk"]>) {
    return this.gated(() => super.createTrunk(...a));
  }
  override replaceTrunk(...a: Parameters<W["replaceTrunk"]>) {
    return this.gated(() => super.replaceTrunk(...a));
  }
  override deleteTrunk(...a: Parameters<W["deleteTrunk"]>) {
    return this.gated(() => super.deleteTrunk(...a));
  }
  override upsertCallWebhook(...a: Parameters<W["upsertCallWebhook"]>) {
    return this.gated(() => super.upsertCallWebhook(...a));
  }
  override deleteCallWebhook(...a: Parameters<W["deleteCallWebhook"]>) {
    return this.gated(() => super.deleteCallWebhook(...a));
  }
  override createSenderId(...a: Parameters<W["createSenderId"]>) {
    return this.gated(() => super.createSenderId(...a));
  }
  override deleteSenderId(...a: Parameters<W["deleteSenderId"]>) {
    return this.gated(() => super.deleteSenderId(...a));
  }
  override linkCampaignNumber(...a: Parameters<W["linkCampaignNumber"]>) {
    return this.gated(() => super.linkCampaignNumber(...a));
  }
  override unlinkCampaignNumber(...a: Parameters<W["unlinkCampaignNumber"]>) {
    return this.gated(() => super.unlinkCampaignNumber(...a));
  }
  override updateProfileCallbacks(...a: Parameters<W["updateProfileCallbacks"]>) {
    return this.gated(() => super.updateProfileCallbacks(...a));
  }
}

/** The client methods that write (POST, PUT, PATCH, DELETE): each is overridden by {@link GatedClient}. */
export const WRITE_METHODS = [
  "updateNumber",
  "bulkUpdateNumbers",
  "releaseNumbers",
  "createSubAccount",
  "replaceSubAccount",
  "createTrunk",
  "replaceTrunk",
  "deleteTrunk",
  "upsertCallWebhook",
  "deleteCallWebhook",
  "createSenderId",
  "deleteSenderId",
  "linkCampaignNumber",
  "unlinkCampaignNumber",
  "updateProfileCallbacks",
] as const satisfies readonly (keyof WavixClient)[];
