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
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return local - zoneOffsetMs(zone);
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
  return ms === null ? null : formatUtc(ms);
}
