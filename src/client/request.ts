/**
 * One HTTP exchange with the Wavix API, and its retries. Everything that is about the wire lives
 * here: Bearer auth only (seed part 5; the deprecated query-parameter key is never sent), the
 * per-attempt timeout, JSON decoding, mapping a failure to one error class (seed part 7 bodies),
 * the retry policy (retry.ts) on p-retry, the concurrency bound (p-limit) and the request pacing
 * (rate-limit.ts: adaptive to 429/`Retry-After`, a fixed cap only when the user sets one).
 *
 * Two bounds protect the run from a hostile or broken server (issue #13): redirects are followed
 * only within the base URL's origin (another host's answer is never acted on), and a response body
 * is read as a stream and refused once it passes `maxResponseBytes`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LimitFunction } from "p-limit";
import { concurrencyLimit, pRetry } from "../util/lazy-deps";
import {
  ForbiddenError,
  NetworkError,
  protocolMismatch,
  NotFoundError,
  RateLimitedError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
  WavixApiError,
  type WavixApiErrorInit,
} from "./errors";
import { AdaptivePacer, type PacerOptions } from "./rate-limit";
import { redact, safeCause } from "./redact";
import { checkResponse, type ResponseSchemaName } from "./response-schemas";
import { backoffDelayMs, isIdempotent, retryAfterDelayMs, type HttpMethod, type ResolvedRetryOptions, type RetryNotice } from "./retry";
import { cappedRetryAfter, parseRetryAfter } from "./retry-timing";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Request counters, shared by a client and the clients derived from it with `withApiKey`. */
export interface ClientStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Retries sent (each also counted in `requests`). */
  retries: number;
  /** Answers 429 (rate limited) received. */
  rateLimited: number;
}

/** State shared by a client and its `withApiKey` children: one bound, one pacer, one set of counters. */
export interface SharedTransport {
  /** The concurrency bound: runs `fn` once a slot is free. */
  limit: <T>(fn: () => Promise<T>) => Promise<T>;
  pacer: AdaptivePacer;
  stats: ClientStats;
  /** Drift warnings already reported (by de-duplication key). */
  warned: Set<string>;
  /**
   * Every secret this family of clients knows besides its own key: the keys of `withApiKey`
   * children and sub-account `api_key`s seen in responses (seed 2.8). All are scrubbed from every
   * error of every client of the family, since an error body may echo any of them. Bounded (see
   * `rememberSecret`).
   */
  secrets: Set<string>;
}

/** Most secrets remembered per client family; beyond that the oldest learned is forgotten. */
const MAX_SECRETS = 1000;

/** Adds `secret` to the family's scrub list (most recent last), forgetting the oldest when full. */
export function rememberSecret(shared: SharedTransport, secret: unknown): void {
  if (typeof secret !== "string" || secret === "") return;
  shared.secrets.delete(secret);
  shared.secrets.add(secret);
  if (shared.secrets.size > MAX_SECRETS) {
    const oldest = shared.secrets.values().next().value;
    if (oldest !== undefined) shared.secrets.delete(oldest);
  }
}

/** @param maxRequestsPerSecond a fixed cap; `Infinity` for none (pacing then adapts to the server alone) */
export function createSharedTransport(
  concurrency: number,
  maxRequestsPerSecond: number,
  pacing: Omit<PacerOptions, "maxRequestsPerSecond"> = {},
): SharedTransport {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  // p-limit is loaded by the first request (src/util/lazy-deps.ts).
  let limit: LimitFunction | undefined;
  return {
    limit: <T>(fn: () => Promise<T>) => (limit ??= concurrencyLimit(concurrency))(fn),
    pacer: new AdaptivePacer({ ...pacing, maxRequestsPerSecond }),
    stats: { requests: 0, retries: 0, rateLimited: 0 },
    warned: new Set(),
    secrets: new Set(),
  };
}

/** Default response-size cap: 16 MiB, some hundred times a 100-record page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Same-origin redirects followed per request at most. */
const MAX_REDIRECTS = 5;

