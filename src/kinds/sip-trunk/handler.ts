/**
 * SIP trunks: identity (label, or a pinned id), listing, diff of managed keys, writes. Shared by the
 * CLI engine and the Pulumi `SipTrunk` provider.
 *
 * The password is write-only (official: sent, never returned): the file names the environment
 * variable holding it (`password_env`), and it is sent with every write of the trunk — the create,
 * and every PUT, whose official body (SIPTrunkCreateRequest) requires it (issue #33 item 6); it is
 * read at apply only (a plan never needs it, issue #27), and a plan says it cannot be compared and
 * which variable apply will read. `--rotate-password LABEL` sends it even when no setting differs.
 * `access_token` is the server's secret: never shown or exported.
 *
 * PUT replaces the whole record (official: "Omitted fields revert to their defaults"), so a PUT
 * carries every setting: the file's where it declares one, else the value a fresh read shows. A
 * setting the read does not show (the official SIPTrunkResponse requires only id, name, callerid,
 * label, allowed_ips and created_at) and the file does not declare cannot be carried, and a PUT
 * without it would reset it: such a PUT is never sent (`missingForPut`; a plan problem naming the
 * fields, and refused again right before the write).
 *
 * Values are compared as the API means them: money as decimals (`"0.1800"` is `"0.18"`), IP
 * addresses in one canonical text (src/util/ip.ts), labels in Unicode NFC (src/kit/identity.ts).
 */
import type { GatedClient } from "../../kit/gate";
import { matchByIdentity, sameName } from "../../kit/identity";
import { settleTwins, type TwinRemoved } from "../../kit/twins";
import { canonicalDecimal, sameDecimal } from "../../util/decimal";
import { decimalJs } from "../../util/lazy-deps";
import { canonicalIp, canonicalIpSet } from "../../util/ip";
import type { WavixClient } from "../../client";
import { readAll } from "../../client";
import type { SipTrunk, SipTrunkSummary, SipTrunkWrite } from "../../client/types";
import type { DesiredSipTrunk } from "./types";
import { SENSITIVE, type FieldDiff } from "../../kit/change/diff";
import { notFoundToUndefined } from "../../client/not-found";
import { API_KEY_VARIABLE, TRUNK_SETTING_KEYS, type TrunkSettingKey } from "./file";

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


/** Why a write sends the password: a create, an update (every PUT carries it), a rotation. */
export type PasswordUse = "create" | "update" | "rotate";

const DOING: Readonly<Record<PasswordUse, string>> = {
  create: "to create SIP trunk",
  // The official PUT body (SIPTrunkCreateRequest) requires it: a PUT replaces the whole trunk.
  update: "to update SIP trunk",
  rotate: "to rotate the password of SIP trunk",
};

/**
 * Why the password cannot be sent (for a create, an update or a rotation), or undefined when it
 * can. Read at apply only. `isApiKey` (the client's) refuses a variable that holds the API key,
 * whatever its name.
 */
export function passwordProblem(
  desired: TrunkSettings,
  why: PasswordUse,
  env: NodeJS.ProcessEnv = process.env,
  isApiKey?: (value: string) => boolean,
): string | undefined {
  const doing = DOING[why];
  if (desired.password_env === undefined) {
    return `${doing} "${desired.label}" its password is needed: add \`password_env: VARIABLE\` naming the environment variable that holds it`;
  }
  const value = passwordFromEnv(desired, env);
  if (value === undefined) {
    return `${doing} "${desired.label}" its password is needed: the environment variable ${desired.password_env} (password_env) is not set or empty; nothing was written`;
  }
  if (desired.password_env === API_KEY_VARIABLE || isApiKey?.(value) === true) {
    return `${doing} "${desired.label}": the environment variable ${desired.password_env} (password_env) holds the API key, which must never be sent as a trunk's password; give the trunk its own secret. Nothing was written`;
  }
  return undefined;
}

/** Why a trunk cannot be created from the file, or undefined: what a plan can tell without any secret. */
export function createProblem(desired: TrunkSettings): string | undefined {
  if (desired.password_env === undefined) {
    return `to create SIP trunk "${desired.label}" its password is needed: add \`password_env: VARIABLE\` naming the environment variable that holds it (read at apply)`;
  }
  if (desired.callerid === undefined && desired.multiple_numbers !== true) {
    return `to create SIP trunk "${desired.label}" the API needs a caller ID: add \`callerid:\` (an active number of the account) or \`multiple_numbers: true\``;
  }
  return undefined;
}

// ---- comparison ----------------------------------------------------------------------------------

/** Decimal texts (or numbers) equal as decimals ("0.18" = "0.1800"); null only equals null. */
export function sameMoney(a: string | number | null | undefined, b: string | number | null | undefined): boolean {
  return sameDecimal(a, b);
}

