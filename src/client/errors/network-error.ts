import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** No response arrived: connection refused, reset or dropped (`status` 0). */
export class NetworkError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "NetworkError";
  }
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}
