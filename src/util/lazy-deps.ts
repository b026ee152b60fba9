/**
 * The dependencies loaded by their first use, not with the modules that may need them, each once
 * for every caller (docs/SPEED.md, "The native plugin's start"):
 *  - p-limit and p-retry, ES modules and the costliest part of loading the client (some 50 ms of a
 *    native plugin's first call, which sends no request);
 *  - decimal.js: a kind's handler and the file's checks are loaded by every native plugin's first
 *    Check, which seldom sees an amount;
 *  - js-yaml: the fast file parser's, which checking data already parsed never needs.
 */
import type Decimal from "decimal.js";
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

let decimal: typeof Decimal | undefined;
/** decimal.js's class, loaded on the first call. */
export function decimalJs(): typeof Decimal {
  if (decimal === undefined) {
    const loaded = require("decimal.js") as typeof Decimal & { default?: typeof Decimal };
    decimal = loaded.default ?? loaded;
  }
  return decimal;
}

let yaml: typeof import("js-yaml") | undefined;
/** js-yaml, loaded on the first call. */
export function jsYaml(): typeof import("js-yaml") {
  yaml ??= require("js-yaml") as typeof import("js-yaml");
  return yaml;
}
