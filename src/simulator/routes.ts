/**
 * The simulated operations: seed part 4 plus the official operations of docs/CONTRACT.md part 2.
 * Each route names the scope resource it needs (seed part 5); GET needs `read`, the rest `write`.
 * The route table composes the per-area route modules (messaging-routes.ts, trunk-routes.ts),
 * which never import it.
 */
import type { Call, CallWebhookEventType, Pagination, SubAccount, WavixNumber } from "../client/types";
import { json, notFound, forbidden, type SimResponse, ValidationFailure } from "./http";
import { setEndpoints, type SimStore } from "./store";
import type { Scope, SimSeedTwoFaService, SimSeedTwoFaSession } from "./types";
import type { SimVariation } from "./variations";
import type { Route, RouteContext } from "./route-types";
import { MESSAGING_ROUTES } from "./messaging-routes";
import { createTrunk, deleteTrunk, getTrunk, listTrunksOf, replaceTrunk } from "./trunk-routes";
import {
  checkName,
  E164,
  isIsoDate,
  isObject,
  isValidUri,
  parseDefaultDestinations,
  parseNumberUpdate,
  rejectUnknown,
  RULE_REQUIRED,
  RULE_URI,
  type JsonObject,
} from "./validate";

export type { Route, RouteContext } from "./route-types";

/** Bulk update and release take at most this many ids per request. */
export const MAX_BULK_IDS = 100;

const UUID_SEGMENT = "([^/]+)";

function paginate<T>(items: T[], query: URLSearchParams, maxPerPage: number): { page: T[]; pagination: Pagination } {
  const errors: Record<string, string> = {};
  const page = intParam(query, "page", 1, errors);
  const perPageAsked = intParam(query, "per_page", 25, errors);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  const perPage = Math.min(perPageAsked, maxPerPage);
  const total = items.length;
  return {
    page: items.slice((page - 1) * perPage, page * perPage),
    pagination: { current_page: page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
  };
}

function intParam(query: URLSearchParams, name: string, fallback: number, errors: Record<string, string>): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    errors[name] = "must be an integer of at least 1";
    return fallback;
  }
  return Number(raw);
}

function bodyObject(ctx: RouteContext): JsonObject {
  if (ctx.body === undefined) return {};
  if (!isObject(ctx.body)) throw new ValidationFailure({ body: "must be a JSON object" });
  return ctx.body;
}