/**
 * A managed field as the account holds it, in the form the file is normalised to (an IP list as a
 * sorted set of canonical addresses, money as a canonical decimal); undefined when the record does
 * not show the field at all (the official response makes it optional): then it is not known.
 */
export function currentValue(t: SipTrunk, k: TrunkSettingKey): unknown {
  const raw = (t as Record<string, unknown>)[k];
  if (raw === undefined) return undefined;
  switch (k) {
    case "allowed_ips":
      return canonicalIpSet(Array.isArray(raw) ? (raw as Array<{ ip: string }>).map((x) => x.ip) : []);
    case "callerid":
      return raw ?? "";
    case "call_restrict":
      return raw ?? false;
    case "host":
      return raw === null || raw === "" ? "dynamic" : raw === "dynamic" ? raw : (canonicalIp(String(raw)) ?? raw);
    case "max_call_cost":
      return raw === null ? null : (canonicalDecimal(raw as string) ?? raw);
    default:
      return raw ?? null;
  }
}

/**
 * Whether a managed field's desired value and a value the account holds (normalised by
 * {@link currentValue}) are the same as the API means them: money as decimals, IP lists as sets.
 * The Pulumi provider's diff and refresh use it too, so neither path diffs where the other does not.
 */
export function sameTrunkValue(k: TrunkSettingKey, want: unknown, have: unknown): boolean {
  if (k === "max_call_cost") return sameMoney(want as string, have as string | null);
  if (k === "allowed_ips") return JSON.stringify(canonicalIpSet(want as string[])) === JSON.stringify(have);
  if (k === "host" && typeof want === "string" && typeof have === "string") return (canonicalIp(want) ?? want) === have;
  return want === have;
}

/**
 * Diff of managed keys only (and the label, when a pinned id renames). A declared setting the
 * record does not show is a change marked `unreadable`: it cannot be compared, so it is written.
 */
export function diffTrunk(desired: TrunkSettings, current: SipTrunk): FieldDiff[] {
  const out: FieldDiff[] = [];
  if (desired.id !== undefined && desired.label !== current.label) out.push({ path: "label", before: current.label, after: desired.label });
  for (const k of TRUNK_SETTING_KEYS) {
    const want = desired[k];
    if (want === undefined) continue;
    const have = currentValue(current, k);
    if (have === undefined) out.push({ path: k, before: null, after: want, unreadable: true });
    else if (!sameTrunkValue(k, want, have)) out.push({ path: k, before: have, after: want });
  }
  return out;
}

/** The declared settings the record shows otherwise (a read-back; settings it does not show are not judged). */
export function lostFields(desired: TrunkSettings, back: SipTrunk): string[] {
  return diffTrunk(desired, back)
    .filter((d) => !d.unreadable)
    .map((d) => d.path);
}

/**
 * The settings a PUT must carry that neither the file declares nor the record shows: a PUT
 * replaces the trunk, so without them it would reset them to their defaults (issue #27). Every
 * setting of the official request (SIPTrunkCreateRequest, the PUT's body) counts: the required
 * ones must be sent, and an optional one left out reverts to its default.
 */
export function missingForPut(desired: TrunkSettings, current: SipTrunk): TrunkSettingKey[] {
  return TRUNK_SETTING_KEYS.filter((k) => desired[k] === undefined && currentValue(current, k) === undefined);
}

/** Why a PUT of this trunk cannot be built safely, or undefined. */
export function putProblem(desired: TrunkSettings, current: SipTrunk): string | undefined {
  const missing = missingForPut(desired, current);
  if (missing.length === 0) return undefined;
  return (
    `SIP trunk "${desired.label}" (id ${current.id}) is not updated: the API's record does not show ${missing.join(", ")}, ` +
    `and a PUT replaces the whole trunk, so ${missing.length === 1 ? "it" : "they"} would be reset to the defaults. ` +
    `Declare ${missing.length === 1 ? "it" : "them"} in the file (with the values the trunk should keep) so the PUT carries ${missing.length === 1 ? "it" : "them"}`
  );
}

/**
 * The plan's line for the password of an existing trunk: it cannot be compared, and the PUT sends it
 * (the official PUT requires it), read at apply from the variable `password_env` names — the plan
 * says which, so the apply job can be given it (a plan never needs it).
 */
export function passwordDiff(desired: TrunkSettings, rotate: boolean): FieldDiff {
  return {
    path: "password",
    before: PASSWORD_CANNOT_COMPARE,
    after: rotate ? `(rotated: the value of ${desired.password_env}, read at apply)` : `(sent again: the value of ${desired.password_env}, read at apply)`,
  };
}

/**
 * Why an update of this trunk cannot be planned, or undefined: a PUT carries the password, so the
 * file must name the variable that holds it (what a plan can tell without any secret).
 */