export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  retry: ResolvedRetryOptions;
  timeoutMs: number;
  /** The whole request, every attempt and wait included (see `request`). */
  deadlineMs: number;
  maxResponseBytes: number;
  onRetry: (notice: RetryNotice) => void;
  onWarning: (message: string, info?: WarningInfo) => void;
  /** What the key is called where the user set it (`WAVIX_API_KEY`, `wavix:apiKey`), for a 401. */
  apiKeyName: string;
  shared: SharedTransport;
}

/** What kind of notice `onWarning` receives. */
export interface WarningInfo {
  /** A property the API added (not in the documented schema): harmless, ignored; worth a quiet note. */
  additive?: boolean;
}

/** Most distinct drift warnings reported per client family; beyond that they are dropped. */
const MAX_DISTINCT_WARNINGS = 100;

export interface RequestSpec {
  method: HttpMethod;
  /** Path as sent, query included. Must never hold a secret (Bearer auth only). */
  path: string;
  /** JSON body. */
  body?: unknown;
  /** The scope the operation needs (official `security`), named in a 403 message. */
  scope?: string;
  /** Response schema checked on success (drift → `onWarning`). */
  schema?: ResponseSchemaName;
  /**
   * Where the list of a list operation is: `true` when the body itself is the array, else the name
   * of the property holding it. Schema drift only warns, but a success body without its list (e.g.
   * `{success: false, message}` answered with 200) cannot be used at all: it becomes a
   * `ResponseFormatError` naming the request instead of a `TypeError` deep in a caller.
   * Regression: test/reliability/bad-input.test.ts "a JSON body of the wrong shape" printed
   * "Error: first.items is not iterable".
   * @default undefined (no check)
   */
  list?: true | string;
  /**
   * The list property may be absent (the official answer makes it optional, e.g. a bulk update's
   * `items`): only a list that is there but not an array is refused.
   * @default false
   */
  listOptional?: boolean;
  /**
   * Properties of the record (each list item, or the body) that callers iterate: present and not
   * null, each must be an array, or the answer is a `ResponseFormatError` naming the request (not a
   * `TypeError` such as "is not iterable" deep in a caller). E.g. a number's `destination`.
   * @default []
   */
  arrayFields?: readonly string[];
  /**
   * A property of the result (or, for a list operation, of each list item) that holds a secret,
   * e.g. a sub-account's `api_key`: its values are remembered so that no later error of this
   * client family can print them.
   * @default undefined (nothing remembered)
   */
  secretField?: string;
  /**
   * The request may be repeated whatever its method, because repeating it ends in the same state:
   * `POST /v1/calls/webhooks` upserts by event type (official), so it is retried like a PUT and its
   * failures never carry `outcomeUnknown`.
   * @default isIdempotent(method)
   */
  idempotent?: boolean;
}

/** Marks an attempt's failure with what the retry policy needs. */
class AttemptFailure extends Error {
  /** How long the failed attempt took (a timeout is itself a long silence worth announcing). */
  elapsedMs = 0;
  /** The time the attempt was given (less than `timeoutMs` when the request's deadline was near). */
  timeoutMs = Number.POSITIVE_INFINITY;

  constructor(
    readonly error: WavixApiError,
    readonly retryAfterMs: number | undefined,
  ) {
    super(error.message);
  }
}

