/**
 * 10DLC Campaign numbers: which numbers are linked to a Campaign of a Brand. Brands and Campaigns
 * are made outside wavix-sync (they are references); a number's link is made by a POST and
 * removed by a DELETE; the listing gives each linked number's status (`PENDING`, `APPROVED`,
 * `FAILED`...), which never changes what is linked.
 */
import type { GatedClient } from "../../kit/gate";
import { isNotFoundError, type WavixClient } from "../../client";
import type { CampaignNumber } from "../../client/types";
import { normalizeDigits } from "../../kit/file/transport";

/** `B9FXYNH/CSJ4TV0`: one Campaign of one Brand. */
export const campaignKey = (brandId: string, campaignId: string): string => `${brandId}/${campaignId}`;
/** `B9FXYNH/CSJ4TV0/17029641104`: one link, the key plans show. */
export const linkKey = (brandId: string, campaignId: string, number: string): string => `${brandId}/${campaignId}/${number}`;

/** One declared Campaign as read: its links by digits with their status, or why it could not be read. */
export type CampaignRead =
  | { readonly ok: true; readonly links: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly missing: boolean; readonly error: unknown };

/** A Campaign's links by digits (a leading `+` the API might show is dropped). */
export function linksOf(numbers: readonly CampaignNumber[]): Map<string, string> {
  return new Map(numbers.map((n) => [normalizeDigits(String(n.number)), String(n.status)]));
}

/** Reads one Campaign's links; a 404 (no such Brand or Campaign) is a result, not a throw. */
export async function readCampaign(client: WavixClient, brandId: string, campaignId: string): Promise<CampaignRead> {
  try {
    const list = await client.listCampaignNumbers(brandId, campaignId);
    return { ok: true, links: linksOf(list.numbers) };
  } catch (err) {
    if (isNotFoundError(err)) return { ok: false, missing: true, error: err };
    throw err;
  }
}

/** The message for a Brand or Campaign the account does not have. */
export function missingCampaignMessage(brandId: string, campaignId: string, detail: string): string {
  return (
    `10DLC Campaign ${campaignId} of Brand ${brandId} was not found (${detail}): Brands and Campaigns are created outside wavix-sync; ` +
    "check both ids in the file"
  );
}

/** Every Campaign of the account (paged) with its links: what `export` writes. */
export async function accountCampaigns(client: WavixClient): Promise<{ brand_id: string; campaign_id: string; links: Map<string, string> }[]> {
  const campaigns: { brand_id: string; campaign_id: string }[] = [];
  for await (const page of client.iterateCampaignPages()) for (const c of page.items) campaigns.push({ brand_id: c.brand_id, campaign_id: c.campaign_id });
  const out = await Promise.all(
    campaigns.map(async (c) => {
      const read = await readCampaign(client, c.brand_id, c.campaign_id);
      // Listed a moment ago and gone now (deleted meanwhile): nothing is linked to it.
      return { ...c, links: read.ok ? new Map(read.links) : new Map<string, string>() };
    }),
  );
  return out;
}

/** Every number linked to any Campaign of the account. */
export async function accountLinkedNumbers(client: WavixClient): Promise<Set<string>> {
  const all = await accountCampaigns(client);
  return new Set(all.flatMap((c) => [...c.links.keys()]));
}

export async function linkNumber(client: GatedClient, brandId: string, campaignId: string, number: string): Promise<void> {
  await client.linkCampaignNumber(brandId, campaignId, number);
}

/** Unlinks; a number no longer linked (404) is done. */
export async function unlinkNumber(client: GatedClient, brandId: string, campaignId: string, number: string): Promise<void> {
  try {
    await client.unlinkCampaignNumber(brandId, campaignId, number);
  } catch (err) {
    if (isNotFoundError(err)) return;
    throw err;
  }
}
