/**
 * The base URL is unusable: not http(s), or plain `http://` to a host that is not loopback
 * (docs/CONTRACT.md part 5: "plain http:// only to loopback"), which would send the key in clear text.
 */
export class InsecureBaseUrlError extends Error {
  readonly baseUrl: string;

  constructor(baseUrl: string, reason: string) {
    super(`refusing base URL ${baseUrl}: ${reason}`);
    this.name = "InsecureBaseUrlError";
    this.baseUrl = baseUrl;
  }
}

export function isInsecureBaseUrlError(error: unknown): error is InsecureBaseUrlError {
  return error instanceof InsecureBaseUrlError;
}
