/**
 * Base URL resolution (docs/CONTRACT.md part 5: `WAVIX_BASE_URL`, default `https://api.wavix.com`,
 * plain `http://` only to loopback). Plain HTTP elsewhere would carry the Bearer key in clear text.
 */
import { isIP } from "node:net";
import { InsecureBaseUrlError } from "./errors/insecure-base-url-error";

export const DEFAULT_BASE_URL = "https://api.wavix.com";

/** `localhost` and its subdomains (RFC 6761 §6.3): loopback by definition, whatever DNS says. */
function isLoopbackName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/** True for 127.0.0.0/8, ::1 and `localhost` (and its subdomains, RFC 6761 §6.3). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isLoopbackName(host)) return true;
  if (isIP(host) === 4) return host.split(".")[0] === "127";
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1";
  return false;
}

/**
 * Validated base URL without a trailing slash, and without a final API version segment: the
 * client's paths carry their version (`/v1/numbers`, `/v3/messages/sender-ids`), so
 * `https://api.wavix.com/v1` (as the API's documents write the server) is taken as
 * `https://api.wavix.com`, never `/v1/v1/...` (issue #27). A proxy's own prefix stays
 * (`https://gw.example/wavix`). `apiKeyName` says where the key goes instead of the URL.
 */
export function resolveBaseUrl(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env, apiKeyName = "WAVIX_API_KEY"): string {
  const raw = (explicit ?? env.WAVIX_BASE_URL ?? "").trim() || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InsecureBaseUrlError(JSON.stringify(raw), "not a valid URL");
  }
  const shown = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  if (url.username || url.password) {
    throw new InsecureBaseUrlError(shown, `credentials in the URL are not allowed (the key goes in ${apiKeyName})`);
  }
  if (url.search || url.hash) {
    throw new InsecureBaseUrlError(shown, "a base URL takes no query or fragment");
  }
  if (url.protocol === "http:") {
    if (!isLoopbackHost(url.hostname)) {
      throw new InsecureBaseUrlError(
        shown,
        "plain http:// is only allowed to a loopback host (127.0.0.0/8, localhost, ::1); use https://",
      );
    }
  } else if (url.protocol !== "https:") {
    throw new InsecureBaseUrlError(shown, `unsupported protocol ${url.protocol} (use https://)`);
  }
  // A loopback *name* over plain http is connected to 127.0.0.1 itself, never looked up: a
  // resolver may send `x.localhost` anywhere (RFC 6761 asks it not to; not all comply), and plain
  // http carries the Bearer key in clear text.
  if (url.protocol === "http:" && isLoopbackName(url.hostname.toLowerCase())) url.hostname = "127.0.0.1";
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/v[0-9]+$/i, "")}`;
}
