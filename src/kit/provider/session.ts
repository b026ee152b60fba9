/**
 * A provider context for one configuration (docs/ARCHITECTURE.md, "The provider kit"): the
 * credentials, the master client (pinned to the account when `accountId` is set), sub-account
 * clients, per-client values, and the bookkeeping of the Wavix objects this deployment's resources
 * hold. The face serving the engine makes one per configuration and a new one when it changes
 * (src/pulumi/provider-host.ts for the dynamic provider). No engine type in it.
 */
import { ForbiddenError, nodeHttpFetch, WavixApiError, WavixClient } from "../../client";
import { accountPinnedFetch, checkAccountPin } from "./account-pin";
import type { EntryCheck, ProviderChange, ProviderContext } from "./contract";
import type { DestructiveEffect } from "../change/effects";
import { WriteGate, type GatedClient, type ObjectAccount } from "../gate";
import type { Props } from "./props";
import { PULUMI_WORDS, type FaceWords } from "./words";

export interface Credentials {
  apiKey?: string;
  baseUrl?: string;
  /** The account the key must belong to (src/kit/provider/account-pin.ts); NaN when configured but not a positive integer. */
  accountId?: number;
  /** `wavix:maxDestructive`: destructive changes one deployment may make (the write gate's limit). @default 20 */
  maxDestructive?: number;
  /** `wavix:force`: lifts that limit for the run. @default false */
  force?: boolean;
}

export interface SessionOptions {
  readonly credentials: Credentials;
  /** Said when no API key is configured (how to set one, in the engine's terms). */
  readonly missingApiKeyHint: string;
  /**
   * The name of the key where the engine's configuration holds it (`wavix:apiKey`), for errors that
   * point at the key; when the key comes from the environment instead, `WAVIX_API_KEY` is named.
   * @default "wavix:apiKey"
   */
  readonly apiKeyName?: string;
  /**
   * Contract-drift notes shown one by one (the CLI's rule, src/cli/common.ts `noteDrift`): with
   * it, each difference and each field the API added is a warning; without it, the first
   * difference gives one warning saying how to see them, and added fields say nothing.
   * @default `WAVIX_SYNC_VERBOSE` set in the environment
   */
  readonly verbose?: boolean;
  /**
   * How the face names its gate settings in messages (docs/ARCHITECTURE.md, "The write gate"): the
   * pin, the limit, the override. @default Pulumi's (`wavix:accountId`, `wavix:maxDestructive`, `wavix:force`)
   */
  readonly gateNames?: SessionGateNames;
  /**
   * How the face names resource settings, its provider settings and its commands in the kinds'
   * messages (./words.ts). @default Pulumi's ({@link PULUMI_WORDS})
   */
  readonly words?: FaceWords;
  /** Warnings for the person running the engine. */
  warn(message: string): void;
  /** The desired-state file's checks of one entry (the file loader, injected from above the kinds). */
  checkEntry(doc: Props, label: string): EntryCheck<object>;
}

/** A face's names for the gate's settings, for messages. */
export interface SessionGateNames {
  /** Where the pin is set: `wavix:accountId`, `account_id in the provider "wavix" block`. */
  readonly pin: string;
  /** How to pin account `a` on this face. */
  readonly pinHint: (account: number | "N") => string;
  /** The name of the limit: `wavix:maxDestructive`, `max_destructive`. */
  readonly limitName: string;
  /** What lifts the limit for one run, or raises it. */
  readonly override: string;
}

/** Pulumi's names (the dynamic providers and the native plugin). */
export const PULUMI_GATE_NAMES: SessionGateNames = {
  pin: "wavix:accountId",
  pinHint: (a) => `\`pulumi config set wavix:accountId ${a}\``,
  limitName: "wavix:maxDestructive",
  override: "set `pulumi config set wavix:force true` for one run (and remove it after), or raise wavix:maxDestructive",
};

/**
 * A client's `onWarning` showing contract drift by the CLI's rule (src/cli/common.ts `noteDrift`):
 * verbose (`WAVIX_SYNC_VERBOSE`), each difference and each added field as a warning; otherwise the
 * first difference gives {@link DRIFT_SUMMARY} once, and added fields (harmless) say nothing.
 */
