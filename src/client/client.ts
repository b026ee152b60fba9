/**
 * `WavixClient`: every API operation the product uses (docs/CONTRACT.md part 2), paths and versions
 * exactly as there. Wire concerns (auth, retries, errors) are in request.ts; this file only says
 * which path, which scope, which response schema, and normalises what the seed says varies.
 */
import { timingSafeEqual } from "node:crypto";
import { resolveBaseUrl } from "./base-url";
import { MissingApiKeyError } from "./errors/missing-api-key-error";
import { ResponseFormatError } from "./errors/response-format-error";
import {
  createSharedTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  rememberSecret,
  request,
  type ClientStats,
  type FetchLike,
  type RequestSpec,
  type SharedTransport,
  type TransportConfig,
} from "./request";
import { resolveRetryOptions, type RetryNotice, type RetryOptions } from "./retry";
import { DEFAULT_MAX_PAGES, walkPages, type PageRead } from "./pagination";
import type { PacerOptions, PacerState } from "./rate-limit";
import type {
  AnswerCallRequest,
  Brand,
  BrandListResponse,
  BrandVetting,
  Call,
  Campaign,
  CampaignNumberList,
  ProfileUpdate,
  SenderId,
  SenderIdCreate,
  CallWebhook,
  CallWebhookEventType,
  AccountProfile,
  MessageListQuery,
  MessageListResponse,
  NumberBulkUpdateResponse,
  NumberListResponse,
  NumberUpdate,
  Page,
  StartCallRequest,
  StartStreamRequest,
  StartStreamResponse,
  SubAccount,
  SubAccountCreate,
  SubAccountListResponse,
  SubAccountReplace,
  SipTrunk,
  SipTrunkListResponse,
  SipTrunkSummary,
  SipTrunkWrite,
  SuccessResponse,
  TwoFaEvent,
  TwoFaSession,
  WavixNumber,
} from "./types";

