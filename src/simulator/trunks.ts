/**
 * SIP trunks in the simulator (official `GET`/`POST /v1/trunks`, `GET`/`PUT`/`DELETE /v1/trunks/{id}`).
 * The request schemas (schemas/api/trunk-*.request.schema.json) have checked the shape before these
 * run; here are the account's own rules and the records. The password is write-only: kept, never
 * served. `access_token` is made by the server and served in every answer, as the official document shows.
 */
import type { SipTrunk, SipTrunkSummary } from "../client/types";
import { json, notFound, type SimResponse, ValidationFailure } from "./http";
import type { SimStore } from "./store";
import type { JsonObject } from "./validate";

/** One trunk as the simulator keeps it. */
export interface SimTrunkRecord {
  organization: number;
  data: SipTrunk;
  /** Write-only: never served. Tests may read it to see what was sent. */
  password: string;
}

/** A trunk as seeded: the record's fields (defaults fill the rest) plus its owner and password. */
export type SimSeedTrunk = Partial<SipTrunk> & { id: number; label: string; organization?: number; password?: string };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+$/;

function isIp(v: string): boolean {
  return IPV4.test(v) || (v.includes(":") && IPV6.test(v));
}

/** Defaults of the official SIPTrunkResponse for every field a create or a PUT leaves out. */
export function trunkDefaults(id: number, name: string, label: string, created: string): SipTrunk {
  return {
    id,
    name,
    callerid: null,
    label,
    ip_restrict: false,
    allowed_ips: [],
    channels_restrict: false,
    max_channels: null,
    cost_limit: false,
    max_call_cost: null,
    call_restrict: false,
    call_limit: null,
    didinfo_enabled: true,
    rewrite_enabled: false,
    rewrite_prefix: "",
    rewrite_cond: "",
    call_recording_enabled: false,
    machine_detection_enabled: false,
    transcription_enabled: false,
    transcription_threshold: 6,
    created_at: created,
    host: "dynamic",
    multiple_numbers: false,
    encrypted_media: false,
    passthrough: false,
    access_token: null,
  };
}

/** The listing's item (official SIPTrunkSummary): fewer fields than the record. */
export function trunkSummary(t: SipTrunk): SipTrunkSummary {
  const ipAuth = t.host !== undefined && t.host !== "dynamic";
  return {
    id: t.id,
    name: t.name,
    label: t.label,
    callerid: t.callerid,
    multiple_numbers: t.multiple_numbers ?? false,
    auth_method: ipAuth ? "IP auth" : "Digest",
    host_request: ipAuth ? { host: t.host, status: "active" } : null,
    passthrough: t.passthrough ?? false,
    status: "active",
    talk_time: 0,
    charge: "0.00",
    call_recording_enabled: t.call_recording_enabled ?? false,
    machine_detection_enabled: t.machine_detection_enabled ?? false,
    transcription_enabled: t.transcription_enabled ?? false,
    transcription_threshold: t.transcription_threshold ?? 6,
    encrypted_media: t.encrypted_media ?? false,
    access_token: t.access_token ?? null,
  };
}

/**
 * The account's rules past the schema (official field descriptions): `allowed_ips` must be given
 * with `ip_restrict: true` and hold IP addresses; the caller ID must be an active number of the
 * account, or empty with `multiple_numbers: true`; limits are not negative.
 */
function checkRules(store: SimStore, org: number, body: JsonObject): void {
  const errors: Record<string, string> = {};
  const ips = Array.isArray(body.allowed_ips) ? (body.allowed_ips as JsonObject[]) : [];
  if (body.ip_restrict === true && ips.length === 0) errors.allowed_ips = "is required when ip_restrict is true";
  ips.forEach((entry, i) => {
    if (!isIp(String(entry.ip))) errors[`allowed_ips.${i}.ip`] = "must be a valid IP address";
  });
  if (body.host_request !== undefined && !isIp(String((body.host_request as JsonObject).host))) errors["host_request.host"] = "must be a valid IP address";
  const callerid = String(body.callerid);
  if (callerid === "") {
    if (body.multiple_numbers !== true) errors.callerid = "must be an active number of the account (empty only with multiple_numbers)";
  } else {
    const id = store.numberIdByDigits.get(callerid.replace(/^\+/, ""));
    const rec = id === undefined ? undefined : store.numberOf(org, id);
    if (!rec || rec.data.status !== "active") errors.callerid = "must be an active number of the account";
  }
  for (const k of ["call_limit", "max_channels", "transcription_threshold"]) {
    if (typeof body[k] === "number" && (body[k] as number) < 0) errors[k] = "must be at least 0";
  }
  if (typeof body.max_call_cost === "number" && body.max_call_cost < 0) errors.max_call_cost = "must be at least 0";
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
}

