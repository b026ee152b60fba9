import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/**
 * The API refused the request body (seed part 7: `{success: false, message, errors: {field: rule}}`;
 * a missing required field has the rule `required`). `errors` is that map (empty when the API sent
 * only a message).
 */
export class ValidationError extends WavixApiError {
  readonly errors: Record<string, string>;

  constructor(detail: string, init: WavixApiErrorInit & { errors: Record<string, string> }) {
    super(detail, init);
    this.name = "ValidationError";
    this.errors = init.errors;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), errors: this.errors };
  }
}

export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError;
}
