import { WavixApiError, type WavixApiErrorInit } from "./wavix-api-error";

/** The response was not the JSON the API promises (seed: "bodies are JSON"): an HTML error page from a proxy, or truncated JSON. */
export class ResponseFormatError extends WavixApiError {
  constructor(detail: string, init: WavixApiErrorInit) {
    super(detail, init);
    this.name = "ResponseFormatError";
  }
}

export function isResponseFormatError(error: unknown): error is ResponseFormatError {
  return error instanceof ResponseFormatError;
}
