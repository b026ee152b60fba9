/**
 * `Retry-After` parsing, alone (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date.
 * docs/CONTRACT.md part 8: idempotent requests retry on 429 honouring `Retry-After`.
 */

/**
 * Milliseconds to wait as asked by a `Retry-After` value, or `undefined` when the value is absent
 * or unreadable. A date in the past gives 0. Never negative.
 *
 * @param value the header value
 * @param now the current time in ms since the epoch (injectable for tests)
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  // delay-seconds = 1*DIGIT; fractions are not in the grammar but are harmless to accept.
  if (/^\d+(\.\d+)?$/.test(text)) {
    return Math.round(Number(text) * 1000);
  }
  // HTTP-date (IMF-fixdate, or the obsolete forms Date.parse also reads). Require a letter so a
  // bare signed number such as "-1" is not taken for a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The wait before a retry that the server asked for, capped at `maxMs` so a hostile or broken
 * `Retry-After` cannot stall a run for hours.
 */
export function cappedRetryAfter(retryAfterMs: number | undefined, maxMs: number): number | undefined {
  if (retryAfterMs === undefined) return undefined;
  return Math.min(retryAfterMs, maxMs);
}
