import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/**
 * 429: the API did not process the request. `retryAfterMs` is the wait the API asked for through
 * `Retry-After` (undefined when it sent none). Thrown once the retry budget is spent.
 */
export class RateLimitedError extends WavixApiError {
  readonly retryAfterMs: number | undefined;

  constructor(detail: string, init: WavixApiErrorInit & { retryAfterMs?: number }) {
    super(detail, init);
    this.name = "RateLimitedError";
    this.retryAfterMs = init.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

export function isRateLimitedError(error: unknown): error is RateLimitedError {
  return error instanceof RateLimitedError;
}
