/**
 * Who owns a declared number the account does not list (issue #14). A number held by a
 * sub-account is not visible to the master key, and "not owned … buy it first" would send a
 * person to buy a number they already have. Only runs on that error path, so plans of files
 * whose numbers are all found send no extra request.
 */
import type { WavixClient } from "../../client";
import type { SubAccount } from "../../client/types";
import { findNumbers } from "./handler";
import { listAllSubAccounts } from "../sub-account/handler";

/**
 * Sub-accounts searched for missing numbers, at most; beyond that the plain "not owned" message
 * stands (each one costs at least one listing request).
 */
export const MAX_SUB_ACCOUNTS_SEARCHED = 50;

/** Digits → the sub-account holding that number, for the digits found in one. */
export async function findNumberOwners(
  client: WavixClient,
  digits: readonly string[],
  listSubAccounts: () => Promise<readonly SubAccount[]> = () => listAllSubAccounts(client),
): Promise<Map<string, SubAccount>> {
  const owners = new Map<string, SubAccount>();
  if (digits.length === 0) return owners;
  let subs: readonly SubAccount[];
  try {
    subs = await listSubAccounts();
  } catch {
    return owners; // a hint only: the "not owned" problem is reported either way
  }
  await Promise.all(
    subs.slice(0, MAX_SUB_ACCOUNTS_SEARCHED).map(async (s) => {
      if (!s.api_key) return;
      try {
        const found = await findNumbers(client.withApiKey(s.api_key), digits);
        for (const d of found.keys()) if (!owners.has(d)) owners.set(d, s);
      } catch {
        // A sub-account whose key cannot list numbers says nothing about ownership.
      }
    }),
  );
  return owners;
}

/** The message for a declared number a sub-account owns: which one, and how to declare it. */
export function numberOwnedBySubAccountMessage(digits: string, owner: SubAccount): string {
  return (
    `number ${digits} belongs to sub-account ${JSON.stringify(owner.name)} (id ${owner.id}), not to the account itself: ` +
    `the CLI manages the account's own numbers, so remove it from this file, or declare it in a Pulumi program as a ` +
    `PhoneNumber with subAccountId ${owner.id}`
  );
}