export function driftNotes(warn: (message: string) => void, verbose?: boolean, summary: string = DRIFT_SUMMARY): (message: string, info?: { additive?: boolean }) => void {
  let summarised = false;
  return (message, info) => {
    if (verbose ?? Boolean(process.env.WAVIX_SYNC_VERBOSE)) {
      warn(info?.additive ? `note: ${message}` : message);
      return;
    }
    if (info?.additive || summarised) return;
    summarised = true;
    warn(summary);
  };
}

/** What the drift summary says (once) when notes are not shown one by one; `command` runs the engine. */
export const driftSummary = (command: string): string =>
  `the Wavix API answered differently from its documented schema (contract drift); set WAVIX_SYNC_VERBOSE=1 in the environment of ${command} to see each difference`;

/** {@link driftSummary} under Pulumi. */
export const DRIFT_SUMMARY = driftSummary(PULUMI_WORDS.command);

/**
 * Whether two configurations name the same account, key and base URL (a context can be kept). An
 * account id that is not one (NaN) never equals another: each configuration starts afresh.
 */
export function sameCredentials(a: Credentials, b: Credentials): boolean {
  return a.apiKey === b.apiKey && a.baseUrl === b.baseUrl && a.accountId === b.accountId && a.maxDestructive === b.maxDestructive && a.force === b.force;
}

/** `wavix:accountId` as a number; NaN (never equal to an account) when it is not a positive integer. */
export function accountIdOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return /^\s*[1-9]\d{0,15}\s*$/.test(v) ? Number(v) : NaN;
}

/**
 * `wavix:maxDestructive` (a whole number; anything else is 0: nothing destructive passes until it is
 * fixed) and `wavix:force` (`true`), read from a face's configuration.
 */
export function gateSettingsOf(get: (k: string) => string | undefined): Pick<Credentials, "maxDestructive" | "force"> {
  const max = get("maxDestructive");
  const force = get("force");
  return {
    ...(max !== undefined ? { maxDestructive: /^\s*\d{1,9}\s*$/.test(max) ? Number(max) : 0 } : {}),
    ...(force !== undefined && force.trim() === "true" ? { force: true } : {}),
  };
}

export class ProviderSession implements ProviderContext {
  private master: WavixClient | undefined;
  /** Clients holding sub-account keys (memory only, never state). */
  private readonly subClients = new Map<number, WavixClient>();
  private readonly values = new WeakMap<WavixClient, Map<string, unknown>>();
  /**
   * Wavix objects that a resource of this deployment holds, as `type:id`: taken on (adopted or made)
   * by a create, or kept by a declared resource whose diff replaces nothing.
   */
  private readonly held = new Map<string, "created" | "declared">();
  /** Objects a delete of a made resource left in place in this deployment, as `type:id` (recordLeftMade). */
  private readonly leftMade = new Map<string, Props>();
  /** Identities that resources to be created in this deployment look their objects up by, as `type:identity` (recordToCreate). */
  private readonly creating = new Set<string>();
  /** The pin check (one `GET /v1/profile`, memoised), which every request of this context waits for. */
  private pinChecked: (() => Promise<void>) | undefined;
  /** The account behind the master key (one `GET /v1/profile`), once known. */
  private accountRead: Promise<number | undefined> | undefined;
  /** The deployment's write gate (src/kit/gate/), made on first use. */
  private writeGate: WriteGate | undefined;

  /** The clients' contract-drift notices, shown by the CLI's rule (SessionOptions.verbose). */
  private readonly noteDrift: (message: string, info?: { additive?: boolean }) => void;

  constructor(private readonly options: SessionOptions) {
    this.noteDrift = driftNotes((m) => options.warn(m), options.verbose, driftSummary(this.words.command));
  }

  /** The face's words for the kinds' messages. */
  get words(): FaceWords {
    return this.options.words ?? PULUMI_WORDS;
  }

  get credentials(): Credentials {
    return this.options.credentials;
  }

