import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** No response arrived: connection refused, reset or dropped (`status` 0). */
export class NetworkError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "NetworkError";
  }
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/**
 * A scheme mismatch behind a network error, from its message and cause chain: `tls-to-http` when a
 * TLS handshake met a plain-http server (OpenSSL's "wrong version number"), `http-to-tls` when the
 * HTTP parser met a TLS server (`HPE_*`). The same every time it is tried: never retried
 * (request.ts), and worded as one sentence for a person (src/kit/change/error-text.ts).
 */
export function protocolMismatch(error: NetworkError): "tls-to-http" | "http-to-tls" | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if ((typeof code === "string" && /^(ERR_SSL_|EPROTO$)/.test(code)) || /wrong version number|SSL routines/i.test(e.message)) return "tls-to-http";
    if ((typeof code === "string" && /^HPE_/.test(code)) || /Expected HTTP/i.test(e.message)) return "http-to-tls";
  }
  return undefined;
}