function pathId(raw: string): number | undefined {
  return /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Official NumberListResponse.doc_types: the document types numbers may require (seed 2.3
 * `doc_type_id`: 1 identity, 2 address, 3 business registration).
 */
const DOC_TYPES = [
  { id: 1, name: "identity", title: "Proof of identity" },
  { id: 2, name: "address", title: "Proof of address" },
  { id: 3, name: "business_registration", title: "Proof of business registration" },
];

// ---- numbers -------------------------------------------------------------------------------

function listNumbers(ctx: RouteContext): SimResponse {
  const ids = ctx.store.numberIdsOf(ctx.org);
  // A raw `+` in a query string decodes to a space, so trim before dropping the plus sign.
  const search = (ctx.query.get("search") ?? "").trim().replace(/^\+/, "");
  let selected: number[] = ids;
  if (search !== "") {
    // Official: "Filters numbers by a full or partial phone number".
    selected = ids.filter((id) => ctx.store.numbers.get(id)!.data.number.includes(search));
  }
  const { page, pagination } = paginate(selected, ctx.query, ctx.maxPerPage);
  return json(200, { items: page.map((id) => ctx.store.numbers.get(id)!.data), doc_types: DOC_TYPES, pagination });
}

function getNumber(ctx: RouteContext): SimResponse {
  const id = pathId(ctx.params[0]);
  const rec = id === undefined ? undefined : ctx.store.numberOf(ctx.org, id);
  if (!rec) return notFound(`Phone number ${ctx.params[0]} not found`);
  return json(200, rec.data);
}

function applyPatch(store: SimStore, n: WavixNumber, patch: ReturnType<typeof parseNumberUpdate>): void {
  const { destinations, ...rest } = patch;
  Object.assign(n, rest);
  // `destinations` replaces the whole set; the server assigns ids (official NumberUpdateRequest).
  if (destinations) n.destination = store.materializeDestinations(destinations);
}

function patchNumber(ctx: RouteContext): SimResponse {
  const id = pathId(ctx.params[0]);
  const rec = id === undefined ? undefined : ctx.store.numberOf(ctx.org, id);
  if (!rec) return notFound(`Phone number ${ctx.params[0]} not found`);
  const patch = parseNumberUpdate(bodyObject(ctx));
  applyPatch(ctx.store, rec.data, patch);
  return json(200, rec.data);
}

function bulkPatchNumbers(ctx: RouteContext): SimResponse {
  const body = bodyObject(ctx);
  const ids = body.ids;
  if (ids === undefined || ids === null) throw new ValidationFailure({ ids: RULE_REQUIRED });
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => Number.isInteger(i))) {
    throw new ValidationFailure({ ids: "must be a non-empty array of integers" });
  }
  if (ids.length > MAX_BULK_IDS) throw new ValidationFailure({ ids: `may not have more than ${MAX_BULK_IDS} items` });
  const patch = parseNumberUpdate(body, ["ids"]);
  const missing = (ids as number[]).filter((id) => !ctx.store.numberOf(ctx.org, id));
  if (missing.length > 0) return notFound(`Phone numbers not found: ${missing.join(", ")}`);
  const { destinations, sms_relay_url, ...syncPart } = patch;
  const unique = [...new Set(ids as number[])];
  for (const id of unique) Object.assign(ctx.store.numbers.get(id)!.data, syncPart);
  // Official bulk update: destination and SMS-callback changes apply asynchronously, so the
  // response still shows the old values for those.
  const items = unique.map((id) => ctx.store.numbers.get(id)!.data);
  if (destinations !== undefined || sms_relay_url !== undefined) {
    ctx.schedule(ctx.asyncDelayMs, () => {
      for (const id of unique) {
        const rec = ctx.store.numbers.get(id);
        if (!rec) continue; // released meanwhile
        if (sms_relay_url !== undefined) rec.data.sms_relay_url = sms_relay_url;
        if (destinations !== undefined) rec.data.destination = ctx.store.materializeDestinations(destinations);
      }
    });
  }
  return json(200, { items });
}

function releaseNumbers(ctx: RouteContext): SimResponse {
  const raw = [...ctx.query.getAll("ids"), ...ctx.query.getAll("ids[]")].flatMap((v) => v.split(","));
  if (raw.length === 0 || raw.every((v) => v === "")) throw new ValidationFailure({ ids: RULE_REQUIRED });
  if (!raw.every((v) => /^\d+$/.test(v))) throw new ValidationFailure({ ids: "must be integers" });
  const ids = [...new Set(raw.map(Number))];
  if (ids.length > MAX_BULK_IDS) throw new ValidationFailure({ ids: `may not have more than ${MAX_BULK_IDS} items` });
  const missing = ids.filter((id) => !ctx.store.numberOf(ctx.org, id));
  if (missing.length > 0) return notFound(`Phone numbers not found: ${missing.join(", ")}`);
  ctx.store.releaseNumbers(ids);
  return json(200, { success: true });
}

// ---- sub-accounts --------------------------------------------------------------------------

function subAccountsOf(ctx: RouteContext): SubAccount[] {
  return [...ctx.store.subAccounts.values()].map((r) => r.data).filter((s) => s.master_organization === ctx.org);
}

function requireMaster(ctx: RouteContext): SimResponse | undefined {
  return ctx.org === ctx.store.masterId ? undefined : forbidden("Sub-accounts cannot manage sub-accounts");
}

function listSubAccounts(ctx: RouteContext): SimResponse {
  const status = ctx.query.get("status");
  if (status !== null && status !== "enabled" && status !== "disabled") {
    throw new ValidationFailure({ status: "must be one of enabled, disabled" });
  }
  const all = subAccountsOf(ctx).filter((s) => status === null || s.status === status);
  // Variation: a server that ignores `page`/`per_page` (the official operation declares neither)
  // answers the whole listing to every request, without `pagination` (optional in the official
  // schema). A server that cuts a fixed-size page and ignores `page` cannot be listed completely at
  // all; the client refuses that one (test/reliability/hostile.test.ts, "repeats page 1").
  if (ctx.variations.has("sub-account-listing-ignores-paging")) return json(200, { sub_organizations: all });
  const { page, pagination } = paginate(all, ctx.query, ctx.maxPerPage);
  return json(200, { sub_organizations: page, pagination });
}

