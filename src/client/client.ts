/**
 * `WavixClient`: every API operation the product uses (PRODUCT.md part 2), paths and versions
 * exactly as there. Wire concerns (auth, retries, errors) are in request.ts; this file only says
 * which path, which scope, which response schema, and normalises what the seed says varies.
 */
import { resolveBaseUrl } from "./base-url";
import { MissingApiKeyError } from "./errors/missing-api-key-error";
import {
  createSharedTransport,
  rememberSecret,
  request,
  type ClientStats,
  type FetchLike,
  type RequestSpec,
  type TransportConfig,
} from "./request";
import { resolveRetryOptions, type RetryOptions } from "./retry";
import type {
  AnswerCallRequest,
  Brand,
  BrandListResponse,
  BrandVetting,
  Call,
  CallWebhook,
  CallWebhookEventType,
  MessageListQuery,
  MessageListResponse,
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
   * The network.
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
   * Requests in flight at once, shared with clients made by `withApiKey`.
   * @default 8
   */
  concurrency?: number;
  /**
   * Client-side rate limit (token bucket), shared with clients made by `withApiKey`.
   * `Infinity` turns it off.
   * @default 50
   */
  requestsPerSecond?: number;
  /**
   * Receives contract-drift notices (a response that does not match `schemas/api`). Never the key.
   * @default a no-op
   */
  onWarning?: (message: string) => void;
  /**
   * Where to set the key, named in {@link MissingApiKeyError} (the Pulumi provider names `wavix:apiKey`).
   * @default "set WAVIX_API_KEY (or pass apiKey to the client)"
   */
  missingApiKeyHint?: string;
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

/** Upper bound on pages walked by the `iterate*Pages` methods, whatever `total_pages` claims. */
const MAX_PAGES = 100_000;

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

function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** Seed 2.7: `reasons` is declared an array, a sample shows one string; always an array or null. */
export function normaliseReasons(reasons: unknown): string[] | null {
  if (reasons === null || reasons === undefined) return null;
  if (Array.isArray(reasons)) return reasons.map(String);
  return [String(reasons)];
}

export class WavixClient {
  readonly baseUrl: string;
  readonly #options: WavixClientOptions;
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
    const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (typeof fetchImpl !== "function") throw new TypeError("no fetch available: pass the fetch option");
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.#options = { ...options };
    this.#config = {
      baseUrl: this.baseUrl,
      apiKey,
      fetch: fetchImpl,
      retry: resolveRetryOptions(options.retry),
      timeoutMs,
      onWarning: options.onWarning ?? (() => undefined),
      shared: createSharedTransport(options.concurrency ?? 8, options.requestsPerSecond ?? 50),
    };
  }

  /** Requests and retries sent by this client and every client derived with `withApiKey`. */
  get stats(): ClientStats {
    return this.#config.shared.stats;
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
    return child;
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
    return this.call({ method: "GET", path: `/v1/numbers/${segment(id)}`, scope: "numbers:read", schema: "number" });
  }

  /** `GET /v1/numbers?search=&page=&per_page=` → `{items, pagination}`. */
  listNumbers(params: ListNumbersParams = {}): Promise<NumberListResponse> {
    const q = query({ search: params.search, page: params.page, per_page: params.perPage });
    return this.call({ method: "GET", path: `/v1/numbers${q}`, scope: "numbers:read", schema: "number-list", list: "items" });
  }

  /** Every page of `listNumbers`, in order, driven by `pagination.total_pages`. */
  iterateNumberPages(params: Omit<ListNumbersParams, "page"> & { page?: number } = {}): AsyncGenerator<NumberListResponse> {
    return this.pages((page) => this.listNumbers({ ...params, page }), params.page);
  }

  /** `PATCH /v1/numbers/{id}`: only the fields sent change (official). */
  updateNumber(id: number, patch: NumberUpdate): Promise<WavixNumber> {
    return this.call({
      method: "PATCH",
      path: `/v1/numbers/${segment(id)}`,
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
    const result = await this.call<{ items: WavixNumber[] }>({
      method: "PATCH",
      path: "/v1/numbers",
      body: { ...patch, ids },
      scope: "numbers:write",
      schema: "number-bulk-update",
      list: "items",
    });
    return result.items;
  }

  /** `DELETE /v1/numbers?ids=1&ids=2` (repeated `ids`, official). */
  releaseNumbers(ids: readonly number[]): Promise<SuccessResponse> {
    if (ids.length === 0) return Promise.resolve({ success: true });
    return this.call({ method: "DELETE", path: `/v1/numbers${query({ ids })}`, scope: "numbers:write" });
  }

  // ---- sub-accounts (seed 4.8, official) ----

  /** `GET /v1/sub-organizations` (paged); the wire's `sub_organizations` is returned as `items`. */
  async listSubAccounts(params: ListSubAccountsParams = {}): Promise<Page<SubAccount>> {
    const q = query({ page: params.page, per_page: params.perPage, status: params.status });
    const result = await this.call<SubAccountListResponse>({
      method: "GET",
      path: `/v1/sub-organizations${q}`,
      scope: "subaccounts:read",
      schema: "sub-account-list",
      list: "sub_organizations",
      secretField: "api_key",
    });
    return { items: result.sub_organizations, pagination: result.pagination };
  }

  /** Every page of `listSubAccounts`, driven by `pagination.total_pages`. */
  iterateSubAccountPages(params: ListSubAccountsParams = {}): AsyncGenerator<Page<SubAccount>> {
    return this.pages((page) => this.listSubAccounts({ ...params, page }), params.page);
  }

  /** `GET /v1/sub-organizations/{id}`. */
  getSubAccount(id: number): Promise<SubAccount> {
    return this.call({
      method: "GET",
      path: `/v1/sub-organizations/${segment(id)}`,
      scope: "subaccounts:read",
      schema: "sub-account",
      secretField: "api_key",
    });
  }

  /**
   * `POST /v1/sub-organizations`. Not retried when the outcome is unknown: on an error with
   * `outcomeUnknown`, list by name before trying again (PRODUCT.md part 8).
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
      path: `/v1/sub-organizations/${segment(id)}`,
      body,
      scope: "subaccounts:write",
      schema: "sub-account",
      secretField: "api_key",
    });
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
    return this.call({ method: "POST", path: `/v1/calls/${segment(uuid)}/answer`, body, scope: "calls:write" });
  }

  /** `POST /v1/calls/{call_id}/streams` → `{success: true, stream_id}`. */
  startStream(callId: string, body: StartStreamRequest = {}): Promise<StartStreamResponse> {
    return this.call({ method: "POST", path: `/v1/calls/${segment(callId)}/streams`, body, scope: "calls:write" });
  }

  // ---- 2FA (seed 4.6, official) ----

  /** `GET /v1/two-fa/session/{session_uuid}/events`, in the order they occurred. */
  listTwoFaEvents(sessionUuid: string): Promise<TwoFaEvent[]> {
    return this.call({
      method: "GET",
      path: `/v1/two-fa/session/${segment(sessionUuid)}/events`,
      scope: "two_fa:read",
      schema: "two-fa-event-list",
      list: true,
    });
  }

  /** `GET /v1/two-fa/service/{service_id}/sessions?from=&to=` (dates `YYYY-MM-DD`, inclusive). */
  listTwoFaSessions(serviceId: string, from: string, to: string): Promise<TwoFaSession[]> {
    return this.call({
      method: "GET",
      path: `/v1/two-fa/service/${segment(serviceId)}/sessions${query({ from, to })}`,
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
      path: `/v3/10dlc/brands/${segment(brandId)}/vettings`,
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

  /** Every page of `listBrands`, driven by `pagination.total_pages`. */
  iterateBrandPages(params: ListBrandsParams = {}): AsyncGenerator<Page<Brand>> {
    return this.pages((page) => this.listBrands({ ...params, page }), params.page);
  }

  // ---- messages (seed 4.9) ----

  /** `GET /v3/messages?type=outbound`. The response shape is not in the seed; returned as is. */
  listMessages(params: MessageListQuery = {}): Promise<MessageListResponse> {
    return this.call({ method: "GET", path: `/v3/messages${query({ type: params.type })}`, scope: "messages:read" });
  }

  private async *pages<T>(fetchPage: (page: number) => Promise<Page<T>>, first = 1): AsyncGenerator<Page<T>> {
    let page = first;
    for (let walked = 0; walked < MAX_PAGES; walked++) {
      const result = await fetchPage(page);
      yield result;
      const total = result.pagination?.total_pages ?? 0;
      // Stop at the last page, and on an empty page in case total_pages overstates.
      if (page >= total || result.items.length === 0) return;
      page += 1;
    }
  }
}
