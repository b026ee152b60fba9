/**
 * Sub-accounts: identity (exact name, or a pinned id), listing, diff of managed keys, writes.
 *
 * The API has no delete: "deleting" a sub-account disables it (PRODUCT.md part 4). PUT replaces the
 * whole record and reverts omitted fields to defaults, so every PUT sends the merge of the current
 * record and the desired fields; an unset endpoint is omitted, never sent as `""`.
 */
import type { WavixClient } from "../client";
import { isWavixApiError } from "../client";
import type { SubAccount, SubAccountReplace } from "../client/types";
import type { DesiredSubAccount } from "../config/types";
import type { FieldDiff } from "./diff";
import { notFoundToUndefined } from "./not-found";

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
  if (desired.sms_endpoint !== undefined && desired.sms_endpoint !== endpointOrNull(cur.sms_endpoint)) {
    out.push({ path: "default_destinations.sms_endpoint", before: endpointOrNull(cur.sms_endpoint), after: desired.sms_endpoint });
  }
  if (desired.dlr_endpoint !== undefined && desired.dlr_endpoint !== endpointOrNull(cur.dlr_endpoint)) {
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

/** PUT body: the current record merged with the desired fields (PRODUCT.md part 4). */
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

export async function listAllSubAccounts(client: WavixClient): Promise<SubAccount[]> {
  const all: SubAccount[] = [];
  for await (const page of client.iterateSubAccountPages({ perPage: 100 })) all.push(...page.items);
  return all;
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
  if (desired.id !== undefined) return existing.find((s) => s.id === desired.id);
  const hits = existing.filter((s) => s.name === desired.name);
  if (hits.length > 1) throw new AmbiguousSubAccountError(desired.name, hits.map((s) => s.id));
  return hits[0];
}

/** Why a pinned sub-account cannot be managed: its id names none. One wording for the CLI and Pulumi. */
export function pinnedSubAccountMissingMessage(desired: SubAccountSettings): string {
  return `sub-account id ${desired.id} (pinned for "${desired.name}") does not exist`;
}

/**
 * Make one declared sub-account exist as declared, for a caller that has not listed the account
 * (the Pulumi provider's create): a pinned id must exist; otherwise one existing by exact name is
 * adopted, never duplicated (PRODUCT.md part 4, "Adoption"), and only a missing one is created.
 */
export async function ensureSubAccount(client: WavixClient, desired: SubAccountSettings): Promise<SubAccount> {
  let account: SubAccount | undefined;
  if (desired.id !== undefined) {
    account = await notFoundToUndefined(client.getSubAccount(desired.id));
    if (!account) throw new Error(pinnedSubAccountMissingMessage(desired));
  } else {
    account = matchSubAccount(desired, await listAllSubAccounts(client));
  }
  if (account === undefined) return (await createSubAccount(client, desired)).account;
  return diffSubAccount(desired, account).length > 0 ? updateSubAccount(client, account, desired) : account;
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

/**
 * Create a sub-account, never twice. When the create's outcome is unknown (timeout, dropped
 * connection, 5xx), list by name before any retry: if it now exists, that one is adopted
 * (PRODUCT.md part 8, Reliability).
 */
export async function createSubAccount(
  client: WavixClient,
  desired: SubAccountSettings,
  options: CreateSubAccountOptions = {},
): Promise<{ account: SubAccount; reconciled: boolean }> {
  const attempts = options.attempts ?? 3;
  const settle = options.settleDelaysMs ?? [250, 500, 1000];
  const before = new Set((await listAllSubAccounts(client)).filter((s) => s.name === desired.name).map((s) => s.id));
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
      if (!(isWavixApiError(err) && err.outcomeUnknown) || attempt >= attempts) throw err;
      // No answer at all (status 0): the POST may still commit; re-read a few times before resending.
      const delays = err.status === 0 ? [0, ...settle] : [0];
      for (const ms of delays) {
        if (ms > 0) await pause(ms);
        const now = (await listAllSubAccounts(client)).filter((s) => s.name === desired.name && !before.has(s.id));
        if (now.length > 0) {
          created = now[0];
          reconciled = true;
          break;
        }
      }
    }
  }
  // POST takes no status: a sub-account declared disabled is disabled right after.
  if (desired.status === "disabled" && created.status !== "disabled") {
    created = await client.replaceSubAccount(created.id, mergedReplace(created, { status: "disabled" }));
  } else if (reconciled && diffSubAccount(desired, created).length > 0) {
    created = await client.replaceSubAccount(created.id, mergedReplace(created, desired));
  }
  return { account: created, reconciled };
}

/** Make the managed fields true with one PUT of the merged record. */
export async function updateSubAccount(client: WavixClient, current: SubAccount, desired: Partial<SubAccountSettings>): Promise<SubAccount> {
  return client.replaceSubAccount(current.id, mergedReplace(current, desired));
}

/** The API has no delete: disabling is the closest (PRODUCT.md part 4). */
export async function disableSubAccount(client: WavixClient, current: SubAccount): Promise<SubAccount> {
  if (current.status === "disabled") return current;
  return client.replaceSubAccount(current.id, mergedReplace(current, { status: "disabled" }));
}
