/**
 * Sub-accounts: identity (exact name, or a pinned id), listing, diff of managed keys, writes.
 *
 * The API has no delete: "deleting" a sub-account disables it (docs/CONTRACT.md part 4). PUT replaces the
 * whole record and reverts omitted fields to defaults, so every PUT sends the merge of the current
 * record and the desired fields; an unset endpoint is omitted, never sent as `""`.
 */
import type { GatedClient } from "../../kit/gate";
import { matchByIdentity, sameName } from "../../kit/identity";
import { byNumericId, settleTwins, type TwinRemoved } from "../../kit/twins";
import type { WavixClient } from "../../client";
import { isWavixApiError, readAll } from "../../client";
import type { SubAccount, SubAccountReplace } from "../../client/types";
import type { DesiredSubAccount } from "./types";
import type { FieldDiff } from "../../kit/change/diff";
import { notFoundToUndefined } from "../../client/not-found";
import { sameUrl } from "../../util/url";

/** Desired settings of one sub-account: a field that is undefined is not managed. */
export interface SubAccountSettings {
  name: string;
  id?: number;
  status?: "enabled" | "disabled";
  sms_endpoint?: string;
  dlr_endpoint?: string;
}

export const SUB_ACCOUNT_FIELDS = ["status", "default_destinations.sms_endpoint", "default_destinations.dlr_endpoint"] as const;

export function subAccountSettingsOf(d: DesiredSubAccount): SubAccountSettings {
  const s: SubAccountSettings = { name: d.name };
  if (d.id !== undefined) s.id = d.id;
  if (d.status !== undefined) s.status = d.status;
  if (d.default_destinations?.sms_endpoint !== undefined) s.sms_endpoint = d.default_destinations.sms_endpoint;
  if (d.default_destinations?.dlr_endpoint !== undefined) s.dlr_endpoint = d.default_destinations.dlr_endpoint;
  return s;
}

/** An endpoint as read: "" (or blank), null and absent all mean unset. */
export function endpointOrNull(v: string | null | undefined): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

export function diffSubAccount(desired: SubAccountSettings, current: SubAccount): FieldDiff[] {
  const out: FieldDiff[] = [];
  // Matched by a pinned id, a different name in the file is a rename (by name, names always match).
  if (desired.id !== undefined && desired.name !== current.name) {
    out.push({ path: "name", before: current.name, after: desired.name });
  }
  if (desired.status !== undefined && desired.status !== current.status) {
    out.push({ path: "status", before: current.status, after: desired.status });
  }
  const cur = current.default_destinations ?? {};
  if (desired.sms_endpoint !== undefined && !sameUrl(desired.sms_endpoint, endpointOrNull(cur.sms_endpoint))) {
    out.push({ path: "default_destinations.sms_endpoint", before: endpointOrNull(cur.sms_endpoint), after: desired.sms_endpoint });
  }
  if (desired.dlr_endpoint !== undefined && !sameUrl(desired.dlr_endpoint, endpointOrNull(cur.dlr_endpoint))) {
    out.push({ path: "default_destinations.dlr_endpoint", before: endpointOrNull(cur.dlr_endpoint), after: desired.dlr_endpoint });
  }
  return out;
}

/** The diff of a sub-account that does not exist yet. */
export function createDiff(desired: SubAccountSettings): FieldDiff[] {
  const out: FieldDiff[] = [{ path: "name", before: null, after: desired.name }];
  out.push({ path: "status", before: null, after: desired.status ?? "enabled" });
  if (desired.sms_endpoint !== undefined) out.push({ path: "default_destinations.sms_endpoint", before: null, after: desired.sms_endpoint });
  if (desired.dlr_endpoint !== undefined) out.push({ path: "default_destinations.dlr_endpoint", before: null, after: desired.dlr_endpoint });
  out.push({ path: "api_key", before: null, after: "(sensitive)", sensitive: true });
  return out;
}

