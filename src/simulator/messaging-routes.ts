/**
 * The routes of the simulator's Sender IDs, 10DLC Campaign numbers and profile (the records and
 * their rules: messaging.ts). Spread into the route table (routes.ts); they never import it.
 */
import type { SenderId } from "../client/types";
import { json, notFound, type SimResponse, ValidationFailure } from "./http";
import { profileDefaults, type CampaignRecord } from "./messaging";
import type { Route, RouteContext } from "./route-types";
import type { Scope } from "./types";
import { isObject, isValidUri, RULE_URI } from "./validate";

function bodyObject(ctx: RouteContext): Record<string, unknown> {
  if (ctx.body === undefined) return {};
  if (!isObject(ctx.body)) throw new ValidationFailure({ body: "must be a JSON object" });
  return ctx.body;
}

/** 10DLC, Sender IDs and the profile are the master organisation's. */
const isMaster = (ctx: RouteContext): boolean => ctx.org === ctx.store.masterId;

function listSenderIds(ctx: RouteContext): SimResponse {
  return json(200, { items: isMaster(ctx) ? [...ctx.store.messaging.senderIds.values()] : [] });
}

function findSenderId(ctx: RouteContext): SenderId | undefined {
  return isMaster(ctx) ? ctx.store.messaging.senderIds.get(ctx.params[0]) : undefined;
}

function getSenderId(ctx: RouteContext): SimResponse {
  const s = findSenderId(ctx);
  return s ? json(200, s) : notFound("Record not found");
}

function createSenderId(ctx: RouteContext): SimResponse {
  const body = bodyObject(ctx);
  const m = ctx.store.messaging;
  const name = body.sender_id as string;
  // Beyond the request schema: a name is held once, and a numeric one is a phone number.
  if (body.type === "numeric" && !/^[0-9]{5,15}$/.test(name)) throw new ValidationFailure({ sender_id: "must be a phone number" });
  if (m.senderIdByName(name)) throw new ValidationFailure({ sender_id: "has already been taken" });
  const created = m.createSenderId({
    sender_id: name,
    type: body.type as string,
    allowlisted_in: [...(body.countries as string[])],
    usecase: body.usecase as string,
    samples: [...((body.samples as string[] | undefined) ?? [])],
  });
  return json(201, created);
}

function deleteSenderId(ctx: RouteContext): SimResponse {
  const s = findSenderId(ctx);
  if (!s) return notFound("Record not found");
  ctx.store.messaging.senderIds.delete(s.id);
  return json(200, { success: true });
}

function campaignOf(ctx: RouteContext): CampaignRecord | SimResponse {
  const [brandId, campaignId] = ctx.params;
  if (!isMaster(ctx) || !ctx.store.brands.has(brandId)) return notFound(`Brand ${brandId} not found`);
  const c = ctx.store.messaging.campaign(brandId, campaignId);
  return c ?? notFound(`Campaign ${campaignId} not found for brand ${brandId}`);
}

function listCampaignNumbers(ctx: RouteContext): SimResponse {
  const rec = campaignOf(ctx);
  if ("raw" in rec) return rec;
  return json(200, {
    brand_id: rec.data.brand_id,
    campaign_id: rec.data.campaign_id,
    numbers: [...rec.numbers].map(([number, status]) => ({ number, status })),
  });
}

function linkCampaignNumber(ctx: RouteContext): SimResponse {
  const c = campaignOf(ctx);
  if ("raw" in c) return c;
  const number = ctx.params[2];
  const id = ctx.store.numberIdByDigits.get(number);
  if (id === undefined || !ctx.store.numberOf(ctx.org, id)) return notFound(`Phone number ${number} not found`);
  if (c.numbers.has(number)) return json(200, { success: true });
  // A number is linked to one Campaign: linking it elsewhere moves it.
  for (const other of ctx.store.messaging.campaigns.values()) other.numbers.delete(number);
  c.numbers.set(number, "PENDING");
  ctx.schedule(ctx.asyncDelayMs, () => {
    if (c.numbers.get(number) !== "PENDING") return;
    c.numbers.set(number, "APPROVED");
    // Official: Wavix creates a Sender ID once the number is approved.
    const m = ctx.store.messaging;
    if (!m.senderIdByName(number)) m.createSenderId({ sender_id: number, type: "numeric", allowlisted_in: ["US"], usecase: "transactional", samples: [] });
  });
  return json(200, { success: true });
}

function unlinkCampaignNumber(ctx: RouteContext): SimResponse {
  const c = campaignOf(ctx);
  if ("raw" in c) return c;
  const number = ctx.params[2];
  if (!c.numbers.delete(number)) return notFound(`Phone number ${number} is not linked to campaign ${ctx.params[1]}`);
  // Official: the associated Sender ID is deleted too.
  const m = ctx.store.messaging;
  const s = m.senderIdByName(number);
  if (s && s.type === "numeric") m.senderIds.delete(s.id);
  return json(200, { success: true });
}

