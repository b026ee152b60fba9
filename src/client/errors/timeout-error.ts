import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** No complete response within `timeoutMs` (`status` 0); the request was aborted. */
export class TimeoutError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "TimeoutError";
  }
}

export function isTimeoutError(error: unknown): error is TimeoutError {
  return error instanceof TimeoutError;
}