/** PUT body: the current record merged with the desired fields (docs/CONTRACT.md part 4). */
export function mergedReplace(current: SubAccount, desired: Partial<SubAccountSettings>): SubAccountReplace {
  const sms = desired.sms_endpoint ?? endpointOrNull(current.default_destinations?.sms_endpoint);
  const dlr = desired.dlr_endpoint ?? endpointOrNull(current.default_destinations?.dlr_endpoint);
  const body: SubAccountReplace = { name: desired.name ?? current.name, status: desired.status ?? current.status };
  const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
  if (sms) dd.sms_endpoint = sms;
  if (dlr) dd.dlr_endpoint = dlr;
  if (Object.keys(dd).length > 0) body.default_destinations = dd;
  return body;
}

/**
 * Every sub-account, proved complete (client pagination): an inconsistent listing is an
 * `IncompleteListingError`, so nothing is created, pruned or adopted from a partial view.
 */
export async function listAllSubAccounts(client: WavixClient): Promise<SubAccount[]> {
  return readAll(() => client.iterateSubAccountPages({ perPage: 100 }));
}

/** Listings in flight, per client: reads that start together (an export's kinds) share one. */
const listingsInFlight = new WeakMap<WavixClient, Promise<SubAccount[]>>();

/**
 * {@link listAllSubAccounts}, shared by the callers that ask while one is in flight (an export
 * reads the list for the sub-accounts and for their numbers at the same moment). Never cached
 * past its answer.
 */
export function sharedSubAccountListing(client: WavixClient): Promise<SubAccount[]> {
  let p = listingsInFlight.get(client);
  if (!p) {
    p = listAllSubAccounts(client).finally(() => listingsInFlight.delete(client));
    listingsInFlight.set(client, p);
  }
  return p;
}

/** Thrown when a name matches more than one sub-account and the file pins none. */
export class AmbiguousSubAccountError extends Error {
  constructor(
    readonly subAccountName: string,
    readonly ids: number[],
  ) {
    super(
      `sub-account "${subAccountName}" matches ${ids.length} existing sub-accounts (ids ${ids.join(", ")}): ` +
        `add \`id:\` to the entry to pin one`,
    );
    this.name = "AmbiguousSubAccountError";
  }
}

/** Find the existing sub-account for a desired one: by pinned id, else by exact name. */
export function matchSubAccount(desired: SubAccountSettings, existing: readonly SubAccount[]): SubAccount | undefined {
  return matchByIdentity(desired, desired.name, existing, (s) => s.name, (ids) => new AmbiguousSubAccountError(desired.name, ids));
}

/** Why a pinned sub-account cannot be managed: its id names none. One wording for the CLI and Pulumi. */
export function pinnedSubAccountMissingMessage(desired: SubAccountSettings): string {
  return `sub-account id ${desired.id} (pinned for "${desired.name}") does not exist`;
}

/**
 * Make one declared sub-account exist as declared, for a caller that has not listed the account
 * (the Pulumi provider's create): a pinned id must exist; otherwise one existing by exact name is
 * adopted, never duplicated (docs/CONTRACT.md part 4, "Adoption"), and only a missing one is created.
 * A twin made by someone else at the same moment is an error naming both ids. `adopted`: it
 * existed (pinned, or found by name) rather than being made by this call.
 */
export async function ensureSubAccount(client: GatedClient, desired: SubAccountSettings): Promise<{ account: SubAccount; adopted: boolean; twin?: TwinRemoved }> {
  if (desired.id !== undefined) {
    const account = await notFoundToUndefined(client.getSubAccount(desired.id));
    if (!account) throw new Error(pinnedSubAccountMissingMessage(desired));
    return { account: diffSubAccount(desired, account).length > 0 ? await updateSubAccount(client, account, desired) : account, adopted: true };
  }
  const { account, adopted, twin } = await createSubAccount(client, desired);
  if (!adopted) {
    const problem = await createdCheck(client, desired.name, account.id, await listingAfterCreate(client, desired.name, account.id));
    if (problem) throw new Error(problem);
  }
  return { account, adopted, ...(twin ? { twin } : {}) };
}

