/**
 * The routes of the simulator's SIP trunks (official `GET`/`POST /v1/trunks`, `GET`/`PUT`/`DELETE
 * /v1/trunks/{id}`) and the account's rules past the request schemas; the records are trunks.ts.
 * The route table (routes.ts) lists them; they never import it.
 */
import type { SipTrunk, SipTrunkSummary } from "../client/types";
import { json, notFound, type SimResponse, ValidationFailure } from "./http";
import type { SimStore } from "./store";
import { trunkDefaults, trunkSummary, type SimTrunkRecord } from "./trunks";
import type { JsonObject } from "./validate";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+$/;

function isIp(v: string): boolean {
  return IPV4.test(v) || (v.includes(":") && IPV6.test(v));
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
  // The request schema requires the password on every PUT (official SIPTrunkCreateRequest): a PUT
  // replaces the trunk, its password included.
  rec.password = String(body.password);
  return json(200, rec.data);
}

export function deleteTrunk(ctx: Ctx): SimResponse {
  const rec = trunkOf(ctx);
  if (!rec) return notFound(`SIP trunk ${ctx.params[0]} not found`);
  ctx.store.trunks.delete(rec.data.id);
  return json(200, { success: true });
}