/** The record a create or a PUT makes of `body`: every field it omits takes its default (PUT replaces). */
function recordOf(store: SimStore, base: SipTrunk, body: JsonObject): SipTrunk {
  const t = trunkDefaults(base.id, base.name, String(body.label), base.created_at);
  t.access_token = base.access_token;
  const plain = [
    "callerid", "ip_restrict", "channels_restrict", "max_channels", "cost_limit", "call_restrict", "call_limit", "didinfo_enabled",
    "rewrite_enabled", "rewrite_prefix", "rewrite_cond", "call_recording_enabled", "machine_detection_enabled", "transcription_enabled",
    "transcription_threshold", "multiple_numbers", "encrypted_media",
  ] as const;
  for (const k of plain) if (body[k] !== undefined) (t as Record<string, unknown>)[k] = body[k];
  // Money is served as decimal text at four places, whatever the JSON number sent ("0.18" → "0.1800").
  if (typeof body.max_call_cost === "number") t.max_call_cost = body.max_call_cost.toFixed(4);
  const ips = Array.isArray(body.allowed_ips) ? (body.allowed_ips as JsonObject[]) : [];
  t.allowed_ips = ips.map((e) => ({ id: store.nextTrunkIpId(), ip: String(e.ip) }));
  if (body.host_request !== undefined) t.host = String((body.host_request as JsonObject).host);
  return t;
}

function trunkOf(ctx: { store: SimStore; org: number; params: string[] }): SimTrunkRecord | undefined {
  const raw = ctx.params[0];
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  const rec = id === undefined ? undefined : ctx.store.trunks.get(id);
  return rec && rec.organization === ctx.org ? rec : undefined;
}

type Ctx = { store: SimStore; org: number; params: string[]; body: unknown };

export function listTrunksOf(store: SimStore, org: number): SipTrunkSummary[] {
  return [...store.trunks.values()].filter((r) => r.organization === org).sort((a, b) => a.data.id - b.data.id).map((r) => trunkSummary(r.data));
}

export function getTrunk(ctx: Ctx): SimResponse {
  const rec = trunkOf(ctx);
  return rec ? json(200, rec.data) : notFound(`SIP trunk ${ctx.params[0]} not found`);
}

export function createTrunk(ctx: Ctx): SimResponse {
  const body = ctx.body as JsonObject;
  checkRules(ctx.store, ctx.org, body);
  const id = ctx.store.nextTrunkId();
  // The login is system-generated (official `name`); the token is the server's own secret.
  const base = trunkDefaults(id, String(10000 + ((id * 7919) % 90000)), String(body.label), new Date().toISOString());
  base.access_token = `sip${ctx.store.rng.hex(32)}`;
  const data = recordOf(ctx.store, base, body);
  ctx.store.trunks.set(id, { organization: ctx.org, data, password: String(body.password) });
  return json(201, data);
}

export function replaceTrunk(ctx: Ctx): SimResponse {
  const rec = trunkOf(ctx);
  if (!rec) return notFound(`SIP trunk ${ctx.params[0]} not found`);
  const body = ctx.body as JsonObject;
  checkRules(ctx.store, ctx.org, body);
  rec.data = recordOf(ctx.store, rec.data, body);
  // Deliberate difference (docs/SIMULATOR.md): a PUT without a password keeps the current one.
  if (typeof body.password === "string") rec.password = body.password;
  return json(200, rec.data);
}

export function deleteTrunk(ctx: Ctx): SimResponse {
  const rec = trunkOf(ctx);
  if (!rec) return notFound(`SIP trunk ${ctx.params[0]} not found`);
  ctx.store.trunks.delete(rec.data.id);
  return json(200, { success: true });
}

/** A seeded trunk as the store keeps it. */
export function seededTrunk(t: SimSeedTrunk, master: number): SimTrunkRecord {
  const { organization, password, ...fields } = t;
  const data: SipTrunk = {
    ...trunkDefaults(t.id, fields.name ?? String(10000 + t.id), t.label, fields.created_at ?? "2026-01-12T08:00:00.000Z"),
    access_token: `sip-seeded-token-${t.id}`,
    ...fields,
  };
  return { organization: organization ?? master, data, password: password ?? "seeded-password" };
}