/**
 * The listing a created sub-account is checked against: when this run's `keptId` is the oldest of
 * its name but a newer twin shows, the run that made the twin is removing it (disabling and renaming
 * it, src/kit/twins.ts), so the name is read again after each pause until it names one sub-account
 * (or the pauses run out, and the twin is reported as before).
 */
export async function listingAfterCreate(
  client: WavixClient,
  name: string,
  keptId: number,
  pausesMs: readonly number[] = [250, 500, 1000, 2000],
): Promise<SubAccount[]> {
  let all = await listAllSubAccounts(client);
  for (const ms of pausesMs) {
    const named = byNumericId(all.filter((s) => sameName(s.name, name)));
    if (named.length <= 1 || named[0].id !== keptId) break;
    await pause(ms);
    all = await listAllSubAccounts(client);
  }
  return all;
}

/**
 * After a run created (or adopted at create) `name`: undefined when exactly one sub-account has it,
 * else what went wrong, with every id (docs/CONTRACT.md part 4: sub-accounts cannot be deleted, so a twin
 * must be reported loudly for a person to fix).
 */
export function twinMessage(name: string, all: readonly SubAccount[]): string | undefined {
  const ids = all.filter((s) => sameName(s.name, name)).map((s) => s.id);
  if (ids.length === 1) return undefined;
  if (ids.length === 0) return `sub-account "${name}" was created but is not in the listing read after the run`;
  return (
    `sub-account "${name}" now exists ${ids.length} times (ids ${ids.join(", ")}): another run or a person created it ` +
    `at the same moment. Sub-accounts cannot be deleted: disable the extra one(s) and pin the one to keep with \`id:\``
  );
}

/**
 * After this run created sub-account `createdId` for `name`, the check that a re-run will find it
 * (issue #22): recognised by its id, not its name. A server that keeps the name otherwise (Unicode
 * normalisation, truncation, escaping) or a listing that is consistent but stops early would make
 * every later run create it again — and sub-accounts cannot be deleted. Undefined when all is well;
 * else the message, which says what a person must do (a re-run cannot help).
 */
export async function createdCheck(client: WavixClient, name: string, createdId: number, all: readonly SubAccount[]): Promise<string | undefined> {
  const named = all.filter((s) => sameName(s.name, name));
  if (named.length > 1 || (named.length === 1 && named[0].id !== createdId)) return twinMessage(name, all);
  if (named.length === 1) return undefined;
  const listed = all.find((s) => s.id === createdId);
  const found = listed ?? (await notFoundToUndefined(client.getSubAccount(createdId)));
  const pin = `Sub-accounts cannot be deleted, and a re-run would create another: pin this one with \`id: ${createdId}\` in the file`;
  if (found === undefined) return `sub-account "${name}" was created (id ${createdId}), but the API no longer finds it; check the account before re-running`;
  if (!sameName(found.name, name)) {
    return `sub-account "${name}" was created (id ${createdId}), but the API keeps its name as ${JSON.stringify(found.name)}, so it will never match by name. ${pin} and write its name as the API keeps it`;
  }
  return `sub-account "${name}" was created (id ${createdId}), but the listing read after the run does not show it (the listing ended early). ${pin}`;
}