export async function request<T>(config: TransportConfig, spec: RequestSpec): Promise<T> {
  const { retry, shared } = config;
  // The whole request (every attempt and backoff) ends by this time, counted from the first attempt
  // (time queued behind the concurrency bound, in the client's own pacing and Retry-After waits
  // do not count): a server dripping a byte a second would otherwise cost every attempt its full
  // timeout.
  let deadlineAt: number | undefined;
  let attempts = 0;
  let pastDeadline = false;
  // An earlier attempt that may have been carried out although no success came back (no answer,
  // or a 5xx): a retried DELETE then answered 404 found the object gone because that attempt
  // deleted it (issue #27), which is the success asked for, not a failure.
  let mayHaveCommitted = false;
  try {
    return await pRetry(
      () => {
        const queued = Date.now();
        return shared.limit(async () => {
          // The wait for a concurrency slot and for the pacer's slot is the client's own queue,
          // not the server's time: the deadline and the attempt's timeout start once the request
          // may be sent, and a retry's queueing (behind the bound; in the pacer, which waits out
          // Retry-After for the whole family, then goes at a lowered rate) moves the deadline by
          // as much (issue #35).
          const sentAt = await shared.pacer.take();
          const started = Date.now();
          if (deadlineAt !== undefined) deadlineAt += started - queued;
          deadlineAt ??= started + config.deadlineMs;
          attempts += 1;
          try {
            return await attempt<T>(config, spec, Math.max(1, Math.min(config.timeoutMs, deadlineAt - started)), sentAt);
          } catch (error) {
            if (error instanceof AttemptFailure) {
              error.elapsedMs = Date.now() - started;
              if (spec.method === "DELETE" && mayHaveCommitted && error.error instanceof NotFoundError) return undefined as T;
              const e = error.error;
              if (e instanceof NetworkError || e instanceof TimeoutError || e.status >= 500) mayHaveCommitted = true;
            }
            throw error;
          }
        });
      },
      {
        retries: retry.limit,
        // The waits are computed here (backoff + Retry-After) so that a long one can be announced.
        minTimeout: 0,
        maxTimeout: 0,
        randomize: false,
        shouldRetry: async ({ error, attemptNumber }) => {
          if (!(error instanceof AttemptFailure)) return false;
          const decision = retryDecision(config, spec, error);
          if (!decision.retry) return false;
          // The server's Retry-After when it gave one (at least what it asked for), else our backoff.
          const waitMs = decision.waitMs > 0 ? retryAfterDelayMs(retry, decision.waitMs) : backoffDelayMs(retry, attemptNumber);
          // A wait the server asked for (Retry-After, bounded by maxRetryAfterMs) is not counted
          // against the deadline: the server is answering, and told us when to come back.
          if (deadlineAt !== undefined) deadlineAt += decision.waitMs;
          // No retry that could not even start before the deadline.
          if (deadlineAt !== undefined && Date.now() + waitMs >= deadlineAt) {
            pastDeadline = true;
            return false;
          }
          try {
            config.onRetry({
              method: spec.method,
              path: spec.path,
              attempt: attemptNumber + 1,
              attempts: retry.limit + 1,
              reason: retryReason(error.error, config.timeoutMs),
              failedAfterMs: error.elapsedMs,
              waitMs,
            });
          } catch {
            // A notice sink that throws must not fail the request.
          }
          if (waitMs > 0) await sleep(waitMs);
          shared.stats.retries += 1;
          return true;
        },
      },
    );
  } catch (error) {
    if (error instanceof AttemptFailure) {
      // An attempt cut short by the deadline, or a retry the deadline left no room for.
      const cut = error.error instanceof TimeoutError && error.timeoutMs < config.timeoutMs;
      if (pastDeadline || cut) throw deadlineError(config, spec, error.error, attempts);
      throw error.error;
    }
    throw error;
  }
}

/** The request's deadline passed: one error saying so, with what the last attempt met. */
function deadlineError(config: TransportConfig, spec: RequestSpec, last: WavixApiError, attempts: number): TimeoutError {
  const seconds = (config.deadlineMs / 1000).toFixed(config.deadlineMs % 1000 === 0 ? 0 : 1);
  const lastText = last.message.startsWith(`${spec.method} ${spec.path}: `) ? last.message.slice(spec.method.length + spec.path.length + 3) : last.message;
  return new TimeoutError(
    `no complete answer within the request deadline of ${seconds} s (${attempts} attempt${attempts === 1 ? "" : "s"}; last: ${lastText})`,
    { method: spec.method, path: spec.path, status: 0, cause: last, outcomeUnknown: last.outcomeUnknown },
  );
}

