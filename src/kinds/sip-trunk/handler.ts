/**
 * SIP trunks: identity (label, or a pinned id), listing, diff of managed keys, writes. Shared by the
 * CLI engine and the Pulumi `SipTrunk` provider.
 *
 * The password is write-only (official: sent, never returned): the file names the environment
 * variable holding it (`password_env`), it is sent on create, and again only when asked (rotation);
 * a plan says it cannot be compared. `access_token` is the server's secret: never shown or exported.
 * PUT replaces the whole record (omitted fields revert to defaults), so every PUT sends the merge of
 * a fresh read and the desired fields.
 */
import { matchByIdentity } from "../../kit/identity";
import Decimal from "decimal.js";
import type { WavixClient } from "../../client";
import { readAll } from "../../client";
import type { SipTrunk, SipTrunkSummary, SipTrunkWrite } from "../../client/types";
import type { DesiredSipTrunk } from "./types";
import type { FieldDiff } from "../../kit/change/diff";
import { notFoundToUndefined } from "../../client/not-found";
import { TRUNK_SETTING_KEYS, type TrunkSettingKey } from "./file";

/** Desired settings of one trunk: a field that is undefined is not managed. */
export type TrunkSettings = Omit<DesiredSipTrunk, "path" | "pos">;

export function trunkSettingsOf(d: DesiredSipTrunk): TrunkSettings {
  const { path: _path, pos: _pos, ...rest } = d;
  return rest;
}

/** Trunks per listing page (the API's default is 25). */
export const TRUNKS_PER_PAGE = 100;

/** Every trunk of the account (summaries), proved complete (client pagination). */
export function listAllTrunks(client: WavixClient): Promise<SipTrunkSummary[]> {
  return readAll(() => client.iterateTrunkPages({ perPage: TRUNKS_PER_PAGE }));
}

/** Thrown when a label matches more than one trunk and the file pins none. */
export class AmbiguousTrunkError extends Error {
  constructor(label: string, ids: number[]) {
    super(`SIP trunk label "${label}" matches ${ids.length} existing trunks (ids ${ids.join(", ")}): add \`id:\` to the entry to pin one`);
    this.name = "AmbiguousTrunkError";
  }
}

/** The existing trunk for a desired one: by pinned id, else by exact label. */
export function matchTrunk<T extends { id: number; label: string }>(desired: { label: string; id?: number }, existing: readonly T[]): T | undefined {
  return matchByIdentity(desired, desired.label, existing, (t) => t.label, (ids) => new AmbiguousTrunkError(desired.label, ids));
}

export function pinnedTrunkMissingMessage(desired: { label: string; id?: number }): string {
  return `SIP trunk id ${desired.id} (pinned for "${desired.label}") does not exist`;
}

// ---- the password (write-only) -------------------------------------------------------------------

/** What the plan shows for the password: never the value, only where it comes from. */
export const PASSWORD_CANNOT_COMPARE = "(cannot be compared: write-only)";

/** The password from the environment variable the file names; undefined when unset or empty. */
export function passwordFromEnv(desired: TrunkSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (desired.password_env === undefined) return undefined;
  const v = env[desired.password_env];
  return v === undefined || v === "" ? undefined : v;
}

/** Why the password cannot be sent (for a create or a rotation), or undefined when it can. */
export function passwordProblem(desired: TrunkSettings, why: "create" | "rotate", env: NodeJS.ProcessEnv = process.env): string | undefined {
  const doing = why === "create" ? "to create SIP trunk" : "to rotate the password of SIP trunk";
  if (desired.password_env === undefined) {
    return `${doing} "${desired.label}" its password is needed: add \`password_env: VARIABLE\` naming the environment variable that holds it`;
  }
  if (passwordFromEnv(desired, env) === undefined) {
    return `${doing} "${desired.label}" its password is needed: the environment variable ${desired.password_env} (password_env) is not set or empty; nothing was written`;
  }
  return undefined;
}