function findSubAccount(ctx: RouteContext): SubAccount | undefined {
  const id = pathId(ctx.params[0]);
  const rec = id === undefined ? undefined : ctx.store.subAccounts.get(id);
  return rec && rec.data.master_organization === ctx.org ? rec.data : undefined;
}

function getSubAccount(ctx: RouteContext): SimResponse {
  const sub = findSubAccount(ctx);
  return sub ? json(200, sub) : notFound(`Sub-account ${ctx.params[0]} not found`);
}

function createSubAccount(ctx: RouteContext): SimResponse {
  const denied = requireMaster(ctx);
  if (denied) return denied;
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["name", "default_destinations"], errors);
  const name = checkName(body.name, errors);
  const defaults = parseDefaultDestinations(body.default_destinations, errors);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  const created = ctx.store.createSubAccount(ctx.org, { name, default_destinations: defaults });
  return json(200, created);
}

function replaceSubAccount(ctx: RouteContext): SimResponse {
  const sub = findSubAccount(ctx);
  if (!sub) return notFound(`Sub-account ${ctx.params[0]} not found`);
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["name", "status", "default_destinations"], errors);
  const name = checkName(body.name, errors);
  if (body.status !== undefined && body.status !== "enabled" && body.status !== "disabled") {
    errors.status = "must be one of enabled, disabled";
  }
  const defaults = parseDefaultDestinations(body.default_destinations, errors);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  // Official PUT replaces: omitted fields revert to their defaults (status enabled, endpoints null).
  sub.name = name;
  sub.status = (body.status as "enabled" | "disabled" | undefined) ?? "enabled";
  sub.default_destinations = setEndpoints(defaults);
  return json(200, sub);
}

// ---- call webhooks -------------------------------------------------------------------------

const WEBHOOK_TYPES: readonly CallWebhookEventType[] = ["on-call", "post-call"];

function listCallWebhooks(ctx: RouteContext): SimResponse {
  const hooks = ctx.store.webhooksOf(ctx.org);
  return json(200, [...hooks].map(([event_type, url]) => ({ event_type, url })));
}

function upsertCallWebhook(ctx: RouteContext): SimResponse {
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["event_type", "url"], errors);
  if (body.event_type === undefined || body.event_type === null) errors.event_type = RULE_REQUIRED;
  else if (!WEBHOOK_TYPES.includes(body.event_type as CallWebhookEventType)) {
    errors.event_type = "must be one of on-call, post-call";
  }
  if (body.url === undefined || body.url === null) errors.url = RULE_REQUIRED;
  else if (!isValidUri(body.url)) errors.url = RULE_URI;
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  const eventType = body.event_type as CallWebhookEventType;
  ctx.store.webhooksOf(ctx.org).set(eventType, body.url as string);
  return json(201, { success: true, event_type: eventType, url: body.url });
}

function deleteCallWebhook(ctx: RouteContext): SimResponse {
  const eventType = ctx.query.get("event_type");
  if (eventType === null || eventType === "") throw new ValidationFailure({ event_type: RULE_REQUIRED });
  if (!WEBHOOK_TYPES.includes(eventType as CallWebhookEventType)) {
    throw new ValidationFailure({ event_type: "must be one of on-call, post-call" });
  }
  const hooks = ctx.store.webhooksOf(ctx.org);
  if (!hooks.delete(eventType as CallWebhookEventType)) return notFound(`No ${eventType} call webhook is configured`);
  return json(200, { success: true });
}

// ---- calls ---------------------------------------------------------------------------------

function findCall(ctx: RouteContext): { call: Call; streams: string[] } | undefined {
  const rec = ctx.store.calls.get(ctx.params[0]);
  return rec && rec.organization === ctx.org ? rec : undefined;
}

