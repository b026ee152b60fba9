/**
 * Scrubbing of secrets (docs/CONTRACT.md part 8 "Security": the key never appears in errors). Error
 * bodies and low-level error messages are passed through here before they are attached to an
 * error, in case a server or a library echoes the key back.
 */
const MASK = "[REDACTED]";

/**
 * Below this length a secret is masked only where it stands as a whole token (issue #22): a key of
 * one letter (`x`) masked everywhere turned `api.wavix.com` into `api.wavi[REDACTED].com`. A real
 * key is far longer and is masked wherever it appears, even inside another word.
 */
export const WHOLE_TOKEN_BELOW = 16;

const TOKEN_CHAR = "A-Za-z0-9_\\-";

function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Most strings hold no secret: no split, and no pattern built, for those (a large error body is
    // scrubbed string by string).
    if (secret.length === 0 || !out.includes(secret)) continue;
    if (secret.length >= WHOLE_TOKEN_BELOW) out = out.split(secret).join(MASK);
    else {
      const escaped = secret.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
      out = out.replace(new RegExp(`(?<![${TOKEN_CHAR}])${escaped}(?![${TOKEN_CHAR}])`, "g"), MASK);
    }
  }
  return out;
}

/** A deep copy of `value` with every occurrence of each secret in strings (and keys) masked. */
export function redact<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === "string") return redactText(value, secrets) as T;
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[redactText(k, secrets)] = redact(v, secrets, depth + 1);
  }
  return out as T;
}

/**
 * A fresh Error standing for `error` as a `cause`: name, message, `code` and one level of nested
 * cause, all scrubbed. The original object is not kept, since low-level errors (undici) may hold
 * references to the request and its headers.
 */
export function safeCause(error: unknown, secrets: readonly string[], depth = 0): Error {
  const source = error instanceof Error ? error : new Error(String(error));
  const nested = depth < 2 && source.cause !== undefined ? safeCause(source.cause, secrets, depth + 1) : undefined;
  const copy = new Error(redactText(source.message, secrets), nested ? { cause: nested } : undefined);
  copy.name = source.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  const code = (source as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") {
    (copy as Error & { code?: string | number }).code = code;
  }
  return copy;
}
