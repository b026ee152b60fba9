/**
 * Tolerant timestamp reading for audit data. docs/CONTRACT.md part 2: "vetting timestamps may lack a
 * zone" — a time without a zone is read as UTC. Output is always ISO 8601 UTC (`...Z`).
 */

// Date, optional time (T or space), optional fraction, optional zone (Z, UTC, ±hh, ±hhmm, ±hh:mm).
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Milliseconds since the epoch for `text`, or `null` when it cannot be read.
 * A time without a zone is UTC; a calendar-invalid date (2026-02-30) is refused, not rolled over.
 */
export function parseTimestamp(text: string): number | null {
  // A session's time is read three times in a row (the listing's filter, the session's figures,
  // its day): the last answer is kept.
  if (text === lastText) return lastMs;
  const ms = parseUncached(text);
  lastText = text;
  lastMs = ms;
  return ms;
}

let lastText: string | undefined;
let lastMs: number | null = null;
/** The last text the fast path read as a valid time (its fields are then exactly formatUtc's). */
let lastFast: string | undefined;

/** `0`–`9` at `i` of `t` as a number, else NaN. */
function digitAt(t: string, i: number): number {
  const c = t.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/**
 * The form the API sends (`2026-11-22T10:00:00Z`, `2026-11-22T10:00:00.123Z`) read without the
 * regular expression; anything else (or a year before 100, which `Date.UTC` reads as 19xx) takes
 * the general path, which gives the same answer for this form.
 */
function parseUncached(text: string): number | null {
  const n = text.length;
  if ((n === 20 || n === 24) && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(10) === 84 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58 && text.charCodeAt(n - 1) === 90 && (n === 20 || text.charCodeAt(19) === 46)) {
    const year = digitAt(text, 0) * 1000 + digitAt(text, 1) * 100 + digitAt(text, 2) * 10 + digitAt(text, 3);
    const month = digitAt(text, 5) * 10 + digitAt(text, 6);
    const day = digitAt(text, 8) * 10 + digitAt(text, 9);
    const hour = digitAt(text, 11) * 10 + digitAt(text, 12);
    const minute = digitAt(text, 14) * 10 + digitAt(text, 15);
    const second = digitAt(text, 17) * 10 + digitAt(text, 18);
    const ms = n === 20 ? 0 : digitAt(text, 20) * 100 + digitAt(text, 21) * 10 + digitAt(text, 22);
    // NaN (a character not a digit) fails every comparison: the general path decides.
    if (year >= 100 && ms >= 0) {
      const time = fromFields(year, month, day, hour, minute, second, ms, 0);
      if (time !== null) lastFast = text;
      return time;
    }
  }
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = ""] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  // Milliseconds from the first three fraction digits; finer precision is dropped (API sends seconds).
  const ms = frac === "" ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  return fromFields(year, month, day, hour, minute, second, ms, zoneOffsetMs(zone));
}

/** Days of each month of a common year. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The instant of the fields, or null when they are not a calendar date and time. */
function fromFields(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, offsetMs: number): number | null {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (year >= 100) {
    // The calendar checked by arithmetic rather than by a Date read back (this runs for every
    // session, twice); a field that is not a number (NaN) gives null here as below.
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    if (!(day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]))) return null;
    const time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
    return Number.isNaN(time) ? null : time - offsetMs;
  }
  // Date.UTC reads years 0–99 as 1900–1999: the Date read back refuses them.
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return local - offsetMs;
}

function zoneOffsetMs(zone: string): number {
  if (zone === "" || /^(Z|z|UTC|GMT)$/.test(zone)) return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes) * 60_000;
}

/** ISO 8601 UTC, without milliseconds when they are zero (`2026-11-22T10:00:00Z`). */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/** `text` rewritten as ISO 8601 UTC, or `null` when it cannot be read. */
export function normaliseTimestamp(text: string): string | null {
  const ms = parseTimestamp(text);
  if (ms === null) return null;
  // The API's own form (read by the fast path) is already what formatUtc writes, but for zero
  // milliseconds, which it leaves out.
  if (text.length === 20 && text === lastFast) return text;
  if (text.length === 24 && text === lastFast) return text.endsWith(".000Z") ? `${text.slice(0, 19)}Z` : text;
  return formatUtc(ms);
}
