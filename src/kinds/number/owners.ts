/**
 * Who owns a declared number that is not where the file says (issue #14, #20): a number held by a
 * sub-account is not visible to the master key, and "not owned … buy it first" would send a person
 * to buy a number they already have. Only runs on that error path, so plans of files whose numbers
 * are all found send no extra request.
 */
import type { WavixClient } from "../../client";
import type { SubAccount } from "../../client/types";
import { findNumbers } from "./handler";
import { listAllSubAccounts } from "../sub-account/public";
import type { FoundOwner } from "./tenants";

/**
 * Sub-accounts searched for missing numbers, at most; beyond that the plain "not owned" message
 * stands (each one costs at least one listing request).
 */
export const MAX_SUB_ACCOUNTS_SEARCHED = 50;

/** Options of {@link findNumberOwners}. */
export interface FindOwnersOptions {
  /** Also look in the account's own numbers (for a number declared under a sub-account). @default false */
  readonly master?: boolean;
}

/** Digits → where that number was found (the account itself, or a sub-account), for the digits found. */
export async function findNumberOwners(
  client: WavixClient,
  digits: readonly string[],
  listSubAccounts: () => Promise<readonly SubAccount[]> = () => listAllSubAccounts(client),
  options: FindOwnersOptions = {},
): Promise<Map<string, FoundOwner>> {
  const owners = new Map<string, FoundOwner>();
  if (digits.length === 0) return owners;
  const asMaster = options.master
    ? findNumbers(client, digits).then(
        (found) => found,
        () => new Map(), // a hint only
      )
    : Promise.resolve(new Map());
  let subs: readonly SubAccount[] = [];
  try {
    subs = await listSubAccounts();
  } catch {
    // a hint only: the "not owned" problem is reported either way
  }
  const bySub = new Map<number, Set<string>>();
  await Promise.all(
    subs.slice(0, MAX_SUB_ACCOUNTS_SEARCHED).map(async (s) => {
      if (!s.api_key) return;
      try {
        const found = await findNumbers(client.withApiKey(s.api_key), digits);
        bySub.set(s.id, new Set(found.keys()));
      } catch {
        // A sub-account whose key cannot list numbers says nothing about ownership.
      }
    }),
  );
  for (const d of (await asMaster).keys()) owners.set(d, { kind: "master" });
  // In listing order, so the answer does not depend on which read finished first.
  for (const s of subs) for (const d of bySub.get(s.id) ?? []) if (!owners.has(d)) owners.set(d, { kind: "sub_account", account: s });
  return owners;
}

/** The message for a number declared as the account's own that a sub-account owns: which one, and how to declare it. */
export function numberOwnedBySubAccountMessage(digits: string, owner: SubAccount): string {
  return (
    `number ${digits} belongs to sub-account ${JSON.stringify(owner.name)} (id ${owner.id}), not to the account itself: ` +
    `declare it with sub_account: ${JSON.stringify(owner.name)} (the API cannot move a number between the account and its sub-accounts)`
  );
}