function listCampaigns(ctx: RouteContext): SimResponse {
  const all = isMaster(ctx) ? [...ctx.store.messaging.campaigns.values()].map((c) => ({ ...c.data, phone_numbers: [...c.numbers.keys()] })) : [];
  const errors: Record<string, string> = {};
  const int = (name: string, fallback: number): number => {
    const raw = ctx.query.get(name);
    if (raw === null || raw === "") return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      errors[name] = "must be an integer of at least 1";
      return fallback;
    }
    return Number(raw);
  };
  const page = int("page", 1);
  const perPage = Math.min(int("per_page", 25), ctx.maxPerPage);
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  return json(200, {
    items: all.slice((page - 1) * perPage, page * perPage),
    pagination: { current_page: page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) },
  });
}

/** `GET /v1/profile`: the organisation the key authenticates as (a sub-account's key: its own). */
function getProfile(ctx: RouteContext): SimResponse {
  if (!isMaster(ctx)) return json(200, { ...profileDefaults(ctx.org), id: ctx.org });
  return json(200, ctx.store.messaging.profile);
}

const PROFILE_FIELDS: Record<string, string> = {
  additional_info: "additional_info",
  contacts: "contact_email",
  default_short_link_endpoint: "default_short_link_endpoint",
  first_name: "first_name",
  last_name: "last_name",
  phone: "phone",
  time_zone: "timezone",
  job_title: "job_title",
};

function updateProfile(ctx: RouteContext): SimResponse {
  if (!isMaster(ctx)) return notFound("Record not found");
  const body = bodyObject(ctx);
  const m = ctx.store.messaging;
  const errors: Record<string, string> = {};
  // The callback URLs must be URLs (what they are for); the rest is the request schema's.
  for (const k of ["sms_relay_url", "dlr_relay_url"] as const) if (body[k] !== undefined && !isValidUri(body[k])) errors[k] = RULE_URI;
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  if (ctx.profilePutReplaces) return replaceProfile(ctx, body);
  for (const k of ["sms_relay_url", "dlr_relay_url"] as const) if (typeof body[k] === "string") m.callbacks[k] = body[k] as string;
  for (const [k, v] of Object.entries(body)) if (PROFILE_FIELDS[k] && typeof v === "string") m.profile[PROFILE_FIELDS[k]] = v;
  return json(200, m.profile);
}

/** A country's English name from its two-letter code (what `company_info.country` shows), or null. */
function countryName(code: unknown): string | null {
  if (typeof code !== "string" || !/^[A-Z]{2}$/.test(code)) return null;
  const name = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" }).of(code);
  return name ?? null;
}

/**
 * `profilePutReplaces`: the PUT sets every field of the official ProfileUpdateRequest, and one it
 * leaves out is cleared (`timezone`, which the answer never shows as null, back to UTC).
 */
function replaceProfile(ctx: RouteContext, body: Record<string, unknown>): SimResponse {
  const m = ctx.store.messaging;
  for (const k of ["sms_relay_url", "dlr_relay_url"] as const) {
    if (typeof body[k] === "string") m.callbacks[k] = body[k] as string;
    else delete m.callbacks[k];
  }
  for (const [from, to] of Object.entries(PROFILE_FIELDS)) m.profile[to] = typeof body[from] === "string" ? body[from] : to === "timezone" ? "UTC" : null;
  const c = body.company_info;
  if (c !== null && typeof c === "object") {
    const ci = c as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v : null);
    m.profile.company_info = {
      name: text(ci.name),
      industry: text(ci.industry),
      address: text(ci.billing_address),
      attn_contact_name: text(ci.attn_contact_name),
      vat_number: text(ci.vat_number),
      country: { country_name: countryName(ci.country_code), country_id: null },
    };
  } else {
    m.profile.company_info = null;
  }
  return json(200, m.profile);
}

function route(method: string, path: string, resource: Scope, handle: (ctx: RouteContext) => SimResponse, response?: string): Route {
  return { method, pattern: new RegExp(`^${path}/?$`), resource, handle, ...(response ? { response } : {}) };
}

const CAMPAIGN = "/v3/10dlc/brands/([^/]+)/campaigns/([^/]+)";

/** Spread into the route table (src/simulator/routes.ts) before `/v3/10dlc/brands/...` catch-alls. */
export const MESSAGING_ROUTES: readonly Route[] = [
  route("GET", "/v3/messages/sender-ids", "messages", listSenderIds, "sender-id-list"),
  route("POST", "/v3/messages/sender-ids", "messages", createSenderId, "sender-id"),
  route("GET", "/v3/messages/sender-ids/([^/]+)", "messages", getSenderId, "sender-id"),
  route("DELETE", "/v3/messages/sender-ids/([^/]+)", "messages", deleteSenderId),
  route("GET", "/v3/10dlc/brands/campaigns", "campaigns", listCampaigns, "campaign-list"),
  route("GET", `${CAMPAIGN}/numbers`, "campaigns", listCampaignNumbers, "campaign-number-list"),
  route("POST", `${CAMPAIGN}/numbers/([^/]+)`, "campaigns", linkCampaignNumber),
  route("DELETE", `${CAMPAIGN}/numbers/([^/]+)`, "campaigns", unlinkCampaignNumber),
  route("GET", "/v1/profile", "account", getProfile, "profile"),
  route("PUT", "/v1/profile", "account", updateProfile, "profile"),
];
