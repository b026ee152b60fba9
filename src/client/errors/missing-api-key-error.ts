/** Neither the `apiKey` option nor `WAVIX_API_KEY` holds a key (docs/CONTRACT.md part 5 "Environment"). */
export class MissingApiKeyError extends Error {
  /** @param hint where to set the key; @default "set WAVIX_API_KEY (or pass apiKey to the client)" */
  constructor(hint = "set WAVIX_API_KEY (or pass apiKey to the client)") {
    super(`no Wavix API key: ${hint}`);
    this.name = "MissingApiKeyError";
  }
}

export function isMissingApiKeyError(error: unknown): error is MissingApiKeyError {
  return error instanceof MissingApiKeyError;
}
