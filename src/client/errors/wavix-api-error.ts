/**
 * Base of every error the client raises for a request (ARCHITECTURE.md `src/client`). Carries the
 * request line and the response, in the manner of `@octokit/request-error`, but never the key: the
 * Authorization header is never copied here, the key never goes in a URL (seed part 5: Bearer only),
 * and `body` and `cause` are scrubbed of the key before they are attached.
 */
export interface WavixApiErrorInit {
  method: string;
  /** Path and query as sent, e.g. `/v1/numbers/12`. Never holds a key (Bearer auth only). */
  path: string;
  /** HTTP status; 0 when no response arrived (network error, timeout). */
  status: number;
  /** Parsed response body (JSON value, or a text excerpt when the body was not JSON). */
  body?: unknown;
  cause?: unknown;
  /**
   * True when a non-idempotent request (POST) may or may not have been carried out: the connection
   * dropped, it timed out, or the server answered 5xx. The caller must re-read before any retry.
   */
  outcomeUnknown?: boolean;
}

export class WavixApiError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
  readonly outcomeUnknown: boolean;

  constructor(detail: string, init: WavixApiErrorInit) {
    super(`${init.method} ${init.path}: ${detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "WavixApiError";
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.body = init.body;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  /** A plain object for logs and `--json` output: no stack, no headers. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      outcomeUnknown: this.outcomeUnknown,
      body: this.body,
    };
  }
}

export function isWavixApiError(error: unknown): error is WavixApiError {
  return error instanceof WavixApiError;
}
