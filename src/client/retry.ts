/**
 * The retry policy (docs/CONTRACT.md part 8 "Reliability"), as a typed options object in the manner of
 * ky's `types/retry.ts`. Executed by p-retry in `request.ts`.
 *
 * Which methods are safe to repeat: GET, PUT (replaces: seed 4.8 / official, the same body gives the
 * same result), DELETE (releasing or deleting twice ends in the same state) and PATCH. PATCH is in
 * the list because every PATCH this client sends sets absolute values (`sms_enabled: true`, a full
 * `destinations` list), never increments or appends, so repeating it converges to the same state.
 * POST (create a sub-account, start a call) is not: when its outcome is unknown
 * (connection dropped, timeout, 5xx) it is never retried; the error carries `outcomeUnknown: true`
 * and the caller re-reads to reconcile. A POST answered 429 IS retried: the API did not process it.
 * The one POST that is an upsert (`POST /v1/calls/webhooks`, by event type) says so in its request
 * (`idempotent: true`) and is retried like a PUT.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RetryOptions {
  /**
   * Retries after the first attempt (so at most `limit + 1` requests).
   * @default 4
   */
  limit?: number;
  /**
   * Methods retried on network errors, timeouts and `statusCodes`.
   * @default ["GET", "PUT", "DELETE", "PATCH"]
   */
  methods?: HttpMethod[];
  /**
   * Statuses retried for `methods`. A 500 is among them: a server error on one page of a shared
   * listing must not fail a run's reads (issue #27: one 500 failed 66 of 1,002 reads of a Pulumi
   * refresh); a POST answered 500 is never retried (not in `methods`), its outcome is unknown.
   * @default [429, 500, 502, 503, 504]
   */
  statusCodes?: number[];
  /**
   * Statuses that mean "not processed" (429 Too Many Requests), so they are retried for every
   * method, POST included. On any retried status a `Retry-After` header is honoured: the wait is at
   * least what the server asks, capped by `maxRetryAfterMs`.
   * @default [429]
   */
  afterStatusCodes?: number[];
  /**
   * First backoff delay; doubles on each retry (exponential backoff).
   * @default 300
   */
  backoffBaseMs?: number;
  /**
   * Upper bound of one backoff delay.
   * @default 10000
   */
  backoffLimitMs?: number;
  /**
   * Upper bound of a wait asked by `Retry-After` (waited instead of the backoff, see
   * `retryAfterDelayMs`).
   * @default 60000
   */
  maxRetryAfterMs?: number;
  /**
   * Randomise each backoff delay (multiplied by a factor between 1 and 2) so many clients hit by
   * the same outage do not retry in lockstep.
   * @default true
   */
  jitter?: boolean;
}

/** RetryOptions with every default filled in. */
export type ResolvedRetryOptions = Required<RetryOptions>;

export const DEFAULT_RETRY_OPTIONS: Readonly<ResolvedRetryOptions> = Object.freeze<ResolvedRetryOptions>({
  limit: 4,
  methods: ["GET", "PUT", "DELETE", "PATCH"],
  statusCodes: [429, 500, 502, 503, 504],
  afterStatusCodes: [429],
  backoffBaseMs: 300,
  backoffLimitMs: 10_000,
  maxRetryAfterMs: 60_000,
  jitter: true,
});

export function resolveRetryOptions(options: RetryOptions | undefined): ResolvedRetryOptions {
  const merged: ResolvedRetryOptions = { ...DEFAULT_RETRY_OPTIONS, ...stripUndefined(options ?? {}) };
  if (!Number.isInteger(merged.limit) || merged.limit < 0) {
    throw new RangeError(`retry.limit must be a non-negative integer, got ${merged.limit}`);
  }
  for (const key of ["backoffBaseMs", "backoffLimitMs", "maxRetryAfterMs"] as const) {
    if (!Number.isFinite(merged[key]) || merged[key] < 0) {
      throw new RangeError(`retry.${key} must be a non-negative number, got ${merged[key]}`);
    }
  }
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What a retry announces before it waits (the CLI prints it when the wait is long). */
export interface RetryNotice {
  method: HttpMethod;
  /** Path and query as sent (never a secret: Bearer auth only). */
  path: string;
  /** The attempt about to be sent (2 for the first retry). */
  attempt: number;
  /** Attempts allowed in all (`limit + 1`). */
  attempts: number;
  /** Why: "429 rate limited", "503 server error", "no answer in 30.0 s", "network error". */
  reason: string;
  /** How long the failed attempt took, in ms (a timeout is a silence as long as the timeout). */
  failedAfterMs: number;
  /** The wait before that attempt, in ms (Retry-After plus backoff). */
  waitMs: number;
}

/**
 * The backoff before retry number `failedAttempts` (1 after the first failure): `backoffBaseMs`
 * doubled each time, capped at `backoffLimitMs`, times a factor between 1 and 2 with jitter.
 */
export function backoffDelayMs(options: ResolvedRetryOptions, failedAttempts: number): number {
  const base = Math.min(options.backoffBaseMs * 2 ** Math.max(0, failedAttempts - 1), options.backoffLimitMs);
  return Math.round(options.jitter ? base * (1 + Math.random()) : base);
}

/**
 * The wait before a retry the server asked for with `Retry-After` (already capped): that wait, with
 * up to 10 % more when `jitter` is on, so that clients refused together do not all come back in
 * the same millisecond. No backoff on top: the server said when to come back, and a plain loop
 * waiting exactly that long would otherwise be faster (issue #35).
 */
export function retryAfterDelayMs(options: ResolvedRetryOptions, retryAfterMs: number): number {
  return Math.round(options.jitter ? retryAfterMs * (1 + 0.1 * Math.random()) : retryAfterMs);
}

/** Idempotent under this client's use (see the module comment): a lost outcome may be repeated. */
export function isIdempotent(method: HttpMethod): boolean {
  return method !== "POST";
}
