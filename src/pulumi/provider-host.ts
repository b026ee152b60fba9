/**
 * What every kind's dynamic provider shares inside the Pulumi dynamic-provider host (the providers
 * themselves are in src/kinds/<kind>/provider.ts; `provider-impl.ts` exports them by type name).
 * Credentials come from `configure` (stack config `wavix:apiKey`, `wavix:baseUrl`) or the
 * environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`); the client is built lazily, once per host.
 * Validation reuses the desired-state file's own checks (`parseDesiredState`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { WavixApiError, WavixClient, type FetchLike } from "../client";
import { accountPinnedFetch, checkAccountPin } from "../plan/account";
import { warnEngine } from "./engine-log";
import { parseDesiredState, type LoadResult } from "../config";
import type { ConfigProblem } from "../config/types";
import { NumberReader } from "../kinds/number/reader";

/** What the engine sends for a value not known during preview (`@pulumi/pulumi` runtime/rpc). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;

// ---- credentials and the client ----------------------------------------------------------------

interface Credentials {
  apiKey?: string;
  baseUrl?: string;
  /** `wavix:accountId`: the account the key must belong to (src/plan/account.ts). */
  accountId?: number;
}

let credentials: Credentials = {};
let master: WavixClient | undefined;
/** Per host process: clients holding sub-account keys (memory only, never state). */
let subClients = new Map<number, WavixClient>();
/** Per client: reads of many numbers cost pages, not one GET each (docs/CONTRACT.md part 8). */
let readers = new WeakMap<WavixClient, NumberReader>();
/**
 * Wavix objects that a resource of this deployment holds, as `type:id`: taken on (adopted or made)
 * by a create, or kept by a declared resource whose diff replaces nothing.
 */
let held = new Map<string, "created" | "declared">();

/**
 * Stores the credentials of the stack config, synchronously (the frozen loader of `shim.ts` does
 * not wait). The engine sends the whole stack config with full keys (`wavix:apiKey`); some engines
 * nest provider config as `wavix:config:apiKey`, so both are read. Empty values count as unset, so
 * the environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`) applies.
 */
export function applyConfig(req: pulumi.dynamic.ConfigureRequest): void {
  const get = (k: string): string | undefined => {
    const v = req.config.get(`wavix:${k}`) ?? req.config.get(`wavix:config:${k}`);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  };
  const next: Credentials = { apiKey: get("apiKey"), baseUrl: get("baseUrl"), accountId: accountIdOf(get("accountId")) };
  if (next.apiKey !== credentials.apiKey || next.baseUrl !== credentials.baseUrl || next.accountId !== credentials.accountId) {
    credentials = next;
    master = undefined;
    subClients = new Map();
    readers = new WeakMap();
    held = new Map();
  }
}

/** The provider's `configure` (state written before the version-1 loader calls it directly). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  applyConfig(req);
}

/** Under Pulumi, stack config is the documented place for the key (docs/CONTRACT.md part 6). */
export const MISSING_KEY_HINT = "set it with `pulumi config set --secret wavix:apiKey <KEY>` (or WAVIX_API_KEY)";

/** `wavix:accountId` as a number; NaN (never equal to an account) when it is not a positive integer. */
function accountIdOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return /^\s*[1-9]\d{0,15}\s*$/.test(v) ? Number(v) : NaN;
}

/**
 * The master account's client, built on first use (WavixClient falls back to the environment).
 * With `wavix:accountId`, no request of this host (the master's or a sub-account's) is sent before
 * one `GET /v1/profile` has shown that the key belongs to that account (src/plan/account.ts).
 */
export function masterClient(): WavixClient {
  if (master) return master;
  const options = { apiKey: credentials.apiKey, baseUrl: credentials.baseUrl, missingApiKeyHint: MISSING_KEY_HINT, onWarning: warnEngine };
  const pinned = credentials.accountId;
  if (pinned === undefined) return (master = new WavixClient(options));
  const plain = new WavixClient(options);
  const check = async () => {
    if (!Number.isSafeInteger(pinned)) {
      throw new WavixApiError("wavix:accountId must be the account's id, a whole number of at least 1; nothing was sent", { method: "GET", path: "/v1/profile", status: 0 });
    }
    await checkAccountPin(plain, pinned, "wavix:accountId");
  };
  master = new WavixClient({ ...options, fetch: accountPinnedFetch(plainFetch(), check) });
  return master;
}

/** The fetch a client uses when given none. */
function plainFetch(): FetchLike {
  return (input, init) => globalThis.fetch(input, init);
}

/**
 * A number that belongs to a sub-account is managed with that sub-account's own key (seed 5.11),
 * fetched with the master key at run time and never stored.
 */
export async function clientFor(subAccountId: number | undefined): Promise<WavixClient> {
  const m = masterClient();
  if (subAccountId === undefined) return m;
  const known = subClients.get(subAccountId);
  if (known) return known;
  const sub = await m.getSubAccount(subAccountId);
  const client = m.withApiKey(sub.api_key);
  subClients.set(subAccountId, client);
  return client;
}

