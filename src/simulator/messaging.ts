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
import type { SeededRandom } from "./rng";

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

export interface CampaignRecord {
  data: Record<string, unknown> & { brand_id: string; campaign_id: string };
  numbers: Map<string, string>;
}

export function profileDefaults(id: number): Record<string, unknown> {
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
