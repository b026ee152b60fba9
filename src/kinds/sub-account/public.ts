/**
 * The sub-account kind's public face: what another kind may use (docs/ARCHITECTURE.md, "The four
 * floors"): the account's sub-account list, read once per plan by whichever kind needs it first.
 * It never imports the kind's index.
 */
import type { SubAccount } from "../../client/types";
import type { PlanContext } from "../../kit/contract";
import { listAllSubAccounts } from "./handler";

export { listAllSubAccounts, sharedSubAccountListing } from "./handler";
export type { DesiredSubAccount, SubAccountPart } from "./types";

/** The cache name of the account's sub-account list (read once per plan, by whichever kind needs it first). */
export const SUB_ACCOUNT_LIST = "sub-accounts";

/** The account's sub-accounts, read once per plan. */
export function subAccountList(ctx: PlanContext): Promise<SubAccount[]> {
  return ctx.cache.once(SUB_ACCOUNT_LIST, () => listAllSubAccounts(ctx.client));
}
