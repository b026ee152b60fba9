import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/**
 * A paged listing could not be proved complete (docs/CONTRACT.md part 4, "A complete, fresh view before
 * acting"): its pages disagree with its own `total` or `current_page`, an id came twice, a page came
 * back empty too early, or it ran past the page bound. Nothing may be created, pruned or judged
 * missing from such a listing, so it is an error, never a shorter list. `path` names the listing
 * (without its `page` parameter); `page` is the page where the reading stopped.
 */
export class IncompleteListingError extends WavixApiError {
  readonly page: number;

  constructor(detail: string, init: WavixApiErrorInit & { page: number }) {
    super(detail, init);
    this.name = "IncompleteListingError";
    this.page = init.page;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), page: this.page };
  }
}

export function isIncompleteListingError(error: unknown): error is IncompleteListingError {
  return error instanceof IncompleteListingError;
}
