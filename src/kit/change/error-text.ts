/**
 * One plain sentence for errors that reach a person (issue #14): not Node's `EEXIST … mkdir`,
 * OpenSSL's `ssl3_get_record:wrong version number`, or `expected JSON, got text/plain (500)`.
 * What the error was about (the request line, the path) is kept; the internals are dropped.
 * Used by the engine for per-item failures and by the CLI for what ends a command.
 */
import { isNetworkError, isWavixApiError, protocolMismatch } from "../../client";

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
        (err.status >= 500 ? "; the fault is on the API's side or a proxy in between: try again later" : "")
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