/** Why a trunk cannot be created from the file (missing password or caller ID), or undefined. */
export function createProblem(desired: TrunkSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const p = passwordProblem(desired, "create", env);
  if (p) return p;
  if (desired.callerid === undefined && desired.multiple_numbers !== true) {
    return `to create SIP trunk "${desired.label}" the API needs a caller ID: add \`callerid:\` (an active number of the account) or \`multiple_numbers: true\``;
  }
  return undefined;
}

// ---- comparison ----------------------------------------------------------------------------------

/** Decimal texts (or numbers) equal as decimals ("0.18" = "0.1800"); null only equals null. */
export function sameMoney(a: string | number | null | undefined, b: string | number | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  try {
    return new Decimal(a).eq(new Decimal(b));
  } catch {
    return false;
  }
}

/** A managed field as the account holds it, normalised (an IP list as a sorted set). */
export function currentValue(t: SipTrunk, k: TrunkSettingKey): unknown {
  switch (k) {
    case "allowed_ips":
      return [...new Set((t.allowed_ips ?? []).map((x) => x.ip))].sort();
    case "callerid":
      return t.callerid ?? "";
    case "call_restrict":
      return t.call_restrict ?? false;
    case "host":
      return t.host ?? "dynamic";
    default:
      return t[k] ?? null;
  }
}

/**
 * Whether a managed field's desired value and a value the account holds (normalised by
 * {@link currentValue}) are the same as the API means them: money as decimals, IP lists as sets.
 * The Pulumi provider's diff and refresh use it too, so neither path diffs where the other does not.
 */
export function sameTrunkValue(k: TrunkSettingKey, want: unknown, have: unknown): boolean {
  if (k === "max_call_cost") return sameMoney(want as string, have as string | null);
  if (k === "allowed_ips") return JSON.stringify(want) === JSON.stringify(have);
  return want === have;
}

/** Diff of managed keys only (and the label, when a pinned id renames). */
export function diffTrunk(desired: TrunkSettings, current: SipTrunk): FieldDiff[] {
  const out: FieldDiff[] = [];
  if (desired.id !== undefined && desired.label !== current.label) out.push({ path: "label", before: current.label, after: desired.label });
  for (const k of TRUNK_SETTING_KEYS) {
    const want = desired[k];
    if (want === undefined) continue;
    const have = currentValue(current, k);
    if (!sameTrunkValue(k, want, have)) out.push({ path: k, before: have, after: want });
  }
  return out;
}

/** The plan's line for the password of an existing trunk: cannot be compared; sent only when rotating. */
export function passwordDiff(desired: TrunkSettings, rotate: boolean): FieldDiff {
  return {
    path: "password",
    before: PASSWORD_CANNOT_COMPARE,
    after: rotate ? `(rotated: the value of ${desired.password_env})` : `(not sent: --rotate-password ${desired.label} sends it)`,
  };
}

/** The diff of a trunk that does not exist yet. */
export function createDiff(desired: TrunkSettings): FieldDiff[] {
  const out: FieldDiff[] = [{ path: "label", before: null, after: desired.label }];
  for (const k of TRUNK_SETTING_KEYS) if (desired[k] !== undefined) out.push({ path: k, before: null, after: desired[k] });
  out.push({ path: "password", before: null, after: `(write-only: the value of ${desired.password_env ?? "?"})` });
  out.push({ path: "access_token", before: null, after: "(sensitive)", sensitive: true });
  return out;
}

// ---- request bodies ------------------------------------------------------------------------------

/** Drops undefined keys (JSON would drop them anyway; the request schema's check reads the object). */
function compactBody(b: SipTrunkWrite): SipTrunkWrite {
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as unknown as SipTrunkWrite;
}

/** Money as the official request takes it (`type: number, format: decimal`): the decimal text's number. */
function moneyNumber(v: string): number {
  return Number(new Decimal(v).toString());
}

