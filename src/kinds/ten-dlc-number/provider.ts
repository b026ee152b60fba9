/**
 * The 10DLC Campaign number kind's provider (src/kit/provider/contract.ts; served as
 * `TenDlcCampaignNumber` by src/pulumi/provider-impl.ts): one resource per link, its id
 * `brand/campaign/number`. The Brand and Campaign must exist (create fails naming both); a number
 * already linked is adopted (`adopted: true`); deleting the resource unlinks a link the stack made,
 * and leaves one it adopted (an APPROVED link took a vetting) unless `onDelete: "delete"`
 * (src/kit/provider/guards.ts). `status` is an output only; `onDelete` changes in state only.
 */
import { tenDlcNumberEffects } from "./effects";
import type { TenDlcCampaignNumberInputs, TenDlcCampaignNumberOutputs, TenDlcNumberPart } from "./types";
import { compact, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { FaceWords } from "../../kit/provider/words";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { adoptionHint, keptByReplacement, checkAccount, keptOrigin, leavesOnDelete, onDeleteFailures, originOf, warnDestructive } from "../../kit/provider/guards";
import { campaignKey, linkKey, linkNumber, missingCampaignMessage, readCampaign, unlinkNumber, type CampaignRead } from "./handler";
import { describeError } from "../../kit/change/error-text";

/** The link's identity: a change of one is another link (a replacement). */
const KEYS = ["brandId", "campaignId", "number"];
const CAMEL: Record<string, string> = { brand_id: "brandId", campaign_id: "campaignId", numbers: "number" };

/** The parts of a stored id; undefined when it is not one of ours. */
function parts(id: string): { brandId: string; campaignId: string; number: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/([0-9]+)$/.exec(id);
  return m ? { brandId: m[1], campaignId: m[2], number: m[3] } : undefined;
}

function checkIdentity(words: FaceWords, id: string, stored: Props | undefined): void {
  if (!stored || typeof stored.brandId !== "string" || typeof stored.campaignId !== "string" || typeof stored.number !== "string") return;
  const key = linkKey(stored.brandId, stored.campaignId, stored.number);
  if (key !== id) throw identityMismatch("TenDlcCampaignNumber", id, `link ${key}`, `link ${id}`, words);
}

async function statusOf(ctx: ProviderContext, i: TenDlcCampaignNumberInputs): Promise<string | undefined> {
  const read = await readCampaign(ctx.masterClient(), i.brandId, i.campaignId);
  if (!read.ok) throw new Error(missingCampaignMessage(i.brandId, i.campaignId, describeError(read.error)));
  return read.links.get(i.number);
}

/** A Campaign's links, read once per context for the hints `check` gives before creates. */
function campaignOnce(ctx: ProviderContext, brandId: string, campaignId: string): Promise<CampaignRead> {
  return ctx.perClient(ctx.masterClient(), `campaign:${campaignKey(brandId, campaignId)}`, (c) => readCampaign(c, brandId, campaignId));
}

const inputsOf = (p: Props): TenDlcCampaignNumberInputs =>
  compact({ brandId: String(p.brandId), campaignId: String(p.campaignId), number: String(p.number), onDelete: p.onDelete === "delete" || p.onDelete === "retain" ? p.onDelete : undefined });

const named = (id: string): string => `TenDlcCampaignNumber ${id}`;

export const tenDlcNumberProvider: KindProvider<TenDlcCampaignNumberInputs, TenDlcCampaignNumberOutputs> = {
  async check(ctx, olds, news) {
    const raw = news as unknown as Props;
    const failures = [...unknownKeyFailures(raw, [...KEYS, "onDelete"]), ...onDeleteFailures(raw, undefined, ctx.words)];
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const entry = { brand_id: raw.brandId, campaign_id: raw.campaignId, numbers: [raw.number] };
    const result = ctx.checkEntry<TenDlcNumberPart>({ ten_dlc_campaign_numbers: [entry] }, "TenDlcCampaignNumber");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^ten_dlc_campaign_numbers\[0\]\.?/, (path) => CAMEL[path.split(/[.[]/)[0]] ?? path)));
      return { inputs: news, failures };
    }
    const d = result.state.ten_dlc_campaign_numbers![0];
    const inputs = inputsOf({ brandId: d.brand_id, campaignId: d.campaign_id, number: d.numbers[0], onDelete: raw.onDelete });
    await adoptionHint(ctx, olds, inputs as unknown as Props, named(linkKey(inputs.brandId, inputs.campaignId, inputs.number)), "unlinked", async () => {
      const read = await campaignOnce(ctx, inputs.brandId, inputs.campaignId);
      const status = read.ok ? read.links.get(inputs.number) : undefined;
      return status === undefined ? undefined : `the link (status ${status})`;
    });
    return { inputs, failures: [] };
  },

  async diff(ctx, id, olds, news) {
    const replaces = KEYS.filter((k) => (olds as unknown as Props)[k] !== (news as unknown as Props)[k]);
    const changed = (olds.onDelete ?? null) !== (news.onDelete ?? null);
    if (replaces.length > 0) warnDestructive(ctx, named(id), tenDlcNumberEffects, "replace", []);
    return { changes: replaces.length > 0 || changed, diffs: [...replaces, ...(changed ? ["onDelete"] : [])], replaces, stables: replaces.length === 0 ? [...KEYS, "status", "adopted", "accountId"] : [], deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    const id = linkKey(inputs.brandId, inputs.campaignId, inputs.number);
    // Already linked (whatever its status): adopted, not linked again.
    let status = await statusOf(ctx, inputs);
    const adopted = status !== undefined;
    if (status === undefined) {
      await linkNumber(ctx.writer(ctx.masterClient(), { what: named(id), effects: [] }), inputs.brandId, inputs.campaignId, inputs.number);
      status = (await statusOf(ctx, inputs)) ?? "PENDING";
    }
    ctx.recordTakenOver("TenDlcCampaignNumber", id);
    return { id, outs: { ...inputsOf(inputs as unknown as Props), status, ...(await originOf(ctx, adopted)) } };
  },

  async read(ctx, id, props) {
    const p = parts(id);
    if (!p) return {};
    checkIdentity(ctx.words, id, props as unknown as Props);
    await checkAccount(ctx, named(id), props as unknown as Props, "read");
    const read = await readCampaign(ctx.masterClient(), p.brandId, p.campaignId);
    // The Campaign is gone, or the number is no longer linked: the resource is gone.
    if (!read.ok) return {};
    const status = read.links.get(p.number);
    if (status === undefined) return {};
    const inputs = inputsOf({ ...p, onDelete: props?.onDelete });
    return { id, props: { ...inputs, status, ...keptOrigin(props as unknown as Props) }, inputs: inputs as TenDlcCampaignNumberOutputs };
  },

  // Only onDelete changed (a change of the link itself replaces it): nothing the API holds.
  async update(ctx, _id, olds, news) {
    return { outs: { ...inputsOf(news as unknown as Props), status: olds.status, ...keptOrigin(olds as unknown as Props) } };
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
    checkIdentity(ctx.words, id, props as unknown as Props);
    if (keptByReplacement(ctx, "TenDlcCampaignNumber", id, named(id), "deleted", props as unknown as Props)) return;
    if (leavesOnDelete(ctx, named(id), props as unknown as Props, "unlinked")) return;
    await checkAccount(ctx, named(id), props as unknown as Props, "unlinked");
    const read = await readCampaign(ctx.masterClient(), p.brandId, p.campaignId);
    if (!read.ok || !read.links.has(p.number)) return; // no longer linked
    await unlinkNumber(ctx.writer(ctx.masterClient(), { what: named(id), effects: ["unlink"], stored: props }), p.brandId, p.campaignId, p.number);
  },
};
