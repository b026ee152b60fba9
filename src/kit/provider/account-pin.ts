/**
 * The account pin (issue #20): the file's `account_id:` (Pulumi: `wavix:accountId`) names the
 * account its API key must belong to. Before anything else is read or written, `GET /v1/profile`
 * says whose the key is; a different account stops the run with both ids and nothing sent.
 */
import type { FetchLike, WavixClient } from "../../client";
import { WavixApiError } from "../../client";

/** The key belongs to another account than the pinned one. Never retried; holds no key. */
export class AccountMismatchError extends WavixApiError {
  constructor(
    readonly expected: number,
    readonly actual: number,
    /** Where the pin comes from, for the message (`wavix.yaml account_id`, `wavix:accountId`). */
    readonly source: string,
  ) {
    super(
      `the API key belongs to account ${actual}, but ${source} pins account ${expected}; stopped before reading or writing anything else (check ${source.startsWith("wavix:") ? "wavix:apiKey" : "WAVIX_API_KEY"}, or the pin)`,
      { method: "GET", path: "/v1/profile", status: 0 },
    );
    this.name = "AccountMismatchError";
  }
}

/** Compares the key's account (one `GET /v1/profile`) with the pin; throws {@link AccountMismatchError}. */
export async function checkAccountPin(client: WavixClient, expected: number, source: string): Promise<void> {
  const profile = await client.getAccountProfile();
  if (profile.id !== expected) throw new AccountMismatchError(expected, profile.id, source);
}

/**
 * A fetch that sends nothing before the pin has been checked once (through `check`, memoised):
 * every client made with it, and every client derived from those, waits for the check and fails
 * with its error. For front ends with many entry points (the Pulumi providers).
 */
export function accountPinnedFetch(base: FetchLike, check: () => Promise<void>): FetchLike {
  let checked: Promise<void> | undefined;
  return async (input, init) => {
    checked ??= check();
    await checked;
    return base(input, init);
  };
}