/** A short reason for a retry notice: the status, or what went wrong on the wire. */
function retryReason(error: WavixApiError, timeoutMs: number): string {
  if (error instanceof TimeoutError) return `no answer in ${(timeoutMs / 1000).toFixed(1)} s`;
  if (error instanceof NetworkError) return "network error";
  if (error.status === 429) return "429 rate limited";
  // A 5xx answered with an HTML page is a ResponseFormatError, but still a server error.
  return `${error.status} ${error.status >= 500 ? "server error" : "error"}`;
}

function retryDecision(
  config: TransportConfig,
  spec: RequestSpec,
  failure: AttemptFailure,
): { retry: boolean; waitMs: number } {
  const { retry } = config;
  const method = spec.method;
  const { error } = failure;
  const waitMs = cappedRetryAfter(failure.retryAfterMs, retry.maxRetryAfterMs) ?? 0;
  // 429 (afterStatusCodes) means "not processed": safe to repeat for any method, POST included.
  if (retry.afterStatusCodes.includes(error.status)) return { retry: true, waitMs };
  // An upsert (spec.idempotent) is retried like a PUT.
  const asMethod: HttpMethod = spec.idempotent === true ? "PUT" : method;
  if (!retry.methods.includes(asMethod)) return { retry: false, waitMs: 0 };
  // A scheme mismatch (https to a plain-http server, or the reverse) answers the same every time.
  if (error instanceof NetworkError && protocolMismatch(error) !== undefined) return { retry: false, waitMs: 0 };
  if (error instanceof NetworkError || error instanceof TimeoutError) return { retry: true, waitMs: 0 };
  if (retry.statusCodes.includes(error.status)) return { retry: true, waitMs };
  return { retry: false, waitMs: 0 };
}

/**
 * What to scrub from an error of this client: its key, then every other secret of the family,
 * longest first so a secret containing another is masked whole. Only built on a failure, never
 * on the success path.
 */
function secretsOf(config: TransportConfig): string[] {
  const others = [...config.shared.secrets].filter((s) => s !== config.apiKey);
  return [config.apiKey, ...others].sort((a, b) => b.length - a.length);
}

/** Remembers the values of `spec.secretField` found in a success body (seed 2.8 `api_key`). */
function learnSecrets(shared: SharedTransport, spec: RequestSpec, body: unknown): void {
  const field = spec.secretField;
  if (field === undefined || body === null || typeof body !== "object") return;
  const holder = spec.list === undefined || spec.list === true ? body : (body as Record<string, unknown>)[spec.list];
  const items: unknown[] = Array.isArray(holder) ? holder : [holder];
  for (const item of items) {
    if (item !== null && typeof item === "object") rememberSecret(shared, (item as Record<string, unknown>)[field]);
  }
}

