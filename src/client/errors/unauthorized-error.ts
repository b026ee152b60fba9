import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** The key is missing or invalid (seed part 7: body `{success: false, error: true, message}`). */
export class UnauthorizedError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "UnauthorizedError";
  }
}

export function isUnauthorizedError(error: unknown): error is UnauthorizedError {
  return error instanceof UnauthorizedError;
}
