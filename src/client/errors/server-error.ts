import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** The API answered 5xx. For a POST the outcome is unknown (`outcomeUnknown`). */
export class ServerError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "ServerError";
  }
}

export function isServerError(error: unknown): error is ServerError {
  return error instanceof ServerError;
}