export function updateProblem(desired: TrunkSettings): string | undefined {
  if (desired.password_env !== undefined) return undefined;
  return `to update SIP trunk "${desired.label}" its password is needed (PUT /v1/trunks/{id} replaces the trunk, and the API requires the password with it): add \`password_env: VARIABLE\` naming the environment variable that holds it (read at apply)`;
}

/** The diff of a trunk that does not exist yet. The password is write-only and read at apply: `(sensitive)`. */
export function createDiff(desired: TrunkSettings): FieldDiff[] {
  const out: FieldDiff[] = [{ path: "label", before: null, after: desired.label }];
  for (const k of TRUNK_SETTING_KEYS) if (desired[k] !== undefined) out.push({ path: k, before: null, after: desired[k] });
  out.push({ path: "password", before: null, after: SENSITIVE, sensitive: true });
  out.push({ path: "access_token", before: null, after: SENSITIVE, sensitive: true });
  return out;
}

// ---- request bodies ------------------------------------------------------------------------------

/** Drops undefined keys (JSON would drop them anyway; the request schema's check reads the object). */
function compactBody(b: SipTrunkWrite): SipTrunkWrite {
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as unknown as SipTrunkWrite;
}

/** Money as the official request takes it (`type: number, format: decimal`): the decimal text's number. */
function moneyNumber(v: string): number {
  return Number(new (decimalJs())(v).toString());
}

