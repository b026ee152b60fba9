/**
 * The 10DLC Campaign number kind in a Pulumi program: the dynamic resource
 * `pulumi-nodejs:dynamic/wavix:TenDlcCampaignNumber` (one per link; its provider is ./provider.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { DesiredCampaignNumbers } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";
import { linkKey } from "./handler";

export interface TenDlcCampaignNumberArgs {
  /** The 10DLC Brand (created outside wavix-sync). */
  brandId: pulumi.Input<string>;
  /** The 10DLC Campaign (created outside wavix-sync). */
  campaignId: pulumi.Input<string>;
  /** Digits; a leading `+` is dropped. */
  number: pulumi.Input<string>;
  /**
   * What deleting the resource does: `"delete"` unlinks it even when this stack adopted it (it existed
   * before the stack's create); `"retain"` never unlinks it. Not given: a link the stack made is unlinked, one it adopted (already linked: an APPROVED link took a vetting) is left as it is.
   */
  onDelete?: pulumi.Input<"delete" | "retain">;
}

/**
 * A number linked to a 10DLC Campaign; deleting the resource unlinks a link the stack made (or any,
 * with `onDelete: "delete"`) and leaves one it adopted as it is.
 */
export class TenDlcCampaignNumber extends WavixDynamicResource {
  declare public readonly brandId: pulumi.Output<string>;
  declare public readonly campaignId: pulumi.Output<string>;
  declare public readonly number: pulumi.Output<string>;
  /** The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...). */
  declare public readonly status: pulumi.Output<string>;
  /** True when the create found the link in place and adopted it; false when it made it. */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account the link belongs to (a delete first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: TenDlcCampaignNumberArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("TenDlcCampaignNumber"), name, { onDelete: undefined, ...args, status: undefined, adopted: undefined, accountId: undefined }, opts, RESOURCE_MODULE, "TenDlcCampaignNumber");
  }
}

/** Logical name: `ten-dlc-number:<brand>/<campaign>/<number>`. */
export const tenDlcNumberLogicalName = (brandId: string, campaignId: string, number: string): string => `ten-dlc-number:${linkKey(brandId, campaignId, number)}`;

export const tenDlcNumberProgram: PulumiProgramPart<DesiredCampaignNumbers[], TenDlcCampaignNumber> = {
  declare(declared, opts) {
    const out: Record<string, TenDlcCampaignNumber> = {};
    for (const d of declared) {
      for (const number of d.numbers) {
        out[linkKey(d.brand_id, d.campaign_id, number)] = new TenDlcCampaignNumber(
          tenDlcNumberLogicalName(d.brand_id, d.campaign_id, number),
          { brandId: d.brand_id, campaignId: d.campaign_id, number },
          { ...opts },
        );
      }
    }
    return out;
  },
};