/** The POST body: the declared fields over the official defaults; the password from the environment. */
export function createBody(desired: TrunkSettings, password: string): SipTrunkWrite {
  return compactBody({
    label: desired.label,
    password,
    ...(desired.host !== undefined ? { host_request: { host: desired.host } } : {}),
    callerid: desired.callerid ?? "",
    multiple_numbers: desired.multiple_numbers,
    ip_restrict: desired.ip_restrict ?? false,
    allowed_ips: desired.allowed_ips?.map((ip) => ({ ip })),
    didinfo_enabled: desired.didinfo_enabled ?? true,
    call_restrict: desired.call_restrict ?? false,
    call_limit: desired.call_limit,
    cost_limit: desired.cost_limit ?? false,
    max_call_cost: desired.max_call_cost === undefined ? undefined : moneyNumber(desired.max_call_cost),
    channels_restrict: desired.channels_restrict ?? false,
    max_channels: desired.max_channels,
    rewrite_enabled: desired.rewrite_enabled ?? false,
    rewrite_prefix: desired.rewrite_prefix,
    rewrite_cond: desired.rewrite_cond,
    call_recording_enabled: desired.call_recording_enabled,
    transcription_enabled: desired.transcription_enabled ?? false,
    transcription_threshold: desired.transcription_threshold ?? 6,
    machine_detection_enabled: desired.machine_detection_enabled,
    encrypted_media: desired.encrypted_media,
  });
}

/** The fields a PUT would reset that the official create request requires. */
const PUT_REQUIRED = ["ip_restrict", "didinfo_enabled", "cost_limit", "channels_restrict", "rewrite_enabled", "transcription_enabled", "transcription_threshold"] as const;

/** Refuses a PUT built on a record that lacks a field the PUT would reset (nothing is written). */
export class UnsafeTrunkWriteError extends Error {
  constructor(id: number, detail: string) {
    super(`SIP trunk ${id}: ${detail}; not written`);
    this.name = "UnsafeTrunkWriteError";
  }
}

/** The PUT body: the fresh record merged with the desired fields; the password only when rotating. */
export function mergedBody(current: SipTrunk, desired: TrunkSettings, password?: string): SipTrunkWrite {
  const missing = PUT_REQUIRED.filter((k) => desired[k] === undefined && typeof current[k] !== (k === "transcription_threshold" ? "number" : "boolean"));
  if (missing.length > 0) throw new UnsafeTrunkWriteError(current.id, `the API's record lacks ${missing.join(", ")}, which a PUT would reset to defaults`);
  const pick = <K extends TrunkSettingKey>(k: K): unknown => (desired[k] !== undefined ? desired[k] : currentValue(current, k));
  const host = pick("host") as string;
  const cost = desired.max_call_cost ?? current.max_call_cost ?? undefined;
  const nullable = (v: unknown) => (v === null ? undefined : v);
  return compactBody({
    label: desired.label,
    ...(password !== undefined ? { password } : {}),
    ...(host !== "dynamic" && host !== "" ? { host_request: { host } } : {}),
    callerid: pick("callerid") as string,
    multiple_numbers: nullable(pick("multiple_numbers")) as boolean | undefined,
    ip_restrict: pick("ip_restrict") as boolean,
    allowed_ips: (pick("allowed_ips") as string[]).map((ip) => ({ ip })),
    didinfo_enabled: pick("didinfo_enabled") as boolean,
    call_restrict: pick("call_restrict") as boolean,
    call_limit: nullable(pick("call_limit")) as number | undefined,
    cost_limit: pick("cost_limit") as boolean,
    max_call_cost: cost === null || cost === undefined ? undefined : moneyNumber(cost),
    channels_restrict: pick("channels_restrict") as boolean,
    max_channels: nullable(pick("max_channels")) as number | undefined,
    rewrite_enabled: pick("rewrite_enabled") as boolean,
    rewrite_prefix: nullable(pick("rewrite_prefix")) as string | undefined,
    rewrite_cond: nullable(pick("rewrite_cond")) as string | undefined,
    call_recording_enabled: nullable(pick("call_recording_enabled")) as boolean | undefined,
    transcription_enabled: pick("transcription_enabled") as boolean,
    transcription_threshold: pick("transcription_threshold") as number,
    machine_detection_enabled: nullable(pick("machine_detection_enabled")) as boolean | undefined,
    encrypted_media: nullable(pick("encrypted_media")) as boolean | undefined,
  });
}

