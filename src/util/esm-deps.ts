/**
 * p-limit and p-retry are ES modules; loading them is the costliest part of loading the client
 * (some 50 ms of a native plugin's first call, which sends no request: docs/SPEED.md, "The native
 * plugin's start"). They are loaded here by their first use, once, for every caller.
 */
import type { LimitFunction } from "p-limit";

let limitFactory: typeof import("p-limit").default | undefined;
let retry: typeof import("p-retry").default | undefined;

/** p-limit's `pLimit(concurrency)`, loading it on the first call. */
export function concurrencyLimit(concurrency: number): LimitFunction {
  limitFactory ??= (require("p-limit") as typeof import("p-limit")).default;
  return limitFactory(concurrency);
}

/** p-retry's `pRetry`, loaded on the first call. */
export const pRetry: typeof import("p-retry").default = (input, options) => {
  retry ??= (require("p-retry") as typeof import("p-retry")).default;
  return retry(input, options);
};
