/**
 * Public types of the local Wavix API simulator (docs/ARCHITECTURE.md, `src/simulator`).
 * The simulator is the seed spec made executable plus the official operations of docs/CONTRACT.md part 2.
 */
import type {
  BrandVetting,
  Call,
  CallWebhookEventType,
  DefaultDestinations,
  TwoFaEvent,
  WavixNumber,
} from "../client/types";
import type { SimVariation } from "./variations";
import type { SimSeedCampaign, SimSeedSenderId } from "./messaging";

export type { SimSeedCampaign, SimSeedSenderId } from "./messaging";
import type { SimSeedTrunk } from "./trunks";

export type { SimSeedTrunk } from "./trunks";

/** Resources a restricted key is scoped on (seed part 5, item 5). */
export const SCOPES = [
  "numbers",
  "trunks",
  "calls",
  "messages",
  "recordings",
  "campaigns",
  "two_fa",
  "validator",
  "webhooks",
  "embeddable",
  "billing",
  "account",
  "subaccounts",
] as const;

export type Scope = (typeof SCOPES)[number];

/** Permission level of a restricted key on one resource (seed part 5, item 4). */
export type ScopeLevel = "none" | "read" | "write";

/** An API key the simulator accepts. */
export interface SimApiKey {
  /** The secret itself. Never logged. */
  key: string;
  /**
   * Restricted key: one level per resource; a resource not listed is `none`.
   * @default undefined (unrestricted: full access, seed part 5 item 3)
   */
  restricted?: Partial<Record<Scope, ScopeLevel>>;
  /**
   * Organisation the key authenticates as (a sub-account id, or the master organisation id).
   * @default the master organisation of the seed
   */
  organization?: number;
}

/** One fault-injection rule; rules are evaluated per request, in order, each with its own counters. */
export interface FaultRule {
  /**
   * `status`: answer with `status` (and optional `retryAfter`, `body`, `contentType`) without doing the work;
   * `drop`: destroy the socket without an answer, without doing the work;
   * `commit-then-drop`: do the work (e.g. a create), then destroy the socket instead of answering;
   * `delay`: wait `delayMs`, then carry on (later rules still apply).
   */
  kind: "status" | "drop" | "commit-then-drop" | "delay";
  /** HTTP status for `kind: "status"`. @default 503 */
  status?: number;
  /** `Retry-After` header value: seconds (`"2"`) or an HTTP-date. @default none */
  retryAfter?: string;
  /** Raw body for `kind: "status"` (an HTML 502 page, truncated JSON...). @default a JSON error body */
  body?: string;
  /** Content type of `body`. @default "application/json" */
  contentType?: string;
  /** Fire on every Nth matching request (1-based: 2 means the 2nd, 4th, ...). @default every match */
  everyNth?: number;
  /** Fire with this probability (0..1) per matching request, from the simulator's seeded RNG. @default 1 */
  probability?: number;
  /** Fire at most this many times. @default unlimited */
  times?: number;
  /** Only requests with this method (case-insensitive). @default any */
  method?: string;
  /** Only requests whose path starts with this. @default any */
  pathPrefix?: string;
  /** Delay for `kind: "delay"`. @default 0 */
  delayMs?: number;
}

/** One entry of the request log. Never holds the key: `appid` is redacted from `query`. */
export interface SimRequestLogEntry {
  method: string;
  path: string;
  /** Query string as received, `appid` value replaced by `REDACTED`; "" when none. */
  query: string;
  status: number;
  /** ISO time the request arrived. */
  at: string;
  auth: "bearer" | "appid" | "none";
  /** The organisation the key authenticates as (the master's id, or a sub-account's); absent when none. */
  org?: number;
}

/** A number as seeded: the wire fields (defaults fill what is missing) plus the owning organisation. */
export type SimSeedNumber = Partial<WavixNumber> & {
  number: string;
  /** Owning organisation (a sub-account id); @default the master organisation */
  organization?: number;
};

export interface SimSeedSubAccount {
  id: number;
  name: string;
  api_key: string;
  status?: "enabled" | "disabled";
  created_at?: string;
  default_destinations?: DefaultDestinations;
  /** Features disabled for this sub-account (403 on their endpoints, seed 4.1). @default [] */
  disabledFeatures?: Scope[];
}

export interface SimSeedTwoFaSession {
  session_id: string;
  phone_number: string;
  destination_country?: string;
  /** e.g. `verified`, `failed`, `pending`. */
  status: string;
  created_at: string;
  /** Decimal text; @default the sum is not computed, "0.00" */
  charge?: string;
  events: TwoFaEvent[];
}

export interface SimSeedTwoFaService {
  service_id: string;
  service_name: string;
  sessions: SimSeedTwoFaSession[];
}

/** A vetting as seeded: `reasons` may be a single string, as the seed sample shows (seed 2.7). */
export type SimSeedVetting = Omit<BrandVetting, "reasons"> & { reasons: string[] | string | null };

export interface SimSeedBrand {
  brand_id: string;
  [key: string]: unknown;
  vettings?: SimSeedVetting[];
}

