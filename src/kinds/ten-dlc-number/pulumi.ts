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
}

/** A number linked to a 10DLC Campaign; deleting the resource unlinks it. */
export class TenDlcCampaignNumber extends WavixDynamicResource {
  declare public readonly brandId: pulumi.Output<string>;
  declare public readonly campaignId: pulumi.Output<string>;
  declare public readonly number: pulumi.Output<string>;
  /** The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...). */
  declare public readonly status: pulumi.Output<string>;

  constructor(name: string, args: TenDlcCampaignNumberArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("TenDlcCampaignNumber"), name, { ...args, status: undefined }, opts, RESOURCE_MODULE, "TenDlcCampaignNumber");
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
