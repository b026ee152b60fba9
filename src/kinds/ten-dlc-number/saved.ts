/**
 * 10DLC Campaign links in saved plans (docs/SAVED-PLANS.md). The read is whether the number was
 * linked to the Campaign when planned (and its status, for an unlink); the op names the Brand, the
 * Campaign and the number. The recheck reads each Campaign the ops touch once (one listing of its
 * links), however many of its numbers they link or unlink.
 */
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { actionOf, record, shown, SavedDataError, text } from "../../kit/file/saved-data";
import { campaignKey, linkKey, readCampaign, type CampaignRead } from "./handler";
import type { DesiredCampaignNumbers, TenDlcNumberOp } from "./types";

/** A Brand or Campaign id as the file takes it: letters and digits. */
function id(v: unknown, what: string): string {
  const s = text(v, what);
  if (!/^[A-Za-z0-9_-]+$/.test(s)) throw new SavedDataError(`${what} is not a Brand or Campaign id`);
  return s;
}

export const tenDlcNumberSaved: SavedPlanSupport<TenDlcNumberOp, DesiredCampaignNumbers[], Map<string, CampaignRead>> = {
  save: (op) => ({
    read: op.action === "delete" ? { linked: true, status: op.status ?? null } : { linked: false },
    op: { brand_id: op.brand_id, campaign_id: op.campaign_id, number: op.number },
  }),

  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["create", "delete"] as const, "10DLC Campaign link");
    const o = record(saved.op, "op");
    const brand_id = id(o.brand_id, "op.brand_id");
    const campaign_id = id(o.campaign_id, "op.campaign_id");
    const number = text(o.number, "op.number");
    if (!/^\d{1,20}$/.test(number)) throw new SavedDataError("op.number is not a number's digits");
    if (linkKey(brand_id, campaign_id, number) !== key) throw new SavedDataError(`op does not name the item ${key}`);
    const read = record(saved.read, "read");
    if (read.linked !== (action === "delete")) throw new SavedDataError(`read.linked is not ${action === "delete"} for a ${action === "delete" ? "unlink" : "link"}`);
    if (action === "create") return { key, action, brand_id, campaign_id, number };
    return { key, action, brand_id, campaign_id, number, ...(read.status !== null ? { status: text(read.status, "read.status") } : {}) };
  },

  // The declared Campaigns the ops touch, with only the ops' numbers; each as the plan read its
  // links: the ops' unlinked numbers linked (with their status), the others not.
  replay(declared, ops) {
    const keys = new Set(ops.map((o) => o.key));
    const campaigns = new Set(ops.map((o) => campaignKey(o.brand_id, o.campaign_id)));
    const part = declared
      .filter((d) => campaigns.has(campaignKey(d.brand_id, d.campaign_id)))
      .map((d) => ({ ...d, numbers: d.numbers.filter((n) => keys.has(linkKey(d.brand_id, d.campaign_id, n))) }));
    const links = new Map<string, Map<string, string>>([...campaigns].map((c) => [c, new Map<string, string>()]));
    for (const op of ops) if (op.action === "delete") links.get(campaignKey(op.brand_id, op.campaign_id))!.set(op.number, op.status ?? "");
    return { declared: part, current: new Map<string, CampaignRead>([...links].map(([c, l]) => [c, { ok: true, links: l }])) };
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
