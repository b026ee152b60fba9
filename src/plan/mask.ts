/**
 * Secrets inside field values, masked wherever a plan or result is rendered (text, JSON, and any
 * other renderer): the password of a URL's userinfo (`https://admin:s3cr3t@hooks.example/`) is
 * shown as `***`. The user name, host and path stay, so a person can still tell URLs apart.
 * The desired state and the requests keep the real value; only what is displayed changes.
 */

/** `scheme://user:password@` at the start of a string; the password may be empty. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*:)([^/?#@\s]*)@/i;

/** The string with its URL password replaced by `***`; any other value is returned as is. */
export function maskValue<T>(value: T): T {
  if (typeof value !== "string") return value;
  const m = USERINFO.exec(value);
  if (!m || m[2] === "") return value;
  return (value.replace(USERINFO, `$1***@`) as unknown) as T;
}

/** `maskValue` applied through lists and plain objects (destinations, nested records). */
export function maskDeep<T>(value: T): T {
  if (typeof value === "string") return maskValue(value);
  if (Array.isArray(value)) return (value.map((v) => maskDeep(v)) as unknown) as T;
  if (value !== null && typeof value === "object") {
    return (Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskDeep(v)])) as unknown) as T;
  }
  return value;
}

/** Every `scheme://user:password@` inside free text (an error message that quotes a value) masked. */
export function maskText(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*:)([^/?#@\s]+)@/gi, "$1***@");
}
