/**
 * The SIP trunk kind's public face: what another kind may use (docs/ARCHITECTURE.md, "The four
 * floors"): the number kind routes numbers to trunks by label. It never imports the kind's index.
 */
import type { SipTrunkSummary } from "../../client/types";
import type { PlanContext } from "../../kit/contract";
import { listAllTrunks } from "./handler";

export { createProblem, matchTrunk, trunkSettingsOf } from "./handler";
export type { DesiredSipTrunk, SipTrunkPart } from "./types";

/** The cache name of the account's trunk listing (read once per plan, by this kind or the number kind). */
export const TRUNK_LIST = "sip-trunks";

/** The account's trunks (summaries), read once per plan. */
export function trunkList(ctx: PlanContext): Promise<SipTrunkSummary[]> {
  return ctx.cache.once(TRUNK_LIST, () => listAllTrunks(ctx.client));
}

/** The kind's name, as other kinds look up what its creates made (`EarlierWrites.made`). */
export const SIP_TRUNK_KIND = "sip_trunk";