/** The POST body: the declared fields over the official defaults; the password from the environment. */
export function createBody(desired: TrunkSettings, password: string): SipTrunkWrite {
  return compactBody({
    label: desired.label,
    password,
    ...(desired.host !== undefined && desired.host !== "dynamic" ? { host_request: { host: desired.host } } : {}),
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

/** Refuses a PUT built on a record that lacks a field the PUT would reset (nothing is written). */
export class UnsafeTrunkWriteError extends Error {
  constructor(id: number, detail: string) {
    super(`SIP trunk ${id}: ${detail}; not written`);
    this.name = "UnsafeTrunkWriteError";
  }
}

/**
 * The PUT body: every setting, the file's where declared, else the fresh record's; and the password
 * (the official PUT requires it). Throws (nothing written) when a setting is neither (`missingForPut`).
 */
export function mergedBody(current: SipTrunk, desired: TrunkSettings, password: string): SipTrunkWrite {
  const missing = missingForPut(desired, current);
  if (missing.length > 0) {
    throw new UnsafeTrunkWriteError(current.id, `the API's record does not show ${missing.join(", ")}, which a PUT would reset to the defaults (declare ${missing.length === 1 ? "it" : "them"} in the file)`);
  }
  const pick = (k: TrunkSettingKey): unknown => (desired[k] !== undefined ? desired[k] : currentValue(current, k));
  const host = pick("host") as string;
  const cost = pick("max_call_cost") as string | null;
  const nullable = (v: unknown) => (v === null ? undefined : v);
  return compactBody({
    label: desired.label,
    password,
    ...(host !== "dynamic" && host !== "" ? { host_request: { host } } : {}),
    callerid: pick("callerid") as string,
    multiple_numbers: nullable(pick("multiple_numbers")) as boolean | undefined,
    ip_restrict: pick("ip_restrict") as boolean,
    allowed_ips: (pick("allowed_ips") as string[]).map((ip) => ({ ip })),
    didinfo_enabled: pick("didinfo_enabled") as boolean,
    call_restrict: pick("call_restrict") as boolean,
    call_limit: nullable(pick("call_limit")) as number | undefined,
    cost_limit: pick("cost_limit") as boolean,
    max_call_cost: cost === null ? undefined : moneyNumber(cost),
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

/** How apply reads the password and recognises the API key (the client's `isApiKey`). */
export interface TrunkWriteOptions {
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The password to send (the Pulumi provider's secret input); otherwise read from `password_env`. */
  password?: string;
  /** @default the client's own `isApiKey` */
  isApiKey?: (value: string) => boolean;
}

/** What {@link createTrunk} did. */
export interface CreatedTrunk {
  trunk: SipTrunk;
  /** The POST's outcome was unknown and a re-read found it had committed. */
  reconciled: boolean;
  /** The trunk already existed (read by label right before the POST, or a twin made at the same moment): adopted. */
  adopted: boolean;
  /** The trunk this run made and deleted again because another run made the same label first. */
  twin?: TwinRemoved;
}

/** The trunks of one label, oldest (lowest id) first. */
function named(list: readonly SipTrunkSummary[], label: string): SipTrunkSummary[] {
  return list.filter((t) => sameName(t.label, label)).sort((a, b) => a.id - b.id);
}

/**
 * Create a trunk, never a twin (issue #27; sub-accounts' rule, src/kinds/sub-account/handler.ts):
 *
 * 1. Right before the POST the trunks are read by label (a complete listing): one that exists by
 *    now (another run, a person, a listing that left it out when planning) is adopted and made as
 *    declared with a PUT — which carries the password, as every PUT must (none when it already
 *    shows the declared settings).
 * 2. The password is read from `password_env` only now (a plan never needs it); unset or holding
 *    the API key, nothing is written.
 * 3. When the POST's outcome is unknown (timeout, dropped connection, 5xx) the label is read again:
 *    one that now exists is the one this POST made (reconciled); otherwise the error stands.
 * 4. After the POST the label is read once more: when another run made the same label at the same
 *    moment, the oldest trunk (lowest id) is kept by both runs — the run whose trunk is not the
 *    oldest deletes its own (nothing routes to it yet: numbers are written after trunks) and adopts
 *    the oldest. Ids grow with creation, so the later creator always sees the earlier one.
 */
export async function createTrunk(client: GatedClient, desired: TrunkSettings, options: TrunkWriteOptions = {}): Promise<CreatedTrunk> {
  const existing = named(await listAllTrunks(client), desired.label);
  if (existing.length > 1) throw new AmbiguousTrunkError(desired.label, existing.map((t) => t.id));
  if (existing.length === 1) {
    const found = existing[0];
    return { trunk: await updateTrunk(client, found, desired, options), reconciled: false, adopted: true };
  }
  let password = options.password;
  if (password === undefined) {
    const problem = passwordProblem(desired, "create", options.env, options.isApiKey ?? ((v) => client.isApiKey(v)));
    if (problem) throw new Error(problem);
    password = passwordFromEnv(desired, options.env)!;
  }
  let made: SipTrunk;
  let reconciled = false;
  try {
    made = await client.createTrunk(createBody(desired, password));
  } catch (err) {
    if (!(err as { outcomeUnknown?: boolean }).outcomeUnknown) throw err;
    const found = named(await listAllTrunks(client), desired.label);
    if (found.length !== 1) throw err;
    made = await client.getTrunk(found[0].id);
    reconciled = true;
  }
  // The twin check (src/kit/twins.ts): another run made this label first, keep theirs, delete ours.
  const settled = await settleTwins<{ id: number; label: string }>({
    made,
    idOf: (t) => t.id,
    holders: async () => named(await listAllTrunks(client), desired.label),
    removeOwn: async (own) => {
      await notFoundToUndefined(client.deleteTrunk(own.id));
      return "deleted";
    },
  });
  if (settled.twin === undefined) return { trunk: made, reconciled, adopted: false };
  return { trunk: await updateTrunk(client, settled.kept, desired, options), reconciled, adopted: true, twin: settled.twin };
}

/**
 * Make the managed fields true with one PUT, from a fresh read (the plan may be minutes old): the
 * trunk must still carry the label it was matched by (unless an id pins it), the read must show
 * every setting the file leaves out (`missingForPut`), and nothing is written when the fresh record
 * already shows the desired fields and no rotation is asked. The PUT carries the password (the
 * official body requires it): `options.password`, else the variable `password_env` names; without
 * one nothing is written. Returns the record as written.
 */
export async function updateTrunk(
  client: GatedClient,
  current: { id: number; label: string },
  desired: TrunkSettings,
  options: TrunkWriteOptions & { rotate?: boolean; fresh?: SipTrunk } = {},
): Promise<SipTrunk> {
  const fresh = options.fresh ?? (await notFoundToUndefined(client.getTrunk(current.id)));
  if (fresh === undefined) throw new UnsafeTrunkWriteError(current.id, `("${current.label}") no longer exists`);
  if (desired.id === undefined && !sameName(fresh.label, current.label)) {
    throw new UnsafeTrunkWriteError(current.id, `was relabelled from "${current.label}" to "${fresh.label}" since it was read; re-run plan`);
  }
  if (!options.rotate && diffTrunk(desired, fresh).length === 0) return fresh;
  let password = options.password;
  if (password === undefined) {
    const problem = passwordProblem(desired, options.rotate ? "rotate" : "update", options.env, options.isApiKey ?? ((v) => client.isApiKey(v)));
    if (problem) throw new Error(problem);
    password = passwordFromEnv(desired, options.env)!;
  }
  return client.replaceTrunk(fresh.id, mergedBody(fresh, desired, password));
}

/** Delete a trunk after checking the id still names the label it was planned for. */
export async function deleteTrunk(client: GatedClient, current: { id: number; label: string }): Promise<void> {
  const fresh = await notFoundToUndefined(client.getTrunk(current.id));
  if (fresh === undefined) return; // already gone: the state asked for
  if (!sameName(fresh.label, current.label)) {
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