export function readerFor(client: WavixClient): NumberReader {
  let r = readers.get(client);
  if (!r) readers.set(client, (r = new NumberReader(client)));
  return r;
}

// ---- replacements that adopt the same Wavix object (issue #19) --------------------------------

/**
 * Records that a create in this deployment now holds the Wavix object `id` of kind `type`. The
 * engine runs one dynamic-provider host per deployment, and a replacement's delete of the old
 * resource comes at the end of that same deployment: `pulumi up --replace`, `pulumi state taint`
 * and a targeted replace do not consult the provider's Diff, so `deleteBeforeReplace` is never
 * asked and the engine creates the replacement first, then deletes the old resource
 * (pulumi/pulumi pkg/resource/deploy/step_generator.go, the targeted-replace path). Our creates
 * adopt what already exists (a number is never bought, a sub-account is adopted by name, a webhook
 * upserted by event type), so the replacement holds the very object the old resource names.
 */
export function recordTakenOver(type: string, id: string | number): void {
  held.set(`${type}:${id}`, "created");
}

/**
 * Records that a declared resource keeps the Wavix object `id` (its diff replaced nothing). This
 * covers the replacement an earlier deployment was interrupted in: killed between the create of
 * the replacement and the delete of the old half, the engine keeps the old half in state marked
 * for deletion and deletes it in the next deployment — after the program has registered (and the
 * engine diffed) every resource, in `GenerateDeletes` (pulumi/pulumi
 * pkg/resource/deploy/deployment_executor.go `performPostSteps`). By then the replacement, which
 * holds the same object, has been diffed in this host, so the pending delete is known to be the old
 * half of a replacement and touches nothing.
 */
export function recordKept(type: string, id: string | number): void {
  const key = `${type}:${id}`;
  if (!held.has(key)) held.set(key, "declared");
}

/**
 * True when a resource of this deployment holds `id`: the delete of the old half of such a
 * replacement (or of a second state entry naming the same object) must not release, disable or
 * delete it. Says so as an engine warning.
 */
export function keptForReplacement(type: string, id: string | number, what: string): boolean {
  const how = held.get(`${type}:${id}`);
  if (how === undefined) return false;
  const not = type === "PhoneNumber" ? "released" : type === "SubAccount" ? "disabled" : "deleted";
  const holder =
    how === "created"
      ? "its replacement in this deployment holds the same Wavix object"
      : "a resource still declared in this stack holds the same Wavix object (the old half of a replacement that an interrupted deployment left pending)";
  warnEngine(`${what}: not ${not}: ${holder} (id ${id}); only the old resource left the state`);
  return true;
}

/**
 * The error when an id stored in state now names another Wavix object (the stack was pointed at
 * another account or base URL, or the object was renamed or reused): nothing is written.
 */
export function identityMismatch(type: string, id: string, stored: string, found: string): Error {
  return new Error(
    `${type} id ${id} now names ${found}, not ${stored}: the stack may point at another account or base URL (wavix:baseUrl, wavix:apiKey), ` +
      `or it changed outside Pulumi; refusing to read or write it. Check the stack's config; if the change is intended, \`pulumi state delete\` the resource and run \`pulumi up\` to adopt it again`,
  );
}

// ---- small generic helpers -------------------------------------------------------------------

/** Drops keys whose value is undefined: the host's Struct conversion refuses undefined. */
export function compact<T extends object>(o: T): T {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

export function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** Removes values not known yet (preview), so the known rest can still be validated. */
export function withoutUnknowns(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (!hasUnknown(v)) out[k] = v;
  return out;
}

/** The values not known yet (preview), kept as the engine sent them. */
export function unknownsOf(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (hasUnknown(v)) out[k] = v;
  return out;
}

export const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

export function snakeToCamel(s: string): string {
  return s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * A problem of the file's checks as a Pulumi check failure: the path inside the one entry,
 * with the file's snake_case names in their camelCase argument spelling.
 */
export function failureOf(p: ConfigProblem, entryPrefix: RegExp, rename: (path: string) => string = snakeToCamel): pulumi.dynamic.CheckFailure {
  const path = p.path.replace(entryPrefix, "");
  const reason = p.message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, snakeToCamel);
  return { property: rename(path), reason };
}

export function unknownKeyFailures(news: Props, allowed: readonly string[]): pulumi.dynamic.CheckFailure[] {
  return Object.keys(news)
    .filter((k) => k !== "__provider" && !allowed.includes(k))
    .map((k) => ({ property: k, reason: `unknown property ${JSON.stringify(k)} (expected one of ${allowed.join(", ")})` }));
}

/** Runs one entry through the desired-state file's own checks (docs/CONTRACT.md part 3). */
export function validateEntry(doc: Props, label: string): LoadResult {
  // JSON is YAML: the same parser, schema and semantic checks as the file, one rule set.
  return parseDesiredState(JSON.stringify({ version: 1, ...doc }), label);
}
