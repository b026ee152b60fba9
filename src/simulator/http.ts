/** Response values and the error bodies of seed part 7. */

export interface SimResponse {
  status: number;
  /** The body as sent: JSON text from `json`, or anything (fault injection: HTML pages, truncated JSON). */
  raw: string;
  contentType: string;
}

/**
 * A JSON response. The body is serialised here, once, so the response is a snapshot of the store
 * when the handler answers: handlers return live store objects without copying them first, and a
 * later change (an asynchronous bulk update) cannot alter an answer already made.
 */
export function json(status: number, body: unknown): SimResponse {
  return { status, raw: JSON.stringify(body) ?? "", contentType: "application/json; charset=utf-8" };
}

/** 404 `{success:false, message}` (seed part 7). */
export function notFound(message: string): SimResponse {
  return json(404, { success: false, message });
}

/** 403 `{success:false, message}` (seed 4.1, part 7). */
export function forbidden(message: string): SimResponse {
  return json(403, { success: false, message });
}

/** Unauthorized `{success:false, error:true, message}` (seed part 7); status 401. */
export function unauthorized(message: string): SimResponse {
  return json(401, { success: false, error: true, message });
}

/**
 * A validation failure; the router turns it into `{success:false, message, errors}` (seed part 7)
 * with the route's status: 400 where the official document declares it, else 422.
 */
export class ValidationFailure extends Error {
  constructor(
    readonly errors: Record<string, string>,
    message = "The given data was invalid.",
  ) {
    super(message);
  }
}

export function validationError(errors: Record<string, string>, message = "The given data was invalid.", status = 400): SimResponse {
  return json(status, { success: false, message, errors });
}

/** A 400 for a body that is not JSON. */
export function badRequest(message: string): SimResponse {
  return json(400, { success: false, message });
}