function startCall(ctx: RouteContext): SimResponse {
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["from", "to", "callback_url", "recording", "voicemail_detection", "tag", "timeout"], errors);
  // Seed 4.2: `from` must be an active number of the account.
  if (body.from === undefined || body.from === null || body.from === "") errors.from = RULE_REQUIRED;
  else {
    const digits = typeof body.from === "string" ? body.from.replace(/^\+/, "") : "";
    const id = ctx.store.numberIdByDigits.get(digits);
    const rec = id === undefined ? undefined : ctx.store.numberOf(ctx.org, id);
    if (!rec || rec.data.status !== "active") errors.from = "must be an active number of the account";
  }
  if (body.to === undefined || body.to === null || body.to === "") errors.to = RULE_REQUIRED;
  else if (typeof body.to !== "string" || !E164.test(body.to)) errors.to = "must be a phone number in E.164 format";
  if (body.callback_url === undefined || body.callback_url === null || body.callback_url === "") {
    errors.callback_url = RULE_REQUIRED;
  } else if (!isValidUri(body.callback_url)) errors.callback_url = RULE_URI;
  for (const key of ["recording", "voicemail_detection"] as const) {
    if (body[key] !== undefined && typeof body[key] !== "boolean") errors[key] = "must be a boolean";
  }
  if (body.tag !== undefined && typeof body.tag !== "string") errors.tag = "must be a string";
  if (body.timeout !== undefined && !(Number.isInteger(body.timeout) && (body.timeout as number) > 0)) {
    errors.timeout = "must be a positive integer";
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  const now = new Date().toISOString();
  const uuid = ctx.store.rng.uuid();
  const call: Call = {
    uuid,
    id: uuid, // official: `id` and its deprecated twin `uuid`
    direction: "outbound",
    event_type: "call_setup",
    event_time: now,
    event_payload: null,
    from: (body.from as string).replace(/^\+/, ""),
    to: body.to as string,
    call_started: now,
    call_answered: null,
    call_completed: null,
    machine_detected: false,
    tag: (body.tag as string | undefined) ?? "",
  };
  ctx.store.calls.set(call.uuid, { organization: ctx.org, call, streams: [] });
  return json(200, call);
}

function listCalls(ctx: RouteContext): SimResponse {
  const calls = [...ctx.store.calls.values()]
    .filter((r) => r.organization === ctx.org && r.call.call_completed === null)
    .map((r) => r.call);
  return json(200, { calls, success: true });
}

function checkStreamFields(body: JsonObject, errors: Record<string, string>): void {
  if (body.stream_url !== undefined && !(isValidUri(body.stream_url) && /^wss?:/i.test(body.stream_url))) {
    errors.stream_url = "must be a WebSocket URL";
  }
  if (body.stream_type !== undefined && body.stream_type !== "oneway" && body.stream_type !== "twoway") {
    errors.stream_type = "must be one of oneway, twoway";
  }
  const channels = ["inbound", "outbound", "both"];
  if (body.stream_channel !== undefined && !channels.includes(body.stream_channel as string)) {
    errors.stream_channel = "must be one of inbound, outbound, both";
  }
}

function answerCall(ctx: RouteContext): SimResponse {
  const rec = findCall(ctx);
  if (!rec) return notFound(`Call ${ctx.params[0]} not found`);
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["call_recording", "call_transcription", "stream_url", "stream_type", "stream_channel"], errors);
  for (const key of ["call_recording", "call_transcription"] as const) {
    if (body[key] !== undefined && typeof body[key] !== "boolean") errors[key] = "must be a boolean";
  }
  checkStreamFields(body, errors);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  // Seed part 3: only an inbound call that has not been answered can move to answered.
  if (rec.call.direction !== "inbound") throw new ValidationFailure({}, "Only inbound calls can be answered");
  if (rec.call.call_answered !== null) throw new ValidationFailure({}, "The call is already answered");
  const now = new Date().toISOString();
  rec.call.call_answered = now;
  // Official Call.event_type enum: `answered` (the seed shows only `call_setup`).
  rec.call.event_type = "answered";
  rec.call.event_time = now;
  if (typeof body.stream_url === "string") rec.streams.push(ctx.store.rng.uuid());
  return json(200, { success: true });
}