async function attempt<T>(config: TransportConfig, spec: RequestSpec, timeoutMs: number, sentAt: number): Promise<T> {
  const { method, path } = spec;
  // Outcome unknown = the server may have acted on a non-idempotent request (docs/CONTRACT.md part 8).
  const unknownIfPost = !(spec.idempotent ?? isIdempotent(method));
  config.shared.stats.requests += 1;

  const signal = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Bearer ${config.apiKey}`,
  };
  let payload: string | undefined;
  if (spec.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(spec.body);
  }

  const transportFailure = (error: unknown): AttemptFailure => {
    const init: WavixApiErrorInit = {
      method,
      path,
      status: 0,
      cause: safeCause(error, secretsOf(config)),
      outcomeUnknown: unknownIfPost,
    };
    if (signal.aborted) {
      const failure = new AttemptFailure(new TimeoutError(`timed out after ${timeoutMs} ms`, init), undefined);
      failure.timeoutMs = timeoutMs;
      return failure;
    }
    const cause = init.cause as Error;
    const detail = cause.cause instanceof Error ? `${cause.message} (${cause.cause.message})` : cause.message;
    return new AttemptFailure(new NetworkError(`network error: ${detail}`, init), undefined);
  };

  let response: Response;
  let text: string;
  try {
    response = await fetchSameOrigin(config, spec, { method, headers, body: payload, signal });
    // The timeout covers the body too: a server that stalls mid-body is a timeout, and a
    // connection cut mid-body is a network error, not a truncated JSON.
    text = await readCapped(response, config.maxResponseBytes);
  } catch (error) {
    if (error instanceof WavixApiError) throw new AttemptFailure(error, undefined);
    if (error instanceof TooLarge) {
      throw new AttemptFailure(
        new ResponseFormatError(
          `response body larger than ${config.maxResponseBytes} bytes (maxResponseBytes); not read further`,
          { method, path, status: error.status, outcomeUnknown: unknownIfPost },
        ),
        undefined,
      );
    }
    throw transportFailure(error);
  }

  const status = response.status;
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  // Pushback slows the whole client family down (rate-limit.ts); a 503 counts only with Retry-After.
  const pushback = status === 429 || (status === 503 && retryAfterMs !== undefined);
  if (status === 429) config.shared.stats.rateLimited += 1;
  config.shared.pacer.onResponse(sentAt, pushback, cappedRetryAfter(retryAfterMs, config.retry.maxRetryAfterMs));
  const serverSide = status >= 500;
  const base: WavixApiErrorInit = { method, path, status, outcomeUnknown: unknownIfPost && serverSide };

  let body: unknown = undefined;
  if (text.length > 0) {
    const looksJson = contentType === "application/json" || contentType.endsWith("+json") || contentType === "";
    let parsed = false;
    if (looksJson) {
      try {
        body = JSON.parse(text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    if (!parsed) {
      // A compressed body we never asked for (no Accept-Encoding is sent) is named for what it is,
      // not called broken JSON (issue #22).
      const encoding = (response.headers.get("content-encoding") ?? "").trim().toLowerCase();
      const got =
        encoding !== "" && encoding !== "identity"
          ? `a body encoded as ${JSON.stringify(encoding)} (Content-Encoding), which the client does not decode; it asks for none`
          : looksJson
            ? `malformed or truncated JSON (${text.length} bytes)`
            : contentType || "no content type";
      throw new AttemptFailure(
        new ResponseFormatError(`expected JSON, got ${got} (${status})`, {
          ...base,
          body: redact(text.slice(0, 500), secretsOf(config)),
        }),
        retryAfterMs,
      );
    }
  }

  if (status >= 200 && status < 300) {
    learnSecrets(config.shared, spec, body);
    if (spec.schema !== undefined) reportDrift(config, spec, body);
    if (spec.list !== undefined) {
      const holder = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : undefined;
      const list = spec.list === true ? body : holder?.[spec.list];
      const absentAllowed = spec.listOptional === true && holder !== undefined && list === undefined;
      if (!Array.isArray(list) && !absentAllowed) {
        const wanted = spec.list === true ? "a JSON array" : `a JSON object with an "${spec.list}" array`;
        const got = Array.isArray(body) ? "an array" : body === null ? "null" : typeof body;
        // The message is quoted from the scrubbed body: the API may echo a key in it.
        const shown = redact(body, secretsOf(config));
        const message = apiMessage(shown);
        throw new AttemptFailure(
          new ResponseFormatError(`expected ${wanted}, got ${got}${message ? ` (message: ${message})` : ""} (${status})`, {
            ...base,
            body: shown,
          }),
          retryAfterMs,
        );
      }
    }
    const malformed = malformedRecord(spec, body);
    if (malformed !== undefined) {
      throw new AttemptFailure(new ResponseFormatError(`${malformed} (${status})`, { ...base, body: redact(body, secretsOf(config)) }), retryAfterMs);
    }
    return body as T;
  }
  throw new AttemptFailure(mapStatus(spec, status, redact(body, secretsOf(config)), base, retryAfterMs, config.apiKeyName), retryAfterMs);
}

/**
 * The request, following redirects only within the base URL's origin (bounded). A redirect to another
 * origin is an error naming it: fetch would drop the Authorization header there, and acting on
 * another host's answer (an empty list, say) could create duplicates (issue #13).
 */
async function fetchSameOrigin(config: TransportConfig, spec: RequestSpec, init: RequestInit): Promise<Response> {
  const origin = new URL(config.baseUrl).origin;
  let url = `${config.baseUrl}${spec.path}`;
  for (let hop = 0; ; hop++) {
    const response = await config.fetch(url, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const target = new URL(location, url);
    // Named without its query (which could carry anything) and scrubbed of every known secret.
    const shown = redact(`${target.origin}${target.pathname}`, secretsOf(config)) as string;
    const init0: WavixApiErrorInit = { method: spec.method, path: spec.path, status: response.status };
    if (target.origin !== origin) {
      throw new ResponseFormatError(`redirected (${response.status}) to another origin, ${shown}: not followed`, init0);
    }
    // 301/302/303 turn a write into a GET in browsers; a write is only re-sent as it was on 307/308.
    const keepsMethod = response.status === 307 || response.status === 308;
    if (!keepsMethod && spec.method !== "GET") {
      throw new ResponseFormatError(`redirected (${response.status}) to ${shown}: a ${spec.method} is not re-sent there`, init0);
    }
    if (hop + 1 >= MAX_REDIRECTS) {
      throw new ResponseFormatError(`more than ${MAX_REDIRECTS} redirects (last to ${shown})`, init0);
    }
    url = target.href;
  }
}

/** A body past the size cap (carries the status of the response it belonged to). */
class TooLarge extends Error {
  constructor(readonly status: number) {
    super("response too large");
  }
}

/** The body as text, read as a stream and abandoned once it passes `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw new TooLarge(response.status);
  }
  // A length the server declared within the cap (and no encoding a fetch would undo into more)
  // bounds the body already: read whole and decoded once, rather than chunk by chunk through a
  // web stream (a third of the client's CPU on a 250 KB listing page). `body` is not touched
  // first: on the client's own fetch that would build the stream.
  const encoding = response.headers.get("content-encoding");
  if (Number.isFinite(declared) && declared >= 0 && (encoding === null || encoding.trim().toLowerCase() === "identity")) return response.text();
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge(response.status);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function apiMessage(body: unknown): string | undefined {
  if (body !== null && typeof body === "object" && "message" in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") return message.trim();
  }
  return undefined;
}