// ---- writes --------------------------------------------------------------------------------------

/** What a create made: what later writes (a number routed to it) need. Never the token. */
export interface MadeTrunk {
  id: number;
  /** The system-generated login: a number's trunk destination. */
  name: string;
}

/**
 * Create a trunk (POST). When the outcome is unknown (timeout, dropped connection, 5xx) the label
 * is read again: one that now exists is the one this POST made (reconciled); otherwise the error
 * stands (a re-run plans afresh), so a password is never sent twice blindly.
 */
export async function createTrunk(
  client: WavixClient,
  desired: TrunkSettings,
  env: NodeJS.ProcessEnv = process.env,
  password?: string,
): Promise<{ trunk: SipTrunk; reconciled: boolean }> {
  const problem = password === undefined ? createProblem(desired, env) : undefined;
  if (problem) throw new Error(problem);
  try {
    return { trunk: await client.createTrunk(createBody(desired, password ?? passwordFromEnv(desired, env)!)), reconciled: false };
  } catch (err) {
    if (!(err as { outcomeUnknown?: boolean }).outcomeUnknown) throw err;
    const found = (await listAllTrunks(client)).filter((t) => t.label === desired.label);
    if (found.length !== 1) throw err;
    return { trunk: await client.getTrunk(found[0].id), reconciled: true };
  }
}

/**
 * Make the managed fields true with one PUT, from a fresh read (the plan may be minutes old): the
 * trunk must still carry the label it was matched by (unless an id pins it), and nothing is written
 * when the fresh record already shows the desired fields and no rotation is asked. Returns the
 * record as written (the PUT's answer).
 */
export async function updateTrunk(
  client: WavixClient,
  current: { id: number; label: string },
  desired: TrunkSettings,
  options: { rotate?: boolean; env?: NodeJS.ProcessEnv; fresh?: SipTrunk; password?: string } = {},
): Promise<SipTrunk> {
  const fresh = options.fresh ?? (await notFoundToUndefined(client.getTrunk(current.id)));
  if (fresh === undefined) throw new UnsafeTrunkWriteError(current.id, `("${current.label}") no longer exists`);
  if (desired.id === undefined && fresh.label !== current.label) {
    throw new UnsafeTrunkWriteError(current.id, `was relabelled from "${current.label}" to "${fresh.label}" since it was read; re-run plan`);
  }
  let password = options.rotate ? options.password : undefined;
  if (options.rotate && password === undefined) {
    const problem = passwordProblem(desired, "rotate", options.env);
    if (problem) throw new Error(problem);
    password = passwordFromEnv(desired, options.env);
  }
  if (password === undefined && diffTrunk(desired, fresh).length === 0) return fresh;
  return client.replaceTrunk(fresh.id, mergedBody(fresh, desired, password));
}

/** Delete a trunk after checking the id still names the label it was planned for. */
export async function deleteTrunk(client: WavixClient, current: { id: number; label: string }): Promise<void> {
  const fresh = await notFoundToUndefined(client.getTrunk(current.id));
  if (fresh === undefined) return; // already gone: the state asked for
  if (fresh.label !== current.label) {
    throw new UnsafeTrunkWriteError(current.id, `was relabelled from "${current.label}" to "${fresh.label}" since it was read; not deleted, re-run plan`);
  }
  await client.deleteTrunk(current.id);
}

/** Reads each trunk's whole record (the listing carries fewer fields). */
export async function readTrunks(client: WavixClient, ids: readonly number[]): Promise<Map<number, SipTrunk>> {
  const out = new Map<number, SipTrunk>();
  await Promise.all(
    ids.map(async (id) => {
      const t = await notFoundToUndefined(client.getTrunk(id));
      if (t) out.set(id, t);
    }),
  );
  return out;
}
