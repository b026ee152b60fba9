/**
 * The 10DLC Campaign number kind: per declared Brand and Campaign (references, read to check they
 * exist), the set of numbers linked. A missing link is made (POST); with `--prune`, a link the
 * file does not declare is removed (DELETE, destructive: Wavix deletes the number's Sender ID too).
 * A link's status (PENDING, APPROVED, FAILED...) is shown as a note and never changes the plan.
 */
import type { DesiredCampaignNumbers, TenDlcNumberOp, TenDlcNumberPart } from "./types";
import type { Kind, KindPlan, Write } from "../../kit/contract";
import { reportedResult } from "../../kit/contract";
import { campaignKey, linkKey, linkNumber, missingCampaignMessage, readCampaign, unlinkNumber, type CampaignRead } from "./handler";
import { tenDlcCampaignNumbersFragment } from "./schema";
import { tenDlcNumberFileForm } from "./file";
import { tenDlcNumberExport } from "./export";
import { tenDlcNumberSaved } from "./saved";
import { tenDlcNumberEffects } from "./effects";
import { tenDlcNumberSchema } from "./pulumi-schema";

export type { TenDlcNumberOp } from "./types";

/** Said of a link whose status is not APPROVED. */
export function statusNote(status: string): string {
  const s = status.toUpperCase();
  if (s === "PENDING") return "linked, status PENDING (awaiting approval; it stays linked whatever its status)";
  if (s === "FAILED") return "linked, status FAILED (not approved; it stays linked until unlinked: check the Campaign in the Wavix portal)";
  return `linked, status ${status}`;
}

export const tenDlcNumberKind: Kind<"ten_dlc_number", DesiredCampaignNumbers[], Map<string, CampaignRead>, TenDlcNumberOp, "TenDlcCampaignNumber", TenDlcNumberPart> = {
  name: "ten_dlc_number",
  label: { one: "10DLC Campaign", many: "10DLC Campaigns" },
  file: tenDlcCampaignNumbersFragment,
  fileForm: tenDlcNumberFileForm,
  export: tenDlcNumberExport,
  saved: tenDlcNumberSaved,
  effects: tenDlcNumberEffects,
  deleteNote: " (unlinked from the Campaign; Wavix deletes its Sender ID)",
  pulumi: {
    type: "TenDlcCampaignNumber",
    collection: "tenDlcCampaignNumbers",
    program: () => (require("./pulumi") as typeof import("./pulumi")).tenDlcNumberProgram,
    schema: () => tenDlcNumberSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).tenDlcNumberProvider,
  declared: (state) => state.ten_dlc_campaign_numbers,
  count: (declared) => declared.length,

  async read(ctx, declared) {
    const reads = await Promise.all(declared.map((d) => readCampaign(ctx.client, d.brand_id, d.campaign_id)));
    return new Map(declared.map((d, i) => [campaignKey(d.brand_id, d.campaign_id), reads[i]]));
  },

  plan(ctx, declared, reads) {
    const out: KindPlan<TenDlcNumberOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0, notes: [] };
    for (const d of declared) {
      const read = reads.get(campaignKey(d.brand_id, d.campaign_id))!;
      if (!read.ok) {
        out.problems.push({ key: campaignKey(d.brand_id, d.campaign_id), message: missingCampaignMessage(d.brand_id, d.campaign_id, ctx.describe(read.error)), at: d });
        continue;
      }
      const at = `${d.brand_id}/${d.campaign_id}`;
      for (const number of d.numbers) {
        const key = linkKey(d.brand_id, d.campaign_id, number);
        const status = read.links.get(number);
        if (status === undefined) {
          out.changes.push({ diff: [{ path: "campaign", before: null, after: at }], op: { key, action: "create", brand_id: d.brand_id, campaign_id: d.campaign_id, number } });
          continue;
        }
        // Linked is linked, whatever the status: a pending or failed link is shown, never re-sent.
        out.unchanged++;
        if (status.toUpperCase() !== "APPROVED") out.notes!.push({ key, message: statusNote(status) });
      }
      const declaredNumbers = new Set(d.numbers);
      for (const [number, status] of read.links) {
        if (declaredNumbers.has(number)) continue;
        const key = linkKey(d.brand_id, d.campaign_id, number);
        if (!ctx.prune) {
          out.unmanaged.push(key);
          continue;
        }
        out.changes.push({
          diff: [
            { path: "campaign", before: at, after: null },
            { path: "status", before: status, after: null },
          ],
          op: { key, action: "delete", brand_id: d.brand_id, campaign_id: d.campaign_id, number, status },
        });
      }
    }
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => [],
      send: (client) => (op.action === "create" ? linkNumber(client, op.brand_id, op.campaign_id, op.number) : unlinkNumber(client, op.brand_id, op.campaign_id, op.number)),
    })),

  // One listing per Campaign written confirms its links and unlinks.
  async confirm(ctx, ops, report) {
    const results = ops.map((op) => reportedResult(op, [], report));
    const campaigns = new Map<string, { brand: string; campaign: string }>();
    for (const op of ops) campaigns.set(campaignKey(op.brand_id, op.campaign_id), { brand: op.brand_id, campaign: op.campaign_id });
    const now = new Map<string, CampaignRead | Error>();
    await Promise.all(
      [...campaigns].map(async ([k, c]) => {
        try {
          now.set(k, await readCampaign(ctx.client, c.brand, c.campaign));
        } catch (err) {
          now.set(k, err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    ops.forEach((op, i) => {
      const r = results[i];
      if (r.outcome !== "ok") return;
      const read = now.get(campaignKey(op.brand_id, op.campaign_id))!;
      if (read instanceof Error || !read.ok) {
        Object.assign(r, { outcome: "failed", error: `read-back failed: ${ctx.describe(read instanceof Error ? read : read.error)}` });
        return;
      }
      const linked = read.links.has(op.number);
      if (linked !== (op.action === "create")) Object.assign(r, { outcome: "failed", error: "the change did not show when read back" });
    });
    return { results };
  },
};