/** Seed part 7 `errors: {field: rule}`; rules given as arrays are joined. */
function fieldErrors(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body === null || typeof body !== "object" || !("errors" in body)) return out;
  const errors = (body as { errors: unknown }).errors;
  if (errors === null || typeof errors !== "object") return out;
  for (const [field, rule] of Object.entries(errors as Record<string, unknown>)) {
    out[field] = Array.isArray(rule) ? rule.map(String).join(", ") : String(rule);
  }
  return out;
}

const SCOPE_IN_TEXT = /\b([a-z][a-z_]*:(?:read|write))\b/;

function mapStatus(
  spec: RequestSpec,
  status: number,
  body: unknown,
  base: WavixApiErrorInit,
  retryAfterMs: number | undefined,
  apiKeyName: string,
): WavixApiError {
  const init: WavixApiErrorInit = { ...base, body };
  const message = apiMessage(body);
  const suffix = message ? `: ${message}` : "";
  if (status === 401) {
    return new UnauthorizedError(`unauthorized (401)${suffix}; check ${apiKeyName}`, init);
  }
  if (status === 403) {
    const named = message?.match(SCOPE_IN_TEXT)?.[1];
    const scope = named ?? spec.scope;
    // Seed 4.1: 403 also means "feature disabled for the account", so the known scope is named
    // as what the operation requires, not asserted as the cause.
    const hint = !named && scope ? ` (operation requires scope ${scope})` : "";
    return new ForbiddenError(`forbidden (403)${suffix}${hint}`, { ...init, scope });
  }
  if (status === 404) return new NotFoundError(`not found (404)${suffix}`, init);
  if (status === 400 || status === 422) {
    const errors = fieldErrors(body);
    const fields = Object.entries(errors).map(([field, rule]) => `${field}: ${rule}`);
    const detail = fields.length > 0 ? fields.join("; ") : (message ?? `status ${status}`);
    return new ValidationError(`validation failed: ${detail}`, { ...init, errors });
  }
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? `, retry after ${Math.ceil(retryAfterMs / 1000)} s` : "";
    return new RateLimitedError(`rate limited (429)${wait}${suffix}`, { ...init, retryAfterMs });
  }
  if (status >= 500) {
    const unknown = init.outcomeUnknown ? "; outcome unknown, re-read before retrying" : "";
    return new ServerError(`server error (${status})${suffix}${unknown}`, init);
  }
  return new WavixApiError(`unexpected status ${status}${suffix}`, init);
}