  /**
   * The master account's client, built on first use (WavixClient falls back to the environment).
   * With an account pin, no request of this context (the master's or a sub-account's) is sent
   * before one `GET /v1/profile` has shown that the key belongs to that account.
   */
  masterClient(): WavixClient {
    if (this.master) return this.master;
    const { credentials, missingApiKeyHint } = this.options;
    const apiKeyName = this.apiKeyName();
    // The CLI's network (src/client/node-http-fetch.ts): a third of the built-in fetch's CPU per
    // request, which a whole account's listing pages (wavix:index:Account) spend in every preview.
    const options = { apiKey: credentials.apiKey, baseUrl: credentials.baseUrl, missingApiKeyHint, apiKeyName, onWarning: this.noteDrift, fetch: nodeHttpFetch };
    const pinned = credentials.accountId;
    if (pinned === undefined) return (this.master = new WavixClient(options));
    const plain = new WavixClient(options);
    const check = async () => {
      if (!Number.isSafeInteger(pinned)) {
        throw new WavixApiError(`${this.names().pin} must be the account's id, a whole number of at least 1; nothing was sent`, { method: "GET", path: "/v1/profile", status: 0 });
      }
      await checkAccountPin(plain, pinned, this.names().pin, apiKeyName);
    };
    let checked: Promise<void> | undefined;
    this.pinChecked = () => (checked ??= check());
    this.master = new WavixClient({ ...options, fetch: accountPinnedFetch(nodeHttpFetch, this.pinChecked) });
    return this.master;
  }

  private names(): SessionGateNames {
    return this.options.gateNames ?? PULUMI_GATE_NAMES;
  }

  /** Where the key in use was set: the engine's configuration, else the environment. */
  private apiKeyName(): string {
    const configured = this.options.apiKeyName ?? "wavix:apiKey";
    return this.options.credentials.apiKey !== undefined ? configured : `WAVIX_API_KEY (${configured} is not set)`;
  }


  /**
   * The account the master key belongs to: with a pin, the pinned account once the pin check has
   * passed (no second read); else one `GET /v1/profile` for this context. Undefined when the key
   * may not read the profile (403): the account cannot be named, and callers say so.
   */
  account(): Promise<number | undefined> {
    if (this.accountRead) return this.accountRead;
    const client = this.masterClient();
    const pinned = this.options.credentials.accountId;
    // With a pin, the check every request waits for has read the profile already: no second read.
    if (pinned !== undefined && this.pinChecked) return (this.accountRead = this.pinChecked().then(() => pinned));
    const read = async (): Promise<number | undefined> => {
      try {
        return (await client.getAccountProfile()).id;
      } catch (err) {
        if (err instanceof ForbiddenError) return undefined;
        this.accountRead = undefined; // no answer (the API unreachable) is not a verdict: asked again next time
        throw err;
      }
    };
    return (this.accountRead = read());
  }

  async clientFor(subAccountId: number | undefined): Promise<WavixClient> {
    const m = this.masterClient();
    if (subAccountId === undefined) return m;
    const known = this.subClients.get(subAccountId);
    if (known) return known;
    const sub = await m.getSubAccount(subAccountId);
    const client = m.withApiKey(sub.api_key);
    this.subClients.set(subAccountId, client);
    return client;
  }

  perClient<T>(client: WavixClient, name: string, make: (client: WavixClient) => T): T {
    let byName = this.values.get(client);
    if (!byName) this.values.set(client, (byName = new Map()));
    if (!byName.has(name)) byName.set(name, make(client));
    return byName.get(name) as T;
  }

  /**
   * The engine runs one provider per deployment, and a replacement's delete of the old resource
   * comes at the end of that same deployment: `pulumi up --replace`, `pulumi state taint` and a
   * targeted replace do not consult the provider's Diff, so `deleteBeforeReplace` is never asked
   * and the engine creates the replacement first, then deletes the old resource (pulumi/pulumi
   * pkg/resource/deploy/step_generator.go, the targeted-replace path). Our creates adopt what
   * already exists (a number is never bought, a sub-account is adopted by name, a webhook upserted
   * by event type), so the replacement holds the very object the old resource names (issue #19).
   */
  recordTakenOver(type: string, id: string | number): void {
    this.held.set(`${type}:${id}`, "created");
  }