export interface WavixClientOptions {
  /**
   * Bearer key (seed part 5). Never logged, never put in a URL or an error.
   * @default process.env.WAVIX_API_KEY (MissingApiKeyError when neither is set)
   */
  apiKey?: string;
  /**
   * API root. Plain `http://` is refused unless the host is loopback.
   * @default process.env.WAVIX_BASE_URL, else "https://api.wavix.com"
   */
  baseUrl?: string;
  /**
   * The network (anything shaped like `fetch`). `nodeHttpFetch` (node-http-fetch.ts, what the CLI
   * uses) spends about half the CPU of the built-in fetch per listing page.
   * @default globalThis.fetch
   */
  fetch?: FetchLike;
  /**
   * Retry policy; see RetryOptions for each field's default.
   * @default 4 retries of GET/PUT/DELETE/PATCH on network errors, timeouts, 429, 502, 503, 504; POST only on 429
   */
  retry?: RetryOptions;
  /**
   * Per-attempt timeout, covering headers and body.
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * The whole request: every attempt and the backoff between them, from the first attempt's start
   * (Retry-After waits the server asks for are not counted). Past it the request fails with a
   * `TimeoutError` saying so, however many retries were left: a server dripping a byte a second
   * would otherwise cost 5 attempts × `timeoutMs`. An attempt near the deadline gets only what is left.
   * @default 4 × timeoutMs (2 minutes with the default timeout)
   */
  deadlineMs?: number;
  /**
   * Requests in flight at once, shared with clients made by `withApiKey`.
   * @default 8
   */
  concurrency?: number;
  /**
   * A fixed cap in requests per second (token bucket; the CLI's `--max-rps`), shared with clients
   * made by `withApiKey`. Without it the pace adapts to the server alone: bounded by `concurrency`,
   * slowed on 429/`Retry-After`, recovering gradually (rate-limit.ts).
   * @default Infinity (no fixed cap)
   */
  requestsPerSecond?: number;
  /**
   * Most pages one listing may take; a listing that claims or runs to more is an
   * `IncompleteListingError` (so an endless pagination costs a bounded number of requests).
   * @default 2000
   */
  maxPages?: number;
  /**
   * Largest response body accepted, in bytes, counted while it streams in (a larger one is a
   * `ResponseFormatError`, never read whole).
   * @default 16777216 (16 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Called before each retry with what is retried, why, and how long the wait is (the CLI prints a
   * line when the wait is long). Never receives the key.
   * @default a no-op
   */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Called as each page of a listing is read (this client's and those `withApiKey` derives): the
   * listing, the page, and the pages it claims. For progress on a terminal; never receives the key.
   * @default a no-op
   */
  onPage?: (read: PageRead) => void;
  /**
   * How pacing reacts to pushback (429, 503 with `Retry-After`); see PacerOptions for each
   * field's default (90 % of the rate the server lets through, +1 % an answer back up to it, 0.2 %
   * past it, +10 % a second, lifted after 30 s without pushback).
   * @default {}
   */
  pacing?: Omit<PacerOptions, "maxRequestsPerSecond" | "now">;
  /**
   * Receives contract-drift notices (a response that does not match `schemas/api`), scrubbed of
   * every key of the client family. A property the API added comes once per record kind and field,
   * with `info.additive` (harmless: ignored), so a front end may show it quietly.
   * @default a no-op
   */
  onWarning?: (message: string, info?: { additive?: boolean }) => void;
  /**
   * Where to set the key, named in {@link MissingApiKeyError} (the Pulumi provider names `wavix:apiKey`).
   * @default "set WAVIX_API_KEY (or pass apiKey to the client)"
   */
  missingApiKeyHint?: string;
  /**
   * What the key is called where the user set it, named in the errors that point at the key (401,
   * a base URL holding credentials): the Pulumi providers name `wavix:apiKey`.
   * @default "WAVIX_API_KEY"
   */
  apiKeyName?: string;
}

export interface ListNumbersParams {
  /** Full or partial phone number. */
  search?: string;
  /** @default 1 */
  page?: number;
  /** @default the API's (25) */
  perPage?: number;
}

export interface ListSubAccountsParams {
  /** @default 1 */
  page?: number;
  /** @default the API's (25) */
  perPage?: number;
  status?: "enabled" | "disabled";
}

export interface ListBrandsParams {
  /** @default 1 */
  page?: number;
  /** @default the API's (25) */
  perPage?: number;
  status?: string;
}

/** What the `iterate*Pages` methods take besides the listing's own parameters. */
export interface PageWalkOptions<T> {
  /**
   * Pages fetched ahead, concurrently, within the range the first page claims.
   * @default 1
   */
  prefetch?: number;
  /** The first page, when the caller already read it (saves a request). @default undefined */
  firstPage?: Page<T>;
}

/** Number properties the kinds iterate (seed 2.2 `destination`: a list). */
const NUMBER_ARRAYS = ["destination"] as const;

function query(params: Record<string, string | number | boolean | undefined | readonly (string | number)[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * A path segment. Ids come from the server's own answers, so they are checked before they shape a
 * request (issue #22): `..` would send `PATCH /v1/` (URL normalisation), an empty one another
 * route, and an integer id past 2^53 was already rounded by JSON parsing to another id.
 */
function segment(value: string | number, method: string, route: string): string {
  const ok = typeof value === "number" ? Number.isSafeInteger(value) && value > 0 : typeof value === "string" && value !== "" && value !== "." && value !== "..";
  if (!ok) {
    throw new ResponseFormatError(
      `refusing to send ${method} ${route} with the id ${JSON.stringify(value) ?? String(value)}: ${typeof value === "number" ? "not a positive integer the client can hold exactly (ids past 2^53 are rounded to another id)" : "not a usable path segment"}; the server's answer that gave it is malformed`,
      { method, path: route, status: 0 },
    );
  }
  return encodeURIComponent(String(value));
}

/** A numeric id checked as {@link segment} checks one, for ids sent in a query or a body. */
function integerIds(ids: readonly number[], method: string, route: string): readonly number[] {
  for (const id of ids) segment(id, method, route);
  return ids;
}

/** Seed 2.7: `reasons` is declared an array, a sample shows one string; always an array or null. */
export function normaliseReasons(reasons: unknown): string[] | null {
  if (reasons === null || reasons === undefined) return null;
  if (Array.isArray(reasons)) return reasons.map(String);
  return [String(reasons)];
}

/** `/v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}` with both ids checked and encoded. */
function campaignPath(brandId: string, campaignId: string, method: string, route: string): string {
  return `/v3/10dlc/brands/${segment(brandId, method, route)}/campaigns/${segment(campaignId, method, route)}`;
}

/** The API keys of a client family beyond the first client's own (the sub-accounts' it was given). */
const familyKeys = new WeakMap<SharedTransport, Set<string>>();
function keysOf(shared: SharedTransport): Set<string> {
  let keys = familyKeys.get(shared);
  if (keys === undefined) familyKeys.set(shared, (keys = new Set()));
  return keys;
}

export class WavixClient {
  readonly baseUrl: string;
  readonly #options: WavixClientOptions;
  readonly #maxPages: number;
  #config: TransportConfig;

  constructor(options: WavixClientOptions = {}) {
    const apiKey = options.apiKey ?? process.env.WAVIX_API_KEY;
    if (apiKey === undefined || apiKey.trim() === "") throw new MissingApiKeyError(options.missingApiKeyHint);
    // A key with whitespace or control characters would be refused by fetch with a message that
    // quotes the header value; refuse it here without echoing it.
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new TypeError("the Wavix API key contains spaces or control characters");
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
    const deadlineMs = options.deadlineMs ?? 4 * timeoutMs;
    if (!(deadlineMs > 0)) throw new RangeError(`deadlineMs must be positive, got ${deadlineMs}`);
    const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (typeof fetchImpl !== "function") throw new TypeError("no fetch available: pass the fetch option");
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (!Number.isInteger(maxPages) || maxPages < 1) throw new RangeError(`maxPages must be a positive integer, got ${maxPages}`);
    const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(maxResponseBytes > 0)) throw new RangeError(`maxResponseBytes must be positive, got ${maxResponseBytes}`);
    this.#maxPages = maxPages;
    const apiKeyName = options.apiKeyName ?? "WAVIX_API_KEY";
    this.baseUrl = resolveBaseUrl(options.baseUrl, process.env, apiKeyName);
    this.#options = { ...options };
    this.#config = {
      baseUrl: this.baseUrl,
      apiKey,
      fetch: fetchImpl,
      retry: resolveRetryOptions(options.retry),
      timeoutMs,
      deadlineMs,
      maxResponseBytes,
      onRetry: options.onRetry ?? (() => undefined),
      onWarning: options.onWarning ?? (() => undefined),
      apiKeyName,
      shared: createSharedTransport(options.concurrency ?? 8, options.requestsPerSecond ?? Infinity, options.pacing),
    };
  }

  /** Requests and retries sent by this client and every client derived with `withApiKey`. */
  get stats(): ClientStats {
    return this.#config.shared.stats;
  }

  /** The pacing in force (shared with clients derived with `withApiKey`): rate, slowdowns, pause. */
  get pacing(): PacerState {
    return this.#config.shared.pacer.state();
  }

  /**
   * A client with the same options and another key (a sub-account's, seed 5.11). It shares this
   * client's concurrency bound, rate limit and counters.
   */
  withApiKey(apiKey: string): WavixClient {
    const child = new WavixClient({ ...this.#options, apiKey });
    child.#config = { ...child.#config, shared: this.#config.shared };
    // Every client of the family scrubs every key of the family from its errors.
    rememberSecret(this.#config.shared, this.#config.apiKey);
    rememberSecret(this.#config.shared, apiKey);
    keysOf(this.#config.shared).add(this.#config.apiKey).add(apiKey);
    return child;
  }

  /**
   * A client of a subclass (`this`) that is `from` in every respect — key, options, shared
   * transport, counters — for the write gate (src/kit/gate/gate.ts), whose subclass is the only
   * place the write methods below are called from (test/architecture/client-writes.test.ts).
   */
  static sharing<T extends WavixClient>(this: new (options: WavixClientOptions) => T, from: WavixClient): T {
    const c = new this({ ...from.#options, apiKey: from.#config.apiKey });
    c.#config = from.#config;
    return c;
  }

  /**
   * Whether `value` is a key of this client's family (its own, a sub-account's it was given or
   * read): a value that must never be sent anywhere else, e.g. as a SIP trunk's password
   * (`password_env: WAVIX_API_KEY`). Never reveals the key; compared in constant time.
   */
  isApiKey(value: string): boolean {
    const given = Buffer.from(value);
    let hit = false;
    // The family's keys only: its secrets also hold the trunk passwords sent, and one password
    // given to two trunks is no API key.
    for (const key of [this.#config.apiKey, ...keysOf(this.#config.shared)]) {
      const k = Buffer.from(key);
      if (k.length === given.length && timingSafeEqual(k, given)) hit = true;
    }
    return hit;
  }

  /** Custom JSON output: never the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, stats: { ...this.stats } };
  }

  private call<T>(spec: RequestSpec): Promise<T> {
    return request<T>(this.#config, spec);
  }

  // ---- numbers (seed 4.1, official "My numbers") ----

  /** `GET /v1/numbers/{id}` (scope `numbers:read`). */
  getNumber(id: number): Promise<WavixNumber> {
    return this.call({ method: "GET", path: `/v1/numbers/${segment(id, "GET", "/v1/numbers/{id}")}`, scope: "numbers:read", schema: "number", arrayFields: NUMBER_ARRAYS });
  }

  /** `GET /v1/numbers?search=&page=&per_page=` → `{items, pagination}`. */
  listNumbers(params: ListNumbersParams = {}): Promise<NumberListResponse> {
    const q = query({ search: params.search, page: params.page, per_page: params.perPage });
    return this.call({ method: "GET", path: `/v1/numbers${q}`, scope: "numbers:read", schema: "number-list", list: "items", arrayFields: NUMBER_ARRAYS });
  }

  /** Every page of `listNumbers`, in order, checked for completeness (see pagination.ts). */
  iterateNumberPages(params: ListNumbersParams = {}, walk: PageWalkOptions<WavixNumber> = {}): AsyncGenerator<NumberListResponse> {
    const listing = `/v1/numbers${query({ search: params.search, per_page: params.perPage })}`;
    return this.pages(listing, (page) => this.listNumbers({ ...params, page }), (n) => n.id, params.page, { pageSize: params.perPage, ...walk });
  }

  /** `PATCH /v1/numbers/{id}`: only the fields sent change (official). */
  updateNumber(id: number, patch: NumberUpdate): Promise<WavixNumber> {
    return this.call({
      method: "PATCH",
      path: `/v1/numbers/${segment(id, "PATCH", "/v1/numbers/{id}")}`,
      body: patch,
      scope: "numbers:write",
      schema: "number",
    });
  }

  /**
   * `PATCH /v1/numbers` `{ids, ...patch}`: the same change to every listed number. Destination and
   * SMS-callback changes apply asynchronously (official), so the result may not show them yet.
   */
  async bulkUpdateNumbers(ids: readonly number[], patch: NumberUpdate): Promise<WavixNumber[]> {
    // No list guard: the official 200 answer makes `items` optional (the change is asynchronous),
    // so an answer without it is a success that shows nothing yet; read-back confirms the change.
    const result = await this.call<NumberBulkUpdateResponse | null>({
      method: "PATCH",
      path: "/v1/numbers",
      body: { ...patch, ids: integerIds(ids, "PATCH", "/v1/numbers") },
      scope: "numbers:write",
      schema: "number-bulk-update",
      list: "items",
      listOptional: true,
    });
    return result?.items ?? [];
  }

  /** `DELETE /v1/numbers?ids=1&ids=2` (repeated `ids`, official). */
  releaseNumbers(ids: readonly number[]): Promise<SuccessResponse> {
    if (ids.length === 0) return Promise.resolve({ success: true });
    return this.call({ method: "DELETE", path: `/v1/numbers${query({ ids: integerIds(ids, "DELETE", "/v1/numbers") })}`, scope: "numbers:write" });
  }

  // ---- sub-accounts (seed 4.8, official) ----

  /** `GET /v1/sub-organizations` (paged); the wire's `sub_organizations` is returned as `items`. */
  async listSubAccounts(params: ListSubAccountsParams = {}): Promise<Page<SubAccount>> {
    const q = query({ page: params.page, per_page: params.perPage, status: params.status });
    const result = await this.call<Partial<SubAccountListResponse> | null>({
      method: "GET",
      path: `/v1/sub-organizations${q}`,
      scope: "subaccounts:read",
      schema: "sub-account-list",
      list: "sub_organizations",
      listOptional: true,
      secretField: "api_key",
    });
    // The official answer makes both keys optional. An absent list is an empty account only when
    // the pagination says so (total 0); anything else cannot be used as a complete listing.
    const items = result?.sub_organizations;
    if (Array.isArray(items)) return { items, pagination: result!.pagination! };
    if (items === undefined && result?.pagination?.total === 0) return { items: [], pagination: result.pagination };
    throw new ResponseFormatError(
      `expected a JSON object with a "sub_organizations" array (or pagination total 0), got ${result === null ? "null" : typeof result === "object" ? "an object without it" : typeof result} (200)`,
      { method: "GET", path: "/v1/sub-organizations", status: 200, body: undefined },
    );
  }

  /** Every page of `listSubAccounts`, in order, checked for completeness (see pagination.ts). */
  iterateSubAccountPages(params: ListSubAccountsParams = {}, walk: PageWalkOptions<SubAccount> = {}): AsyncGenerator<Page<SubAccount>> {
    const listing = `/v1/sub-organizations${query({ per_page: params.perPage, status: params.status })}`;
    return this.pages(listing, (page) => this.listSubAccounts({ ...params, page }), (a) => a.id, params.page, { pageSize: params.perPage, ...walk });
  }

  /** `GET /v1/sub-organizations/{id}`. */
  getSubAccount(id: number): Promise<SubAccount> {
    return this.call({
      method: "GET",
      path: `/v1/sub-organizations/${segment(id, "GET", "/v1/sub-organizations/{id}")}`,
      scope: "subaccounts:read",
      schema: "sub-account",
      secretField: "api_key",
    });
  }

  /**
   * `POST /v1/sub-organizations`. Not retried when the outcome is unknown: on an error with
   * `outcomeUnknown`, list by name before trying again (docs/CONTRACT.md part 8).
   */
  createSubAccount(body: SubAccountCreate): Promise<SubAccount> {
    return this.call({
      method: "POST",
      path: "/v1/sub-organizations",
      body,
      scope: "subaccounts:write",
      schema: "sub-account",
      secretField: "api_key",
    });
  }

  /** `PUT /v1/sub-organizations/{id}`: replaces; omitted fields revert to defaults. */
  replaceSubAccount(id: number, body: SubAccountReplace): Promise<SubAccount> {
    return this.call({
      method: "PUT",
      path: `/v1/sub-organizations/${segment(id, "PUT", "/v1/sub-organizations/{id}")}`,
      body,
      scope: "subaccounts:write",
      schema: "sub-account",
      secretField: "api_key",
    });
  }

  // ---- SIP trunks (official) ----

  /** `GET /v1/trunks?page=&per_page=` (scope `trunks:read`); the wire's `sip_trunks` is returned as `items`. */
  async listTrunks(params: { page?: number; perPage?: number } = {}): Promise<Page<SipTrunkSummary>> {
    const q = query({ page: params.page, per_page: params.perPage });
    const result = await this.call<SipTrunkListResponse>({
      method: "GET",
      path: `/v1/trunks${q}`,
      scope: "trunks:read",
      schema: "trunk-list",
      list: "sip_trunks",
      listOptional: true,
      secretField: "access_token",
    });
    // The official list is nullable: null (or absent) is an empty page only when the pagination says so.
    const items = result?.sip_trunks;
    if (Array.isArray(items)) return { items, pagination: result.pagination };
    if ((items === null || items === undefined) && result?.pagination?.total === 0) return { items: [], pagination: result.pagination };
    throw new ResponseFormatError(`expected a JSON object with a "sip_trunks" array (or pagination total 0) (200)`, {
      method: "GET",
      path: "/v1/trunks",
      status: 200,
      body: undefined,
    });
  }

  /** Every page of `listTrunks`, in order, checked for completeness (see pagination.ts). */
  iterateTrunkPages(params: { perPage?: number } = {}, walk: PageWalkOptions<SipTrunkSummary> = {}): AsyncGenerator<Page<SipTrunkSummary>> {
    const listing = `/v1/trunks${query({ per_page: params.perPage })}`;
    return this.pages(listing, (page) => this.listTrunks({ ...params, page }), (t) => t.id, undefined, { pageSize: params.perPage, ...walk });
  }

  /** `GET /v1/trunks/{id}`: the whole record (the listing carries fewer fields). */
  getTrunk(id: number): Promise<SipTrunk> {
    return this.call({
      method: "GET",
      path: `/v1/trunks/${segment(id, "GET", "/v1/trunks/{id}")}`,
      scope: "trunks:read",
      schema: "trunk",
      secretField: "access_token",
    });
  }

  /**
   * `POST /v1/trunks`. The password is remembered as a secret first, so no error of this client
   * family can print it (a server may echo a body back). Not retried when the outcome is unknown.
   */
  createTrunk(body: SipTrunkWrite): Promise<SipTrunk> {
    rememberSecret(this.#config.shared, body.password);
    return this.call({ method: "POST", path: "/v1/trunks", body, scope: "trunks:write", schema: "trunk", secretField: "access_token" });
  }

  /** `PUT /v1/trunks/{id}`: replaces; omitted fields revert to defaults (official). */
  replaceTrunk(id: number, body: SipTrunkWrite): Promise<SipTrunk> {
    rememberSecret(this.#config.shared, body.password);
    return this.call({
      method: "PUT",
      path: `/v1/trunks/${segment(id, "PUT", "/v1/trunks/{id}")}`,
      body,
      scope: "trunks:write",
      schema: "trunk",
      secretField: "access_token",
    });
  }

  /** `DELETE /v1/trunks/{id}`: permanent; stops call routing through the trunk. */
  deleteTrunk(id: number): Promise<SuccessResponse> {
    return this.call({ method: "DELETE", path: `/v1/trunks/${segment(id, "DELETE", "/v1/trunks/{id}")}`, scope: "trunks:write" });
  }

  // ---- call webhooks (official) ----

  /** `GET /v1/calls/webhooks`. */
  listCallWebhooks(): Promise<CallWebhook[]> {
    return this.call({ method: "GET", path: "/v1/calls/webhooks", scope: "webhooks:read", schema: "call-webhook-list", list: true });
  }

  /** `POST /v1/calls/webhooks` `{event_type, url}`: creates or replaces the webhook of that event. */
  upsertCallWebhook(eventType: CallWebhookEventType, url: string): Promise<CallWebhook> {
    return this.call({
      method: "POST",
      path: "/v1/calls/webhooks",
      body: { event_type: eventType, url },
      scope: "webhooks:write",
      schema: "call-webhook",
      // Upserts by event type (official): repeating it ends in the same state, so it retries like a PUT.
      idempotent: true,
    });
  }

  /** `DELETE /v1/calls/webhooks?event_type=`. */
  deleteCallWebhook(eventType: CallWebhookEventType): Promise<SuccessResponse> {
    return this.call({
      method: "DELETE",
      path: `/v1/calls/webhooks${query({ event_type: eventType })}`,
      scope: "webhooks:write",
    });
  }

  // ---- account (official "Profile") ----

  /**
   * `GET /v1/profile`: the account the key belongs to. Checked strictly (the account pin compares
   * its `id`): an answer that is not an object with a positive integer `id` is a ResponseFormatError.
   */
  async getAccountProfile(): Promise<AccountProfile> {
    const result = await this.call<unknown>({ method: "GET", path: "/v1/profile", scope: "account:read", schema: "profile" });
    const id = result !== null && typeof result === "object" && !Array.isArray(result) ? (result as { id?: unknown }).id : undefined;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) {
      const got =
        result === null || typeof result !== "object" || Array.isArray(result)
          ? (result === null ? "null" : Array.isArray(result) ? "an array" : typeof result)
          : id === undefined
            ? "an object without it"
            : `the id ${JSON.stringify(id) ?? String(id)}`;
      throw new ResponseFormatError(`expected a JSON object with a positive integer "id" (the account), got ${got} (200)`, {
        method: "GET",
        path: "/v1/profile",
        status: 200,
        body: undefined,
      });
    }
    return result as AccountProfile;
  }

  // ---- calls (seed 4.2–4.5) ----

  /** `POST /v1/calls` → the new Call. Never retried when the outcome is unknown. */
  startCall(body: StartCallRequest): Promise<Call> {
    return this.call({ method: "POST", path: "/v1/calls", body, scope: "calls:write", schema: "call" });
  }

  /** `GET /v1/calls` → the active calls (`{calls, success}` on the wire). */
  async listActiveCalls(): Promise<Call[]> {
    const result = await this.call<{ calls: Call[] }>({
      method: "GET",
      path: "/v1/calls",
      scope: "calls:read",
      schema: "call-list",
    });
    return result.calls;
  }

  /** `POST /v1/calls/{id}/answer` → `{success: true}`. */
  answerCall(uuid: string, body: AnswerCallRequest = {}): Promise<SuccessResponse> {
    return this.call({ method: "POST", path: `/v1/calls/${segment(uuid, "POST", "/v1/calls/{uuid}/answer")}/answer`, body, scope: "calls:write" });
  }

  /** `POST /v1/calls/{call_id}/streams` → `{success: true, stream_id}`. */
  startStream(callId: string, body: StartStreamRequest): Promise<StartStreamResponse> {
    return this.call({ method: "POST", path: `/v1/calls/${segment(callId, "POST", "/v1/calls/{call_id}/streams")}/streams`, body, scope: "calls:write" });
  }

  // ---- 2FA (seed 4.6, official) ----

  /** `GET /v1/two-fa/session/{session_uuid}/events`, in the order they occurred. */
  listTwoFaEvents(sessionUuid: string): Promise<TwoFaEvent[]> {
    return this.call({
      method: "GET",
      path: `/v1/two-fa/session/${segment(sessionUuid, "GET", "/v1/two-fa/session/{session_uuid}/events")}/events`,
      scope: "two_fa:read",
      schema: "two-fa-event-list",
      list: true,
    });
  }

  /** `GET /v1/two-fa/service/{service_id}/sessions?from=&to=` (dates `YYYY-MM-DD`, inclusive). */
  listTwoFaSessions(serviceId: string, from: string, to: string): Promise<TwoFaSession[]> {
    return this.call({
      method: "GET",
      path: `/v1/two-fa/service/${segment(serviceId, "GET", "/v1/two-fa/service/{service_id}/sessions")}/sessions${query({ from, to })}`,
      scope: "two_fa:read",
      schema: "two-fa-session-list",
      list: true,
    });
  }

  // ---- 10DLC (seed 4.7, official) ----

  /** `GET /v3/10dlc/brands/{brand_id}/vettings`, with `reasons` always an array or null. */
  async listBrandVettings(brandId: string): Promise<BrandVetting[]> {
    const vettings = await this.call<BrandVetting[]>({
      method: "GET",
      path: `/v3/10dlc/brands/${segment(brandId, "GET", "/v3/10dlc/brands/{brand_id}/vettings")}/vettings`,
      scope: "campaigns:read",
      schema: "brand-vetting-list",
      list: true,
    });
    return vettings.map((v) => ({ ...v, reasons: normaliseReasons((v as { reasons?: unknown }).reasons) }));
  }

  /** `GET /v3/10dlc/brands` (paged). */
  listBrands(params: ListBrandsParams = {}): Promise<BrandListResponse> {
    const q = query({ page: params.page, per_page: params.perPage, status: params.status });
    return this.call({ method: "GET", path: `/v3/10dlc/brands${q}`, scope: "campaigns:read", schema: "brand-list", list: "items" });
  }

  /** Every page of `listBrands`, in order, checked for completeness (see pagination.ts). */
  iterateBrandPages(params: ListBrandsParams = {}, walk: PageWalkOptions<Brand> = {}): AsyncGenerator<Page<Brand>> {
    const listing = `/v3/10dlc/brands${query({ per_page: params.perPage, status: params.status })}`;
    return this.pages(listing, (page) => this.listBrands({ ...params, page }), (b) => b.brand_id, params.page, { pageSize: params.perPage, ...walk });
  }

  // ---- messages (seed 4.9) ----

  /** `GET /v3/messages?type=outbound` (`type` required, official) → `{items, pagination}`. */
  listMessages(params: MessageListQuery): Promise<MessageListResponse> {
    const q = query({ type: params.type, page: params.page, per_page: params.perPage });
    return this.call({ method: "GET", path: `/v3/messages${q}`, scope: "messages:read", list: "items" });
  }

  // ---- SMS Sender IDs (official) ----

  /** `GET /v3/messages/sender-ids` → every Sender ID (the official listing is not paged). */
  async listSenderIds(): Promise<SenderId[]> {
    const result = await this.call<{ items: SenderId[] }>({
      method: "GET",
      path: "/v3/messages/sender-ids",
      scope: "messages:read",
      schema: "sender-id-list",
      list: "items",
    });
    return result.items;
  }

  /** `GET /v3/messages/sender-ids/{id}`. */
  getSenderId(id: string): Promise<SenderId> {
    return this.call({
      method: "GET",
      path: `/v3/messages/sender-ids/${segment(id, "GET", "/v3/messages/sender-ids/{id}")}`,
      scope: "messages:read",
      schema: "sender-id",
    });
  }

  /**
   * `POST /v3/messages/sender-ids` → the new Sender ID (201). Never retried when the outcome is
   * unknown: list by `sender_id` before trying again (the sender-id kind does).
   */
  createSenderId(body: SenderIdCreate): Promise<SenderId> {
    return this.call({ method: "POST", path: "/v3/messages/sender-ids", body, scope: "messages:write", schema: "sender-id" });
  }

  /** `DELETE /v3/messages/sender-ids/{id}`: permanent (official). */
  deleteSenderId(id: string): Promise<SuccessResponse> {
    return this.call({
      method: "DELETE",
      path: `/v3/messages/sender-ids/${segment(id, "DELETE", "/v3/messages/sender-ids/{id}")}`,
      scope: "messages:write",
    });
  }

  // ---- 10DLC Campaign numbers (official) ----

  /** `GET /v3/10dlc/brands/campaigns` (paged): the account's Campaigns. */
  listCampaigns(params: { page?: number; perPage?: number } = {}): Promise<Page<Campaign>> {
    const q = query({ page: params.page, per_page: params.perPage });
    return this.call({ method: "GET", path: `/v3/10dlc/brands/campaigns${q}`, scope: "campaigns:read", schema: "campaign-list", list: "items" });
  }

  /** Every page of `listCampaigns`, in order, checked for completeness (see pagination.ts). */
  iterateCampaignPages(params: { perPage?: number } = {}, walk: PageWalkOptions<Campaign> = {}): AsyncGenerator<Page<Campaign>> {
    const listing = `/v3/10dlc/brands/campaigns${query({ per_page: params.perPage })}`;
    return this.pages(listing, (page) => this.listCampaigns({ ...params, page }), (c) => `${c.brand_id}/${c.campaign_id}`, undefined, { pageSize: params.perPage, ...walk });
  }

  /** `GET /v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers` (not paged); 404 when either is unknown. */
  async listCampaignNumbers(brandId: string, campaignId: string): Promise<CampaignNumberList> {
    const route = "/v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers";
    const result = await this.call<CampaignNumberList>({
      method: "GET",
      path: `${campaignPath(brandId, campaignId, "GET", route)}/numbers`,
      scope: "campaigns:read",
      schema: "campaign-number-list",
      list: "numbers",
    });
    return result;
  }

  /** `POST /v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers/{number}`: links (repeating it links once). */
  linkCampaignNumber(brandId: string, campaignId: string, number: string): Promise<SuccessResponse> {
    const route = "/v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers/{number}";
    return this.call({
      method: "POST",
      path: `${campaignPath(brandId, campaignId, "POST", route)}/numbers/${segment(number, "POST", route)}`,
      scope: "campaigns:write",
      // Linking a linked number leaves it linked: repeating it ends in the same state.
      idempotent: true,
    });
  }

  /** `DELETE /v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers/{number}`: unlinks (its Sender ID is deleted too, official). */
  unlinkCampaignNumber(brandId: string, campaignId: string, number: string): Promise<SuccessResponse> {
    const route = "/v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers/{number}";
    return this.call({
      method: "DELETE",
      path: `${campaignPath(brandId, campaignId, "DELETE", route)}/numbers/${segment(number, "DELETE", route)}`,
      scope: "campaigns:write",
    });
  }

  // ---- profile: the account's callback defaults (official) ----

  /**
   * `PUT /v1/profile` with only the fields given (official ProfileUpdateRequest: every field
   * optional). A server may replace the profile with it (clearing what it leaves out): the account
   * callbacks kind sends the whole profile (src/kinds/account-callbacks/handler.ts).
   */
  updateProfileCallbacks(body: ProfileUpdate): Promise<AccountProfile> {
    return this.call({ method: "PUT", path: "/v1/profile", body, scope: "account:write", schema: "profile" });
  }

  private pages<T>(
    listing: string,
    fetchPage: (page: number) => Promise<Page<T>>,
    idOf: (item: T) => unknown,
    first: number | undefined,
    walk: PageWalkOptions<T> & { pageSize?: number },
  ): AsyncGenerator<Page<T>> {
    return walkPages({ listing, fetchPage, idOf, first, maxPages: this.#maxPages, ...(this.#options.onPage ? { onPage: this.#options.onPage } : {}), ...walk });
  }
}