function reportDrift(config: TransportConfig, spec: RequestSpec, body: unknown): void {
  const problems = checkResponse(spec.schema as ResponseSchemaName, body);
  if (problems.length === 0) return;
  const { warned } = config.shared;
  // The route without IDs, so the same drift on /v1/numbers/1 and /v1/numbers/2 warns once.
  const route = `${spec.method} ${spec.path.split("?")[0].replace(/\/\d+(?=\/|$)/g, "/{id}")}`;
  for (const problem of problems) {
    // An added property is noted once per record kind and field, whatever the route; other drift per route.
    const key = problem.additive ? problem.key : `${route}|${problem.key}`;
    if (warned.has(key) || warned.size >= MAX_DISTINCT_WARNINGS) continue;
    warned.add(key);
    // The server's text (a property name, a path) may echo a key back: scrubbed like an error body.
    const text = redact(problem.text, secretsOf(config));
    try {
      if (problem.additive) config.onWarning(`${route}: response addition: ${text}`, { additive: true });
      else config.onWarning(`${route}: response drift: ${text}`);
    } catch {
      // A warning sink that throws must not fail the request.
    }
  }
}

/**
 * What makes a success body unusable as records (a list item that is null or not an object, a
 * property callers iterate that is not an array), worded for the error; undefined when usable.
 */
function malformedRecord(spec: RequestSpec, body: unknown): string | undefined {
  const isRecord = (v: unknown): boolean => v !== null && typeof v === "object" && !Array.isArray(v);
  const typeOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);
  const fields = spec.arrayFields ?? [];
  const checkFields = (record: Record<string, unknown>, where: string): string | undefined => {
    for (const f of fields) {
      const v = record[f];
      if (v !== undefined && v !== null && !Array.isArray(v)) return `expected ${where}${f} to be an array or null, got ${typeOf(v)}`;
    }
    return undefined;
  };
  if (spec.list === undefined) return isRecord(body) ? checkFields(body as Record<string, unknown>, "") : undefined;
  const list = spec.list === true ? body : isRecord(body) ? (body as Record<string, unknown>)[spec.list] : undefined;
  if (!Array.isArray(list)) return undefined;
  const name = spec.list === true ? "" : spec.list;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (!isRecord(item)) {
      const wanted = spec.list === true ? "a JSON array of records" : `a JSON object with ${/^[aeiou]/.test(spec.list) ? "an" : "a"} "${spec.list}" array of records`;
      return `expected ${wanted}, got ${typeOf(item)} at ${name}[${i}]`;
    }
    // Its place is worded only for a record that has array fields to check (a listing page has a
    // thousand records and, for most kinds, none).
    if (fields.length === 0) continue;
    const bad = checkFields(item as Record<string, unknown>, `${name}[${i}].`);
    if (bad !== undefined) return bad;
  }
  return undefined;
}
