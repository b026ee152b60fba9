/**
 * A provider context for one configuration (docs/ARCHITECTURE.md, "The provider kit"): the
 * credentials, the master client (pinned to the account when `accountId` is set), sub-account
 * clients, per-client values, and the bookkeeping of the Wavix objects this deployment's resources
 * hold. The face serving the engine makes one per configuration and a new one when it changes
 * (src/pulumi/provider-host.ts for the dynamic provider). No engine type in it.
 */
import { WavixApiError, WavixClient, type FetchLike } from "../../client";
import { accountPinnedFetch, checkAccountPin } from "./account-pin";
import type { EntryCheck, ProviderContext } from "./contract";
import type { Props } from "./props";

export interface Credentials {
  apiKey?: string;
  baseUrl?: string;
  /** The account the key must belong to (src/kit/provider/account-pin.ts); NaN when configured but not a positive integer. */
  accountId?: number;
}

export interface SessionOptions {
  readonly credentials: Credentials;
  /** Said when no API key is configured (how to set one, in the engine's terms). */
  readonly missingApiKeyHint: string;
  /** Warnings for the person running the engine. */
  warn(message: string): void;
  /** The desired-state file's checks of one entry (the file loader, injected from above the kinds). */
  checkEntry(doc: Props, label: string): EntryCheck<object>;
}

/**
 * Whether two configurations name the same account, key and base URL (a context can be kept). An
 * account id that is not one (NaN) never equals another: each configuration starts afresh.
 */
export function sameCredentials(a: Credentials, b: Credentials): boolean {
  return a.apiKey === b.apiKey && a.baseUrl === b.baseUrl && a.accountId === b.accountId;
}

/** `wavix:accountId` as a number; NaN (never equal to an account) when it is not a positive integer. */
export function accountIdOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return /^\s*[1-9]\d{0,15}\s*$/.test(v) ? Number(v) : NaN;
}

/** The fetch a client uses when given none. */
function plainFetch(): FetchLike {
  return (input, init) => globalThis.fetch(input, init);
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

  constructor(private readonly options: SessionOptions) {}

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
    const { credentials, missingApiKeyHint, warn } = this.options;
    const options = { apiKey: credentials.apiKey, baseUrl: credentials.baseUrl, missingApiKeyHint, onWarning: warn };
    const pinned = credentials.accountId;
    if (pinned === undefined) return (this.master = new WavixClient(options));
    const plain = new WavixClient(options);
    const check = async () => {
      if (!Number.isSafeInteger(pinned)) {
        throw new WavixApiError("wavix:accountId must be the account's id, a whole number of at least 1; nothing was sent", { method: "GET", path: "/v1/profile", status: 0 });
      }
      await checkAccountPin(plain, pinned, "wavix:accountId");
    };
    this.master = new WavixClient({ ...options, fetch: accountPinnedFetch(plainFetch(), check) });
    return this.master;
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
        : "a resource still declared in this stack holds the same Wavix object (the old half of a replacement that an interrupted deployment left pending)";
    this.options.warn(`${what}: not ${not}: ${holder} (id ${id}); only the old resource left the state`);
    return true;
  }

  warn(message: string): void {
    this.options.warn(message);
  }

  checkEntry<View extends object>(doc: Props, label: string): EntryCheck<View> {
    return this.options.checkEntry(doc, label) as EntryCheck<View>;
  }
}
