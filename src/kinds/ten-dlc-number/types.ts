/**
 * The 10DLC Campaign number kind's own types: what the file declares (`ten_dlc_campaign_numbers:`),
 * what apply needs for one change, and the plain inputs and outputs of its provider
 * (`TenDlcCampaignNumber`; docs/CONTRACT.md part 6).
 */
import type { OpBase } from "../../kit/contract";
import type { SourcePosition } from "../../kit/file/problems";
import type { OnDelete, Origin } from "../../kit/provider/guards";

/** The numbers linked to one 10DLC Campaign (`ten_dlc_campaign_numbers:`); brand and Campaign are references. */
export interface DesiredCampaignNumbers {
  brand_id: string;
  campaign_id: string;
  /** Digits, without `+`, unique. */
  numbers: string[];
  path: string;
  pos?: SourcePosition;
}

/** The 10DLC Campaign number kind's part of the typed file. */
export interface TenDlcNumberPart {
  ten_dlc_campaign_numbers?: DesiredCampaignNumbers[];
}

export type TenDlcNumberOp = OpBase & {
  action: "create" | "delete";
  brand_id: string;
  campaign_id: string;
  number: string;
  /** An unlink's: the link's status when planned (its diff shows it; a saved plan records it). */
  status?: string;
};

export interface TenDlcCampaignNumberInputs {
  /** The 10DLC Brand (a reference: created outside wavix-sync). */
  brandId: string;
  /** The 10DLC Campaign (a reference). */
  campaignId: string;
  /** Digits; a leading `+` is dropped. */
  number: string;
  /**
   * What deleting the resource does: `delete` unlinks the number even when the stack adopted the
   * link (it was linked before the stack's create); `retain` never unlinks it. Not given: a link
   * the stack made is unlinked, one it adopted is left as it is (src/kit/provider/guards.ts).
   */
  onDelete?: OnDelete;
}

export interface TenDlcCampaignNumberOutputs extends TenDlcCampaignNumberInputs, Partial<Origin> {
  /** The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...). */
  status: string;
}