function startStream(ctx: RouteContext): SimResponse {
  const rec = findCall(ctx);
  if (!rec) return notFound(`Call ${ctx.params[0]} not found`);
  const body = bodyObject(ctx);
  const errors: Record<string, string> = {};
  rejectUnknown(body, ["stream_url", "stream_type", "stream_channel"], errors);
  checkStreamFields(body, errors);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  const streamId = ctx.store.rng.uuid();
  rec.streams.push(streamId);
  return json(200, { success: true, stream_id: streamId });
}

// ---- 2FA, 10DLC, messages (master organisation's data) -------------------------------------

function twoFaEvents(ctx: RouteContext): SimResponse {
  const rec = ctx.org === ctx.store.masterId ? ctx.store.twoFaSessions.get(ctx.params[0]) : undefined;
  if (!rec) return notFound(`2FA session ${ctx.params[0]} not found`);
  // Seed 4.6: in the order they occurred.
  const events = [...rec.session.events].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  return json(200, events);
}

/** Each service's sessions by UTC day, built once: seeded 2FA data is never changed by a route. */
const SESSION_DAYS = new WeakMap<SimSeedTwoFaService, Map<string, SimSeedTwoFaSession[]>>();

/** The service's sessions created on the days `from` to `to` (inclusive), in seed order within a day. */
function sessionsByDay(service: SimSeedTwoFaService, from: string, to: string): SimSeedTwoFaSession[] {
  let days = SESSION_DAYS.get(service);
  if (!days) {
    days = new Map();
    for (const s of service.sessions) {
      const t = Date.parse(s.created_at);
      const day = Number.isNaN(t) ? "" : new Date(t).toISOString().slice(0, 10);
      let list = days.get(day);
      if (!list) days.set(day, (list = []));
      list.push(s);
    }
    SESSION_DAYS.set(service, days);
  }
  const out: SimSeedTwoFaSession[] = [];
  for (const [day, list] of [...days.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (day >= from && day <= to) out.push(...list);
  return out;
}

function twoFaSessions(ctx: RouteContext): SimResponse {
  const service = ctx.org === ctx.store.masterId ? ctx.store.twoFaServices.get(ctx.params[0]) : undefined;
  const errors: Record<string, string> = {};
  const from = ctx.query.get("from");
  const to = ctx.query.get("to");
  for (const [key, v] of [["from", from], ["to", to]] as const) {
    if (v === null || v === "") errors[key] = RULE_REQUIRED;
    else if (!isIsoDate(v)) errors[key] = "must be a date in YYYY-MM-DD format";
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  // Official: 404 "Returns when no verifications match the service and date range" — the same
  // answer for an unknown service and for a known one without sessions in the range.
  if (!service) return notFound("Sessions not found");
  const items = sessionsByDay(service, from!, to!)
    .map((s) => ({
      created_at: s.created_at,
      session_id: s.session_id,
      phone_number: s.phone_number,
      destination_country: s.destination_country ?? "US",
      status: s.status,
      charge: s.charge ?? "0.00",
      service_id: service.service_id,
      service_name: service.service_name,
    }));
  if (items.length === 0) return notFound("Sessions not found");
  return json(200, items);
}

function listBrands(ctx: RouteContext): SimResponse {
  const brands = ctx.org === ctx.store.masterId ? [...ctx.store.brands.values()] : [];
  const { page, pagination } = paginate(brands, ctx.query, ctx.maxPerPage);
  return json(200, {
    items: page.map(({ vettings: _vettings, ...brand }) => brand),
    pagination,
  });
}

function brandVettings(ctx: RouteContext): SimResponse {
  const brand = ctx.org === ctx.store.masterId ? ctx.store.brands.get(ctx.params[0]) : undefined;
  if (!brand) return notFound(`Brand ${ctx.params[0]} not found`);
  return json(200, brand.vettings ?? []);
}

function listMessages(ctx: RouteContext): SimResponse {
  const type = ctx.query.get("type");
  if (type !== null && type !== "inbound" && type !== "outbound") {
    throw new ValidationFailure({ type: "must be one of inbound, outbound" });
  }
  const all = ctx.org === ctx.store.masterId ? ctx.store.messages : [];
  const selected = all.filter((m) => type === null || m.direction === undefined || m.direction === type);
  const { page, pagination } = paginate(selected, ctx.query, ctx.maxPerPage);
  return json(200, { items: page, pagination });
}

function listTrunks(ctx: RouteContext): SimResponse {
  const { page, pagination } = paginate(listTrunksOf(ctx.store, ctx.org), ctx.query, ctx.maxPerPage);
  return json(200, { sip_trunks: page, pagination });
}

function route(
  method: string,
  path: string,
  resource: Scope,
  handle: (ctx: RouteContext) => SimResponse,
  extra: Pick<Route, "response" | "validationStatus"> = {},
): Route {
  return { method, pattern: new RegExp(`^${path}/?$`), resource, handle, ...extra };
}

/** The route table. Order matters where patterns overlap (`/v1/calls/webhooks` before `/v1/calls/{id}`). */
export const ROUTES: readonly Route[] = [
  route("GET", "/v1/numbers", "numbers", listNumbers, { response: "number-list" }),
  route("PATCH", "/v1/numbers", "numbers", bulkPatchNumbers, { response: "number-bulk-update" }),
  // Official: the release declares 422 for a validation error (the updates declare 400).
  route("DELETE", "/v1/numbers", "numbers", releaseNumbers, { validationStatus: 422 }),
  route("GET", "/v1/numbers/([^/]+)", "numbers", getNumber, { response: "number" }),
  route("PATCH", "/v1/numbers/([^/]+)", "numbers", patchNumber, { response: "number" }),
  route("GET", "/v1/sub-organizations", "subaccounts", listSubAccounts, { response: "sub-account-list" }),
  route("POST", "/v1/sub-organizations", "subaccounts", createSubAccount, { response: "sub-account" }),
  route("GET", "/v1/sub-organizations/([^/]+)", "subaccounts", getSubAccount, { response: "sub-account" }),
  route("PUT", "/v1/sub-organizations/([^/]+)", "subaccounts", replaceSubAccount, { response: "sub-account" }),
  route("GET", "/v1/calls/webhooks", "webhooks", listCallWebhooks, { response: "call-webhook-list" }),
  route("POST", "/v1/calls/webhooks", "webhooks", upsertCallWebhook, { response: "call-webhook" }),
  route("DELETE", "/v1/calls/webhooks", "webhooks", deleteCallWebhook),
  route("POST", "/v1/calls", "calls", startCall, { response: "call" }),
  route("GET", "/v1/calls", "calls", listCalls, { response: "call-list" }),
  route("POST", `/v1/calls/${UUID_SEGMENT}/answer`, "calls", answerCall),
  route("POST", `/v1/calls/${UUID_SEGMENT}/streams`, "calls", startStream),
  route("GET", "/v1/two-fa/session/([^/]+)/events", "two_fa", twoFaEvents, { response: "two-fa-event-list" }),
  route("GET", "/v1/two-fa/service/([^/]+)/sessions", "two_fa", twoFaSessions, { response: "two-fa-session-list" }),
  ...MESSAGING_ROUTES,
  route("GET", "/v3/10dlc/brands", "campaigns", listBrands, { response: "brand-list" }),
  route("GET", "/v3/10dlc/brands/([^/]+)/vettings", "campaigns", brandVettings, { response: "brand-vetting-list" }),
  route("GET", "/v3/messages", "messages", listMessages),
  route("GET", "/v1/trunks", "trunks", listTrunks, { response: "trunk-list" }),
  route("POST", "/v1/trunks", "trunks", createTrunk, { response: "trunk" }),
  route("GET", "/v1/trunks/([^/]+)", "trunks", getTrunk, { response: "trunk" }),
  route("PUT", "/v1/trunks/([^/]+)", "trunks", replaceTrunk, { response: "trunk" }),
  route("DELETE", "/v1/trunks/([^/]+)", "trunks", deleteTrunk),
];

/** Find the route for a request; `params` are the decoded path captures. */
export function matchRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(path);
    if (m) return { route: r, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return undefined;
}

