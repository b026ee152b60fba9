import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/**
 * 403: the feature is disabled for the account (seed 4.1), or a restricted key lacks the scope the
 * operation needs (seed part 5). `scope` is the scope named by the API message, or else the scope
 * the operation is known to require (e.g. `numbers:read`, seed 5.7).
 */
export class ForbiddenError extends WavixApiError {
  readonly scope: string | undefined;

  constructor(detail: string, init: WavixApiErrorInit & { scope?: string }) {
    super(detail, init);
    this.name = "ForbiddenError";
    this.scope = init.scope;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), scope: this.scope };
  }
}

export function isForbiddenError(error: unknown): error is ForbiddenError {
  return error instanceof ForbiddenError;
}
