/**
 * The 10DLC Campaign number kind's part of the native provider's package schema
 * (`wavix:index:TenDlcCampaignNumber`; src/kit/provider/schema.ts): the same inputs as the dynamic
 * `TenDlcCampaignNumber` (./pulumi.ts), the descriptions of the file's `ten_dlc_campaign_numbers:`.
 */
import { fileDescription, type KindSchemaPart, onDeleteProperty, ORIGIN_OUTPUTS, type SchemaProperties } from "../../kit/provider/schema";
import { tenDlcCampaignNumbersFragment } from "./schema";

const d = (key: string) => fileDescription(tenDlcCampaignNumbersFragment.definitions ?? {}, "tenDlcCampaignNumbers", key);

// The API has no update for a link: each of its parts replaces it.
const inputs: SchemaProperties = {
  brandId: { type: "string", description: d("brand_id"), replaceOnChanges: true },
  campaignId: { type: "string", description: d("campaign_id"), replaceOnChanges: true },
  number: { type: "string", description: "The number linked, as digits (\"17029641104\"); a leading + is dropped.", replaceOnChanges: true },
  onDelete: onDeleteProperty("unlinks the number from its Campaign"),
};

export const tenDlcNumberSchema: KindSchemaPart = {
  resource: {
    description:
      "One number linked to a 10DLC Campaign of a Brand (both created outside wavix-sync: they must exist). A number already linked is adopted; deleting the resource unlinks a link the stack made, while an adopted or imported one stays unless `onDelete: \"delete\"`. The resource ID and the import id are `BRAND/CAMPAIGN/NUMBER`.",
    inputProperties: inputs,
    requiredInputs: ["brandId", "campaignId", "number"],
    properties: {
      ...inputs,
      ...ORIGIN_OUTPUTS,
      status: { type: "string", description: "The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...): shown, never changed." },
    },
    required: ["brandId", "campaignId", "number", "status"],
  },
};
