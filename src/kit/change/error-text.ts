/**
 * One plain sentence for errors that reach a person (issue #14): not Node's `EEXIST … mkdir`,
 * OpenSSL's `ssl3_get_record:wrong version number`, or `expected JSON, got text/plain (500)`.
 * What the error was about (the request line, the path) is kept; the internals are dropped.
 * Used by the engine for per-item failures and by the CLI for what ends a command.
 */
// The errors alone, not the client index: the CLI loads this for its last word, also where no request is sent.
import { isNetworkError, isRateLimitedError, isWavixApiError, protocolMismatch } from "../../client/errors";

/**
 * The connection failure behind a network error (ECONNREFUSED, ENOTFOUND, EAI_AGAIN) and its
 * address or host, from the message the client kept (`connect ECONNREFUSED 127.0.0.1:1`,
 * `getaddrinfo ENOTFOUND api.example`): the scrubbed cause keeps the text, not the fields.
 */
function causeCode(err: Error): { code: string; where?: string } | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const m = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN)\b(?: ([^\s)]+))?/.exec(e.message);
    if (m) return { code: m[1], ...(m[2] ? { where: m[2] } : {}) };
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") return { code };
  }
  return undefined;
}

/** What to do when nothing answers at the API root (the hint of issue #36). */
const CHECK_BASE_URL = "check WAVIX_BASE_URL (the API root; unset, it is https://api.wavix.com) and that the server there is running";

/** Characters of a non-JSON body quoted in a message. */
const BODY_SHOWN = 80;

/** A file-system error (`EISDIR`, `EEXIST`, ...) as one sentence naming the path. */
function fileErrorText(err: NodeJS.ErrnoException): string | undefined {
  // rename(tmp, target) names the target as `dest`: that is the path the person gave.
  const path = (err as { dest?: string }).dest ?? err.path;
  const where = path ? `cannot write ${path}` : "cannot write the file";
  switch (err.code) {
    case "EISDIR":
      return `${where}: it is a directory (give a file name)`;
    case "EEXIST":
    case "ENOTDIR":
      // mkdir of a folder where a file is (`--out report.txt` for a folder, or a file in the path).
      return `${where}: a file is in the way where a folder is needed`;
    case "EACCES":
    case "EPERM":
      return `${where}: permission denied`;
    case "ENOSPC":
      return `${where}: no space left on the device`;
    case "EROFS":
      return `${where}: the file system is read-only`;
    case "ENOENT":
      return `${where}: a folder in the path does not exist`;
    default:
      return undefined;
  }
}

/** The message for a person; falls back to the error's own message. */
export function describeError(err: unknown): string {
  if (isWavixApiError(err)) {
    const request = `${err.method} ${err.path}`;
    const text = err.message;
    const mismatch = isNetworkError(err) ? protocolMismatch(err) : undefined;
    if (mismatch === "tls-to-http") {
      return `${request}: could not start a TLS (https) connection: the server there seems to speak plain http; check the scheme in WAVIX_BASE_URL`;
    }
    if (mismatch === "http-to-tls") {
      // fetch over http:// to a TLS server reads a handshake it cannot parse.
      return `${request}: the server did not answer in HTTP: it may expect https; check the scheme in WAVIX_BASE_URL`;
    }
    if (isNetworkError(err)) {
      const cause = causeCode(err);
      if (cause?.code === "ECONNREFUSED") return `${request}: connection refused${cause.where ? ` by ${cause.where}` : ""}: nothing answers there; ${CHECK_BASE_URL}`;
      if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return `${request}: no such host${cause.where ? ` ${cause.where}` : ""}: ${CHECK_BASE_URL}`;
    }
    if (isRateLimitedError(err)) {
      return `${text}; the API still limited the rate after every retry: lower it with --max-rps (e.g. --max-rps 5) or --concurrency 2, or run again later`;
    }
    const got = /^expected JSON, got (?!malformed)(.+) \(\d+\)$/.exec(text.slice(request.length + 2));
    if (err.name === "ResponseFormatError" && got) {
      const raw = typeof err.body === "string" ? err.body : "";
      const html = got[1] === "text/html";
      // An HTML page is named by its title (its markup is noise); plain text by its start.
      const title = html ? /<title[^>]*>([^<]*)<\/title>/i.exec(raw)?.[1] : undefined;
      const body = (html ? (title ?? "") : raw).replace(/\s+/g, " ").trim();
      const shown = body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}…` : body;
      const kind = err.status >= 500 ? "a server error" : `status ${err.status}`;
      const as = html ? "an HTML page" : got[1] === "text/plain" ? "plain text" : got[1];
      return (
        `${request}: the API answered with ${kind} (${err.status}) as ${as}` +
        (shown ? ` (${JSON.stringify(shown)})` : "") +
        " instead of JSON" +
        (err.status >= 500
          ? "; the fault is on the API's side or a proxy in between: try again later"
          : html && err.status === 404
            ? `: this is not the Wavix API; check WAVIX_BASE_URL (the API root, with no path: unset, it is https://api.wavix.com)`
            : "")
      );
    }
    return text;
  }
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).code === "string" && (err as NodeJS.ErrnoException).syscall) {
    const t = fileErrorText(err as NodeJS.ErrnoException);
    if (t) return t;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Whether a failure's message is one a re-run cannot fix by itself (a person must act first): the
 * key lacks a scope or is refused (403, 401), or a variable a write needs is not set. A re-run after
 * a network error or a 5xx finishes the rest; after these it fails the same way (issue #36).
 */
export function needsAPerson(message: string): boolean {
  return /\b(forbidden \(403\)|unauthorized \(401\))|which this API key lacks|is not set or empty/.test(message);
}
