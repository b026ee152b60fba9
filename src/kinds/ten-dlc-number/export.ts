/** 10DLC Campaign numbers as an export writes them: every Campaign of the account with its linked numbers. */
import { isForbiddenError, type WavixClient } from "../../client";
import type { DesiredCampaignNumbers } from "./types";
import { emitItem } from "../../kit/file/yaml-emit";
import type { KindExport } from "../../kit/contract";
import { campaignNumbersFileObject } from "./file";
import { accountCampaigns } from "./handler";

/** The account's Campaigns and links, or undefined when the key (or the account) has no 10DLC access. */
async function readable(client: WavixClient): Promise<DesiredCampaignNumbers[] | undefined> {
  try {
    const all = await accountCampaigns(client);
    return all
      .sort((a, b) => (`${a.brand_id}/${a.campaign_id}` < `${b.brand_id}/${b.campaign_id}` ? -1 : 1))
      .map((c, i) => ({ brand_id: c.brand_id, campaign_id: c.campaign_id, numbers: [...c.links.keys()].sort(), path: `ten_dlc_campaign_numbers[${i}]` }));
  } catch (err) {
    // 10DLC disabled for the account, or a key without the campaigns scope: the key is left out.
    if (isForbiddenError(err)) return undefined;
    throw err;
  }
}

export const tenDlcNumberExport: KindExport<DesiredCampaignNumbers[]> = {
  async text(client) {
    const list = await readable(client);
    if (list === undefined) return { form: "value", value: undefined };
    return { form: "list", items: list.map((d) => emitItem(campaignNumbersFileObject(d), "  ")) };
  },
  state: readable,
};
