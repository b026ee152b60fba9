import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** No resource with that ID (seed part 7 and 4.1: 404 `{success: false, message}`). */
export class NotFoundError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "NotFoundError";
  }
}

export function isNotFoundError(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError;
}
