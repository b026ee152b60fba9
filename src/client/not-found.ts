/** A read of something that may be gone: a 404 means "not there", any other error stays an error. */
import { isNotFoundError } from "./index";

/** Resolves to undefined when the request answers 404 (NotFoundError); other failures reject as they were. */
export function notFoundToUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  return p.catch((err: unknown) => {
    if (isNotFoundError(err)) return undefined;
    throw err;
  });
}
