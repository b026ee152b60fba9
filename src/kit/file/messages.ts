/**
 * Human wording for problems: what was expected and what the file holds, never ajv's internals
 * (docs/CONTRACT.md part 3: wrong types, bad URLs, bad enums and unknown keys with "did you mean").
 */
import type { ErrorObject } from "ajv";

/** Longest piece of a value quoted in a message; the rest is cut (values can be long, or pasted secrets). */
const MAX_QUOTED = 40;

/** Characters of a token-like value quoted before it is cut. */
const TOKEN_SHOWN = 6;

/**
 * A value that looks like a key or token (one run of 16+ letters, digits and `_-+/=.` with both
 * letters and digits, not a URL): a secret pasted into the wrong field. Only its start is quoted.
 */
export function looksLikeToken(v: string): boolean {
  return v.length >= 16 && /^[A-Za-z0-9_\-+/=.]+$/.test(v) && /[A-Za-z]/.test(v) && /[0-9]/.test(v) && !v.includes("://");
}

/**
 * `"text"` for a string, the literal for other scalars. Long strings are cut at 40 characters, and
 * token-like ones (a pasted key) after their first 6, so a wrongly placed secret is never echoed.
 */
export function quote(v: unknown): string {
  if (typeof v === "string") {
    if (looksLikeToken(v)) return `${JSON.stringify(`${v.slice(0, TOKEN_SHOWN)}…`)} (${v.length} characters)`;
    const chars = [...v];
    const cut = chars.length > MAX_QUOTED ? `${chars.slice(0, MAX_QUOTED).join("")}…` : v;
    return JSON.stringify(cut);
  }
  return String(v);
}

/**
 * An identity (a sub-account name, a destination, a brand or session ID) in a message: cut at 60
 * characters but never shortened as a token, since a person must recognise which one is meant.
 */
export function quoteName(v: string): string {
  const chars = [...v];
  return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 60).join("")}…` : v);
}

/** `the string "yes"`, `the number 5`, `true`, `null`, `a list`, `a mapping`. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return `the string ${quote(v)}`;
  if (typeof v === "number") return `the number ${v}`;
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return "a list";
  return "a mapping";
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  boolean: "a boolean",
  string: "a string",
  integer: "an integer",
  number: "a number",
  array: "a list",
  object: "a mapping",
  null: "null",
};

/** `a or b` / `a, b or c`. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** Edit distance (insert, delete, substitute), for "did you mean". */
export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * The known key closest to `key`: same letters ignoring case, `_` and `-` (smsEnabled, sms-enabled),
 * or within 2 edits. Undefined when nothing is close.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const squash = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, "");
  const same = known.find((k) => squash(k) === squash(key));
  if (same) return same;
  let best: string | undefined;
  let bestDist = 3;
  for (const k of known) {
    const d = levenshtein(key.toLowerCase(), k.toLowerCase());
    if (d < bestDist) {
      best = k;
      bestDist = d;
    }
  }
  return best;
}

function isUrlSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as Record<string, unknown>).format === "uri";
}

function typeList(t: unknown): string[] {
  return Array.isArray(t) ? (t as string[]) : [String(t)];
}

/**
 * Message of one ajv error about a value (not `additionalProperties`/`required`, which the loader
 * words itself). `field` is the key holding the value; `source` the scalar's text in the file.
 */
export function valueErrorMessage(err: ErrorObject, field: string | undefined, source: string | undefined): string {
  const data: unknown = err.data;
  const parent = err.parentSchema as Record<string, unknown> | undefined;
  const name = field ?? "value";

  if (field === "brands" && (err.keyword === "type" || err.keyword === "const")) {
    return `expected a list of brand IDs or "all", got ${describeValue(data)}`;
  }
  if (isUrlSchema(parent) && (err.keyword === "type" || err.keyword === "format" || err.keyword === "pattern")) {
    const nullable = typeList(parent?.type).includes("null");
    return `expected an http(s) URL${nullable ? " or null" : ""}, got ${describeValue(data)}`;
  }

  switch (err.keyword) {
    case "type": {
      const expected = orList(typeList(err.params.type).map((t) => TYPE_WORDS[t] ?? t));
      let msg = `expected ${expected}, got ${describeValue(data)}`;
      // YAML reads 15551230001 and +15551230002 as numbers: say how to keep them text.
      if (typeList(err.params.type).includes("string") && typeof data === "number" && source !== undefined) {
        msg += ` (quote it: "${source}")`;
      }
      return msg;
    }
    case "enum": {
      const allowed = (err.params.allowedValues as unknown[]).map((v) => String(v));
      if (data === null || typeof data === "object") return `expected ${name} ${orList(allowed)}, got ${describeValue(data)}`;
      return `unknown ${name} ${quote(data)}: expected ${orList(allowed)}`;
    }
    case "const": {
      const allowed = err.params.allowedValue as unknown;
      if (field === "version") return `unsupported version ${data === null || typeof data === "object" ? describeValue(data) : quote(data)}: expected 1`;
      return `expected ${quote(allowed)}, got ${describeValue(data)}`;
    }
    case "pattern":
      if (field === "number") return `invalid number ${quote(data)}: expected digits, with an optional leading "+"`;
      return `invalid ${name} ${quote(data)}`;
    case "format":
      if (err.params.format === "date") return `invalid date ${quote(data)}: expected YYYY-MM-DD`;
      return `invalid ${name} ${quote(data)}: expected a ${String(err.params.format)}`;
    case "minimum":
      return `${name} must be at least ${String(err.params.limit)}, got ${quote(data)}`;
    case "maximum":
      // A number past 2^53 was already rounded when read: quoting it would name another number.
      if (typeof data === "number" && Number.isInteger(data) && !Number.isSafeInteger(data)) return `${name} must be at most ${String(err.params.limit)}: the number written is too large to be read exactly`;
      return `${name} must be at most ${String(err.params.limit)}, got ${quote(data)}`;
    case "minLength":
      return `${name} must not be empty`;
    default:
      return `${name}: ${err.message ?? "invalid"}`;
  }
}

/** Order among several errors on one value: the first one is reported, the others are noise. */
export function valueErrorRank(err: ErrorObject): number {
  const order = ["type", "const", "enum", "pattern", "format", "minLength", "minimum", "maximum"];
  const i = order.indexOf(err.keyword);
  return i === -1 ? order.length : i;
}
