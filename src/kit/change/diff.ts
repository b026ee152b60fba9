/**
 * The plain-data vocabulary of a diff (docs/CONTRACT.md part 4): what every kind's plan speaks
 * and every renderer shows. A kind's own equality rules live in its folder (a number's
 * destinations: src/kinds/number/destinations.ts).
 */

/** Marker shown instead of a secret value. */
export const SENSITIVE = "(sensitive)";

/** One changed field. `before`/`after` are plain JSON values; secrets are {@link SENSITIVE}. */
export interface FieldDiff {
  path: string;
  before: unknown;
  after: unknown;
  sensitive?: boolean;
  /** The API cannot show the current value (a write-only field): `before` is shown as {@link UNREADABLE}. */
  unreadable?: boolean;
}

/** Shown instead of the value the API cannot show back. */
export const UNREADABLE = "(cannot be read back)";

/** Structural equality of plain JSON values, independent of object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** A stable text key for a plain JSON value (sorted object keys), for grouping equal patches. */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalKey(o[k])}`)
    .join(",")}}`;
}
