/** What apply needs for one planned change of a SIP trunk (the SIP trunk kind's `Op`). */
import type { SipTrunk, SipTrunkSummary } from "../../client/types";
import type { OpBase } from "../../kit/contract";
import type { MadeTrunk, TrunkSettings } from "./handler";

/** What one read gives: the listing, and the whole record of each declared trunk found in it. */
export interface TrunkCurrent {
  list: SipTrunkSummary[];
  records: Map<number, SipTrunk>;
}

export type SipTrunkOp =
  | (OpBase & { action: "create"; desired: TrunkSettings; made?: MadeTrunk })
  | (OpBase & { action: "update"; desired: TrunkSettings; current: SipTrunk; rotate: boolean })
  | (OpBase & { action: "delete"; current: SipTrunkSummary });
