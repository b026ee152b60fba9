/**
 * 10DLC Campaign links in saved plans (docs/SAVED-PLANS.md). The read is whether the number was
 * linked to the Campaign when planned (and its status, for an unlink); the op names the Brand, the
 * Campaign and the number. The recheck reads each Campaign the ops touch once (one listing of its
 * links), however many of its numbers they link or unlink.
 */
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { record, shown, SavedDataError, text } from "../../kit/file/saved-data";
import { campaignKey, linkKey, readCampaign, type CampaignRead } from "./handler";
import type { TenDlcNumberOp } from "./types";

/** A Brand or Campaign id as the file takes it: letters and digits. */
function id(v: unknown, what: string): string {
  const s = text(v, what);
  if (!/^[A-Za-z0-9_-]+$/.test(s)) throw new SavedDataError(`${what} is not a Brand or Campaign id`);
  return s;
}

export const tenDlcNumberSaved: SavedPlanSupport<TenDlcNumberOp> = {
  save: (op) => ({
    read: { linked: op.action === "delete" },
    op: { brand_id: op.brand_id, campaign_id: op.campaign_id, number: op.number },
  }),

  load(key, action, saved) {
    if (action === "update") throw new SavedDataError("a 10DLC link is only ever made (create) or removed (delete), not updated");
    const o = record(saved.op, "op");
    const brand_id = id(o.brand_id, "op.brand_id");
    const campaign_id = id(o.campaign_id, "op.campaign_id");
    const number = text(o.number, "op.number");
    if (!/^\d{1,20}$/.test(number)) throw new SavedDataError("op.number is not a number's digits");
    if (linkKey(brand_id, campaign_id, number) !== key) throw new SavedDataError(`op does not name the item ${key}`);
    const linked = record(saved.read, "read").linked;
    if (linked !== (action === "delete")) throw new SavedDataError(`read.linked is not ${action === "delete"} for a ${action === "delete" ? "unlink" : "link"}`);
    return { key, action, brand_id, campaign_id, number };
  },

  async recheck(ctx, ops) {
    const campaigns = new Map<string, { brand: string; campaign: string }>();
    for (const op of ops) campaigns.set(campaignKey(op.brand_id, op.campaign_id), { brand: op.brand_id, campaign: op.campaign_id });
    const reads = new Map<string, CampaignRead>();
    await Promise.all([...campaigns].map(async ([k, c]) => reads.set(k, await readCampaign(ctx.client, c.brand, c.campaign))));
    const out: Drift[] = [];
    for (const op of ops) {
      const read = reads.get(campaignKey(op.brand_id, op.campaign_id))!;
      if (!read.ok) {
        out.push({ key: op.key, message: `10DLC Campaign ${op.campaign_id} of Brand ${op.brand_id} is no longer found (${ctx.describe(read.error)})` });
        continue;
      }
      const was = op.action === "delete";
      const status = read.links.get(op.number);
      if ((status !== undefined) !== was) {
        out.push({ key: op.key, message: `linked was ${shown(was)} when planned, now ${shown(status !== undefined)}${status !== undefined ? ` (status ${status})` : ""}` });
      }
    }
    return out;
  },
};