  /**
   * This covers the replacement an earlier deployment was interrupted in: killed between the
   * create of the replacement and the delete of the old half, the engine keeps the old half in
   * state marked for deletion and deletes it in the next deployment — after the program has
   * registered (and the engine diffed) every resource, in `GenerateDeletes` (pulumi/pulumi
   * pkg/resource/deploy/deployment_executor.go `performPostSteps`). By then the replacement, which
   * holds the same object, has been diffed in this context, so the pending delete is known to be
   * the old half of a replacement and touches nothing.
   */
  recordKept(type: string, id: string | number): void {
    const key = `${type}:${id}`;
    if (!this.held.has(key)) this.held.set(key, "declared");
  }

  keptForReplacement(type: string, id: string | number, what: string, not: "released" | "disabled" | "deleted"): boolean {
    const how = this.held.get(`${type}:${id}`);
    if (how === undefined) return false;
    const holder =
      how === "created"
        ? "its replacement in this deployment holds the same Wavix object"
        : `a resource still declared in this ${this.words.holder} holds the same Wavix object (the old half of a replacement that an interrupted deployment left pending)`;
    this.options.warn(`${what}: not ${not}: ${holder} (id ${id}); only the old resource left the state`);
    return true;
  }

  /**
   * The other half of the targeted replace described at `recordTakenOver`: a resource that replaces
   * with its delete first (`deleteBeforeReplace`, the SIP trunk's default: src/kinds/sip-trunk/pulumi.ts;
   * Terraform's default for `-replace`) has its old half deleted before the replacement's create,
   * in this same context. The engine checks the replacement (no old state) before it runs that
   * delete, so the delete knows from `recordToCreate` that the replacement will look up the same
   * object, and leaves it; when the stack made it, the create that finds it learns it here and
   * records it as made, not adopted (issue #33, item 7).
   */
  recordToCreate(type: string, identity: string): void {
    this.creating.add(`${type}:${identity}`);
  }

  toCreate(type: string, identity: string): boolean {
    return this.creating.has(`${type}:${identity}`);
  }

  recordLeftMade(type: string, id: string | number, stored: Props): void {
    this.leftMade.set(`${type}:${id}`, stored);
  }

  leftMadeInPlace(type: string, id: string | number): Props | undefined {
    const key = `${type}:${id}`;
    const stored = this.leftMade.get(key);
    this.leftMade.delete(key);
    return stored;
  }

  warn(message: string): void {
    this.options.warn(message);
  }

  /** The deployment's write gate: the pin, the limit, the override (`wavix:accountId`, `wavix:maxDestructive`, `wavix:force` on Pulumi). */
  gate(): WriteGate {
    if (this.writeGate) return this.writeGate;
    const { accountId, maxDestructive, force } = this.options.credentials;
    const names = this.names();
    return (this.writeGate = new WriteGate({
      client: this.masterClient(),
      // The pin is checked by the master client before any request (masterClient); the gate compares it again at each write.
      account: () => this.account(),
      pins: accountId !== undefined && Number.isSafeInteger(accountId) ? [{ account: accountId, source: names.pin }] : [],
      limits: maxDestructive !== undefined ? { max_destructive_total: maxDestructive } : {},
      force: force === true,
      onForced: (m) => this.options.warn(m),
      wording: { keyName: this.apiKeyName(), pinHint: names.pinHint, limitName: names.limitName, override: names.override, forget: this.words.forget },
    }));
  }

  writer(client: WavixClient, change: ProviderChange): GatedClient {
    const gate = this.gate();
    gate.admit({ kind: "", key: change.what, what: change.what, effects: change.effects });
    return gate.client(client, { what: change.what, object: objectAccountOf(change.stored) });
  }

  forecast(what: string, effects: readonly DestructiveEffect[]): void {
    this.gate().forecast({ kind: "", key: what, what, effects });
  }

  checkEntry<View extends object>(doc: Props, label: string): EntryCheck<View> {
    return this.options.checkEntry(doc, label) as EntryCheck<View>;
  }
}

/** The account a state recorded for its object (undefined for a create: nothing held yet). */
function objectAccountOf(stored: object | undefined): ObjectAccount {
  if (stored === undefined) return undefined;
  const recorded = (stored as { accountId?: unknown }).accountId;
  return typeof recorded === "number" ? recorded : "unrecorded";
}
