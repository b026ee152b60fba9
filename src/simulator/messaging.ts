/**
 * The simulator's SMS Sender IDs, 10DLC Campaigns (their linked numbers) and the account profile
 * (with its write-only callback defaults), per the official document. Kept apart from store.ts and
 * routes.ts: the store holds one `MessagingStore`, the route table spreads `MESSAGING_ROUTES`.
 *
 * - Sender IDs: list, create (201), retrieve, delete; no update. A `sender_id` is held once.
 * - Campaign numbers: list, link, unlink. A linked number is `PENDING`, then `APPROVED` after
 *   `asyncDelayMs` (a number seeded with another status keeps it); Wavix then creates its numeric
 *   Sender ID, and unlinking deletes that Sender ID (official). A 404 names the Brand or the Campaign.
 * - Profile: `GET /v1/profile` answers the official ProfileResponse, which has no callback URL;
 *   `PUT /v1/profile` stores `sms_relay_url`/`dlr_relay_url` where only tests (and `dump`) see them.
 */
import type { CampaignNumber, SenderId } from "../client/types";
import { json, notFound, type SimResponse, ValidationFailure } from "./http";
import type { RouteContext, Route } from "./routes";
import type { SeededRandom } from "./rng";
import type { Scope } from "./types";
import { isObject, isValidUri, RULE_URI } from "./validate";

/** A Campaign as seeded (`campaigns:` of the seed): its Brand must be seeded too. */
export interface SimSeedCampaign {
  brand_id: string;
  campaign_id: string;
  /** Linked numbers (digits) with their status. @default [] */
  numbers?: CampaignNumber[];
  [key: string]: unknown;
}

/** A Sender ID as seeded; `id` is made when absent. */
export type SimSeedSenderId = Omit<SenderId, "id"> & { id?: string };

export interface SimMessagingSeed {
  senderIds?: SimSeedSenderId[];
  campaigns?: SimSeedCampaign[];
  /** Profile fields served by `GET /v1/profile` (the official ProfileResponse); defaults fill the rest. */
  profile?: Record<string, unknown>;
  /** The account's callback defaults (write-only: never served). */
  callbacks?: { sms_relay_url?: string; dlr_relay_url?: string };
}

interface CampaignRecord {
  data: Record<string, unknown> & { brand_id: string; campaign_id: string };
  numbers: Map<string, string>;
}

function profileDefaults(id: number): Record<string, unknown> {
  return {
    id,
    email: "owner@demo.example",
    first_name: "Demo",
    last_name: "Owner",
    phone: "15551230001",
    additional_info: null,
    contact_email: null,
    timezone: "UTC",
    job_title: null,
    default_short_link_endpoint: null,
    default_destinations: [],
    company_info: { name: "Demo Co", industry: "telecommunications", address: null, attn_contact_name: null, vat_number: null, country: { country_name: "United States", country_id: 1 } },
  };
}

/** The rest of the fields the official TenDLCCampaign requires (wavix-sync reads only the two ids). */
function campaignDefaults(brandId: string, campaignId: string): Record<string, unknown> {
  return {
    affiliate_marketing: false, age_gated: false, auto_renewal: true, last_bill_date: null, next_bill_date: null,
    direct_lending: false, embedded_links: false, embedded_phones: false, embedded_link_sample: null,
    brand_id: brandId, campaign_id: campaignId, description: "Simulated campaign", optin_workflow: "Web form",
    feedback: null, help: true, help_keywords: "HELP", help_message: "Reply HELP for help", optin: true,
    optin_keywords: "START", optin_message: "You are opted in", optout: true, optout_keywords: "STOP",
    optout_message: "You are opted out", name: `Campaign ${campaignId}`, created_at: "2026-10-22T10:00:00",
    sample1: "Your code is 123456", sample2: "Your order has shipped", sample3: null, sample4: null, sample5: null,
    updated_at: "2026-10-22T10:00:00", mock: false, usecase: "2FA", monthly_fee: "10.0",
    terms_conditions: null, privacy_policy: null, status: "ACTIVE", phone_numbers: [],
  };
}

export class MessagingStore {
  /** Sender IDs by id, in creation order. */
  readonly senderIds = new Map<string, SenderId>();
  /** Campaigns by `brand/campaign`. */
  readonly campaigns = new Map<string, CampaignRecord>();
  readonly profile: Record<string, unknown>;
  /** What `PUT /v1/profile` stored as callback defaults: never served (the official answer has none). */
  readonly callbacks: { sms_relay_url?: string; dlr_relay_url?: string };

  constructor(
    seed: SimMessagingSeed,
    masterId: number,
    private readonly rng: SeededRandom,
  ) {
    for (const s of seed.senderIds ?? []) {
      const id = s.id ?? rng.uuid();
      this.senderIds.set(id, { ...s, id });
    }
    for (const c of seed.campaigns ?? []) {
      const { numbers, ...rest } = c;
      this.campaigns.set(`${c.brand_id}/${c.campaign_id}`, {
        data: { ...campaignDefaults(c.brand_id, c.campaign_id), ...rest },
        numbers: new Map((numbers ?? []).map((n) => [n.number, n.status])),
      });
    }
    this.profile = { ...profileDefaults(masterId), ...(seed.profile ?? {}), id: masterId };
    this.callbacks = { ...(seed.callbacks ?? {}) };
  }

  senderIdByName(name: string): SenderId | undefined {
    for (const s of this.senderIds.values()) if (s.sender_id === name) return s;
    return undefined;
  }

  createSenderId(fields: Omit<SenderId, "id">): SenderId {
    const created: SenderId = { id: this.rng.uuid(), ...fields };
    this.senderIds.set(created.id, created);
    return created;
  }

  campaign(brandId: string, campaignId: string): CampaignRecord | undefined {
    return this.campaigns.get(`${brandId}/${campaignId}`);
  }

  dump(): Record<string, unknown> {
    return {
      senderIds: [...this.senderIds.values()],
      campaigns: [...this.campaigns.values()].map((c) => ({ ...c.data, numbers: [...c.numbers].map(([number, status]) => ({ number, status })) })),
      profile: this.profile,
      callbacks: this.callbacks,
    };
  }
}

// ---- routes ----------------------------------------------------------------------------------

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
  for (const k of ["sms_relay_url", "dlr_relay_url"] as const) if (typeof body[k] === "string") m.callbacks[k] = body[k] as string;
  for (const [k, v] of Object.entries(body)) if (PROFILE_FIELDS[k] && typeof v === "string") m.profile[PROFILE_FIELDS[k]] = v;
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