/** A call as seeded; `organization` defaults to the master organisation. */
export type SimSeedCall = Call & { organization?: number };

/** Everything the simulator's account holds at start. */
export interface SimSeed {
  /** Master organisation id. @default 1000 */
  organizationId?: number;
  /** Features disabled for the master organisation, e.g. `["numbers"]` (403, seed 4.1). @default [] */
  disabledFeatures?: Scope[];
  numbers?: SimSeedNumber[];
  subAccounts?: SimSeedSubAccount[];
  /** Call webhooks of the master organisation. */
  callWebhooks?: Array<{ event_type: CallWebhookEventType; url: string }>;
  calls?: SimSeedCall[];
  twoFaServices?: SimSeedTwoFaService[];
  brands?: SimSeedBrand[];
  /** SIP trunks (`GET /v1/trunks`): the record's fields, `organization` (default the master), `password` (write-only). */
  trunks?: SimSeedTrunk[];
  /** Messages returned by `GET /v3/messages` (shape free). */
  messages?: Array<Record<string, unknown>>;
  /** SMS Sender IDs of the master organisation (`GET /v3/messages/sender-ids`). */
  senderIds?: SimSeedSenderId[];
  /** 10DLC Campaigns (of seeded brands) with their linked numbers. */
  campaigns?: SimSeedCampaign[];
  /** Fields of `GET /v1/profile` (official ProfileResponse); defaults fill the rest. */
  profile?: Record<string, unknown>;
  /** The account's callback defaults `sms_relay_url`/`dlr_relay_url` (write-only: never served). */
  profileCallbacks?: { sms_relay_url?: string; dlr_relay_url?: string };
  /** Seed of the simulator RNG (ids, keys, fault probabilities). @default 1 */
  rngSeed?: number;
}

/** Options of `startSimulator`. */
/** `SimulatorOptions.rateLimit`. */
export interface SimRateLimit {
  /** Requests let through per second. */
  perSecond: number;
  /** Most requests let through at once after a quiet spell. @default perSecond (one second's worth) */
  burst?: number;
  /** The `Retry-After` of a refusal, in whole seconds; `null` sends none. @default 1 */
  retryAfterSeconds?: number | null;
}

export interface SimulatorOptions {
  /** Port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind; loopback unless you mean it. @default "127.0.0.1" */
  host?: string;
  /** Initial account. @default "demo" */
  seed?: SimSeed | "demo" | "empty";
  /** Accepted keys (sub-account `api_key`s are accepted as well). @default [{ key: "sim-demo-key" }] */
  apiKeys?: SimApiKey[];
  /** Every response delayed by this many ms. @default 0 */
  latencyMs?: number;
  /** Bulk PATCH `destinations` / `sms_relay_url` apply after this many ms (official bulk update). @default 300 */
  asyncDelayMs?: number;
  /** Largest `per_page` honoured; larger values are capped. @default 100 */
  maxPerPage?: number;
  /** Fault rules, evaluated per request in order. @default [] */
  faults?: FaultRule[];
  /**
   * A rate limit enforced without announcing it, as an API gateway does (the official document
   * states none; a test or the bench sets one): a token bucket of `perSecond` requests refilled
   * continuously, holding at most `burst`, shared by every key. A request beyond it is answered 429
   * `{success: false, message: "Too many requests"}` with `Retry-After: retryAfterSeconds` (none
   * when `null`), decided on arrival, after the latency, with nothing done. @default none
   */
  rateLimit?: SimRateLimit;
  /** Expose `/__sim/log`, `/__sim/state`, `/__sim/faults` for tests in other processes. @default false */
  control?: boolean;
  /**
   * Answers the official contract allows and real servers give (docs/SIMULATOR.md, "Variations"):
   * `empty-urls`, `bulk-without-items`, `sub-account-listing-ignores-paging`,
   * `optional-fields-absent`, `unknown-extra-fields`, `required-fields-only`; any combination.
   * @default [] (the simulator's own answers)
   */
  variations?: SimVariation[];
  /**
   * Refuse a number URL clear (`null`) with 400, as a server holding to the official update schema
   * (which has no null) would. @default false
   */
  refuseUrlClears?: boolean;
  /**
   * `PUT /v1/profile` replaces the profile, as a trunk or sub-account PUT replaces its record: every
   * field of the official ProfileUpdateRequest the PUT leaves out is cleared (profile fields to
   * null, `company_info` to null, the write-only `sms_relay_url`/`dlr_relay_url` removed). Stricter
   * than the official document ("Updates the profile"): the reading wavix-sync must survive
   * (docs/SIMULATOR.md). @default false (only the fields sent change)
   */
  profilePutReplaces?: boolean;
  /**
   * This simulator receives requests that break `schemas/api/*.request.schema.json` on purpose
   * (a test of error handling): still answered 400, but not recorded by the test suite's contract
   * check. Say so only in tests that mean it. @default false
   */
  expectBadRequests?: boolean;
  /**
   * Check each success answer against the response schemas (`schemas/api`) and list breaks in
   * `violations`. @default true inside the test suite (`WAVIX_SIM_VIOLATIONS_DIR` set), else false
   */
  checkResponses?: boolean;
}
