/**
 * The account pin (issue #20): the file's `account_id:` (Pulumi: `wavix:accountId`) names the
 * account its API key must belong to. Before anything else is read or written, `GET /v1/profile`
 * says whose the key is; a different account stops the run with both ids and nothing sent. The
 * write gate (src/kit/gate/) compares the same pins again at every write, reusing this answer.
 */
import type { FetchLike, WavixClient } from "../../client";
import { AccountMismatchError, rememberAccount } from "../gate/account";

export { AccountMismatchError };

/** Compares the key's account (one `GET /v1/profile`) with the pin; throws {@link AccountMismatchError}. */
export async function checkAccountPin(client: WavixClient, expected: number, source: string, keyName?: string): Promise<void> {
  const profile = await client.getAccountProfile();
  rememberAccount(client, profile.id);
  if (profile.id !== expected) throw new AccountMismatchError(expected, profile.id, source, keyName);
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