/** Options of {@link createSubAccount}. */
export interface CreateSubAccountOptions {
  /** POSTs sent at most. @default 3 */
  attempts?: number;
  /**
   * Pauses before the successive re-reads that follow a create lost without any answer (timeout,
   * dropped connection): the request may still be running on the server and commit after the client
   * gave up, so one immediate re-read is not enough to rule it out. A 5xx is an answer (the server is
   * done), so it gets one immediate re-read only. Regression: test/reliability/fault-matrix.test.ts
   * "timeout on POST create; the server commits late" made a duplicate with a single re-read.
   * @default [250, 500, 1000]
   */
  settleDelaysMs?: readonly number[];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What {@link createSubAccount} did. */
export interface CreatedSubAccount {
  account: SubAccount;
  /** A POST's outcome was unknown and the re-read found it had committed. */
  reconciled: boolean;
  /** It already existed when read by name right before the POST (another run, a person), or another run made it at the same moment: adopted. */
  adopted: boolean;
  /** This run's sub-account was a twin of an older one, and was disabled and renamed (src/kit/twins.ts). */
  twin?: TwinRemoved;
}

/** The name a twin this run made is given when it is disabled: it no longer names the sub-account declared. */
export function duplicateName(name: string, id: number): string {
  return `${name} (duplicate ${id})`;
}

/**
 * Create a sub-account, never twice (docs/CONTRACT.md parts 4 and 8). Right before the POST the account is
 * read by name (a complete listing): one that exists by now is adopted and made as declared instead.
 * When the POST's outcome is unknown (timeout, dropped connection, 5xx), the name is read again
 * before any retry: if it now exists, that one is adopted; if not, the POST is sent again (bounded).
 */
export async function createSubAccount(
  client: GatedClient,
  desired: SubAccountSettings,
  options: CreateSubAccountOptions = {},
): Promise<CreatedSubAccount> {
  const attempts = options.attempts ?? 3;
  const settle = options.settleDelaysMs ?? [250, 500, 1000];
  const existing = matchSubAccount({ name: desired.name }, await listAllSubAccounts(client));
  if (existing !== undefined) {
    const account = diffSubAccount(desired, existing).length > 0 ? await updateSubAccount(client, existing, desired) : existing;
    return { account, reconciled: false, adopted: true };
  }
  const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
  if (desired.sms_endpoint) dd.sms_endpoint = desired.sms_endpoint;
  if (desired.dlr_endpoint) dd.dlr_endpoint = desired.dlr_endpoint;
  let reconciled = false;
  let created: SubAccount | undefined;
  for (let attempt = 1; created === undefined; attempt++) {
    try {
      created = await client.createSubAccount({
        name: desired.name,
        ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
      });
    } catch (err: unknown) {
      if (!(isWavixApiError(err) && err.outcomeUnknown)) throw err;
      // No answer at all (status 0): the POST may still commit; re-read a few times before resending.
      const delays = err.status === 0 ? [0, ...settle] : [0];
      for (const ms of delays) {
        if (ms > 0) await pause(ms);
        const now = (await listAllSubAccounts(client)).filter((s) => sameName(s.name, desired.name));
        if (now.length > 0) {
          created = now[0];
          reconciled = true;
          break;
        }
      }
      // It did not happen: send it again, within the bound.
      if (created === undefined && attempt >= attempts) throw err;
    }
  }
  // The twin check (src/kit/twins.ts): another run made this name at the same moment and its
  // sub-account is older (lower id): ours, which the API cannot delete, is disabled and renamed so the
  // name names one sub-account again, and the older one is adopted and made as declared.
  const settled = await settleTwins<SubAccount>({
    made: created,
    idOf: (s) => s.id,
    holders: async () => byNumericId((await listAllSubAccounts(client)).filter((s) => sameName(s.name, desired.name))),
    removeOwn: async (own) => {
      const name = duplicateName(desired.name, own.id);
      await updateSubAccount(client, own, { name, status: "disabled" });
      return `disabled and renamed ${JSON.stringify(name)}`;
    },
  });
  if (settled.twin !== undefined) {
    const kept = settled.kept;
    const account = diffSubAccount(desired, kept).length > 0 ? await updateSubAccount(client, kept, desired) : kept;
    return { account, reconciled, adopted: true, twin: settled.twin };
  }
  // POST takes no status: a sub-account declared disabled is disabled right after; a reconciled one
  // is made as declared from a fresh read.
  if ((desired.status === "disabled" && created.status !== "disabled") || (reconciled && diffSubAccount(desired, created).length > 0)) {
    created = await updateSubAccount(client, created, desired);
  }
  return { account: created, reconciled, adopted: false };
}

/** The fields a sub-account PUT replaces: omitted, they revert to defaults (docs/CONTRACT.md part 2). */
const PUT_RESETS = ["name", "status", "default_destinations"] as const;

/**
 * Refuses a sub-account PUT whose base record is missing a field the PUT would reset (issue #13: a
 * response without `status` re-enabled a disabled account and wiped its endpoints). No write is made.
 */
export class UnsafeSubAccountWriteError extends Error {
  constructor(
    readonly subAccountId: number,
    detail: string,
  ) {
    super(`sub-account ${subAccountId}: ${detail}; not written`);
    this.name = "UnsafeSubAccountWriteError";
  }
}

function checkWritable(record: SubAccount, id: number): void {
  const raw = record as unknown as Record<string, unknown>;
  const missing = PUT_RESETS.filter((f) => raw[f] === undefined);
  if (missing.length > 0) {
    throw new UnsafeSubAccountWriteError(id, `the API's record lacks ${missing.join(", ")}, which a PUT would reset to defaults`);
  }
  if (raw.status !== "enabled" && raw.status !== "disabled") {
    throw new UnsafeSubAccountWriteError(id, `the API's record has status ${JSON.stringify(raw.status)}, neither enabled nor disabled`);
  }
  const dd = raw.default_destinations;
  if (dd !== null && (typeof dd !== "object" || Array.isArray(dd))) {
    throw new UnsafeSubAccountWriteError(id, "the API's record has default_destinations that is not an object");
  }
}

/**
 * Make the managed fields true with one PUT (docs/CONTRACT.md part 4): the sub-account is read again right
 * before (the PUT replaces, so it must carry what others set since `current` was read: the plan may
 * be minutes old), the desired fields are merged onto that fresh record, and it is read back after.
 * Nothing is written when the fresh record already shows the desired fields, when it lacks a field
 * the PUT would reset, or when it was renamed since `current` was read (its identity by name changed).
 */
export interface UpdateSubAccountOptions {
  /**
   * `current` was read by the caller just now (the Pulumi provider reads the record by id before it
   * decides anything), so it is the fresh read and is not read again. The CLI's records come from a
   * plan that may be minutes old and are always read again.
   * @default false
   */
  readonly currentIsFresh?: boolean;
}

export async function updateSubAccount(
  client: GatedClient,
  current: SubAccount,
  desired: Partial<SubAccountSettings>,
  options: UpdateSubAccountOptions = {},
): Promise<SubAccount> {
  const fresh = options.currentIsFresh ? current : await notFoundToUndefined(client.getSubAccount(current.id));
  if (fresh === undefined) throw new UnsafeSubAccountWriteError(current.id, `("${current.name}") no longer exists`);
  checkWritable(fresh, current.id);
  if (desired.id === undefined && desired.name !== undefined && fresh.name !== current.name) {
    throw new UnsafeSubAccountWriteError(
      current.id,
      `was renamed from "${current.name}" to "${fresh.name}" since it was read; re-run plan`,
    );
  }
  const body = mergedReplace(fresh, desired);
  if (sameRecord(body, fresh)) return fresh;
  await client.replaceSubAccount(fresh.id, body);
  const back = await client.getSubAccount(fresh.id);
  if (!sameRecord(body, back)) {
    throw new Error(`sub-account ${fresh.id} ("${body.name}"): written but read back different`);
  }
  return back;
}

/** Does the record hold what the PUT body says (name, status, endpoints; unset = null)? */
function sameRecord(body: SubAccountReplace, record: SubAccount): boolean {
  const dd = record.default_destinations ?? {};
  return (
    body.name === record.name &&
    (body.status ?? "enabled") === record.status &&
    sameUrl(endpointOrNull(body.default_destinations?.sms_endpoint), endpointOrNull(dd.sms_endpoint)) &&
    sameUrl(endpointOrNull(body.default_destinations?.dlr_endpoint), endpointOrNull(dd.dlr_endpoint))
  );
}

/** The API has no delete: disabling is the closest (docs/CONTRACT.md part 4). Written from a fresh read. */
export async function disableSubAccount(client: GatedClient, current: SubAccount, options: UpdateSubAccountOptions = {}): Promise<SubAccount> {
  return updateSubAccount(client, current, { status: "disabled" }, options);
}
