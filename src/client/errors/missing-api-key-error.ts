/** Neither the `apiKey` option nor `WAVIX_API_KEY` holds a key (PRODUCT.md part 5 "Environment"). */
export class MissingApiKeyError extends Error {
  constructor() {
    super("no Wavix API key: set WAVIX_API_KEY (or pass apiKey to the client)");
    this.name = "MissingApiKeyError";
  }
}

export function isMissingApiKeyError(error: unknown): error is MissingApiKeyError {
  return error instanceof MissingApiKeyError;
}
