/**
 * The 10DLC Campaign number kind's provider (src/kit/provider/contract.ts; served as
 * `TenDlcCampaignNumber` by src/pulumi/provider-impl.ts): one resource per link, its id
 * `brand/campaign/number`. The Brand and Campaign must exist (create fails naming both); a number
 * already linked is adopted; deleting the resource unlinks the number. `status` is an output only.
 */
import type { TenDlcCampaignNumberInputs, TenDlcCampaignNumberOutputs, TenDlcNumberPart } from "./types";
import { hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { linkKey, linkNumber, missingCampaignMessage, readCampaign, unlinkNumber } from "./handler";
import { describeError } from "../../kit/change/error-text";

const KEYS = ["brandId", "campaignId", "number"];
const CAMEL: Record<string, string> = { brand_id: "brandId", campaign_id: "campaignId", numbers: "number" };

/** The parts of a stored id; undefined when it is not one of ours. */
function parts(id: string): { brandId: string; campaignId: string; number: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/([0-9]+)$/.exec(id);
  return m ? { brandId: m[1], campaignId: m[2], number: m[3] } : undefined;
}

function checkIdentity(id: string, stored: Props | undefined): void {
  if (!stored || typeof stored.brandId !== "string" || typeof stored.campaignId !== "string" || typeof stored.number !== "string") return;
  const key = linkKey(stored.brandId, stored.campaignId, stored.number);
  if (key !== id) throw identityMismatch("TenDlcCampaignNumber", id, `link ${key}`, `link ${id}`);
}

async function statusOf(ctx: ProviderContext, i: TenDlcCampaignNumberInputs): Promise<string | undefined> {
  const read = await readCampaign(ctx.masterClient(), i.brandId, i.campaignId);
  if (!read.ok) throw new Error(missingCampaignMessage(i.brandId, i.campaignId, describeError(read.error)));
  return read.links.get(i.number);
}

export const tenDlcNumberProvider: KindProvider<TenDlcCampaignNumberInputs, TenDlcCampaignNumberOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, KEYS);
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const entry = { brand_id: raw.brandId, campaign_id: raw.campaignId, numbers: [raw.number] };
    const result = ctx.checkEntry<TenDlcNumberPart>({ ten_dlc_campaign_numbers: [entry] }, "TenDlcCampaignNumber");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^ten_dlc_campaign_numbers\[0\]\.?/, (path) => CAMEL[path.split(/[.[]/)[0]] ?? path)));
      return { inputs: news, failures };
    }
    const d = result.state.ten_dlc_campaign_numbers![0];
    return { inputs: { brandId: d.brand_id, campaignId: d.campaign_id, number: d.numbers[0] }, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const replaces = KEYS.filter((k) => (olds as unknown as Props)[k] !== (news as unknown as Props)[k]);
    return { changes: replaces.length > 0, diffs: replaces, replaces, stables: replaces.length === 0 ? KEYS : [], deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    const id = linkKey(inputs.brandId, inputs.campaignId, inputs.number);
    // Already linked (whatever its status): adopted, not linked again.
    let status = await statusOf(ctx, inputs);
    if (status === undefined) {
      await linkNumber(ctx.masterClient(), inputs.brandId, inputs.campaignId, inputs.number);
      status = (await statusOf(ctx, inputs)) ?? "PENDING";
    }
    ctx.recordTakenOver("TenDlcCampaignNumber", id);
    return { id, outs: { ...inputs, status } };
  },

  async read(ctx, id, props) {
    const p = parts(id);
    if (!p) return {};
    checkIdentity(id, props as unknown as Props);
    const read = await readCampaign(ctx.masterClient(), p.brandId, p.campaignId);
    // The Campaign is gone, or the number is no longer linked: the resource is gone.
    if (!read.ok) return {};
    const status = read.links.get(p.number);
    if (status === undefined) return {};
    return { id, props: { ...p, status }, inputs: p as TenDlcCampaignNumberOutputs };
  },

  // Import id: `brand/campaign/number` (the resource id; a leading + on the number is dropped).
  async import(ctx, importId) {
    const p = parts(importId.replace(/\/\+(?=[0-9]+$)/, "/"));
    if (!p) throw new Error(`a TenDlcCampaignNumber is imported by BRAND/CAMPAIGN/NUMBER (e.g. B6AI7PA/CX4G2PQ/15551230001), not ${JSON.stringify(importId)}`);
    return tenDlcNumberProvider.read(ctx, linkKey(p.brandId, p.campaignId, p.number));
  },

  async delete(ctx, id, props) {
    const p = parts(id);
    if (!p) return;
    checkIdentity(id, props as unknown as Props);
    if (ctx.keptForReplacement("TenDlcCampaignNumber", id, `TenDlcCampaignNumber ${id}`, "deleted")) return;
    await unlinkNumber(ctx.masterClient(), p.brandId, p.campaignId, p.number);
  },
};
