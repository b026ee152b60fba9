/**
 * The Sender ID kind: identity is `sender_id`; missing ones are created; with `--prune`,
 * undeclared ones are deleted (but never a numeric one Wavix made for a number linked to a 10DLC
 * Campaign: unlinking the number deletes it). The API has no update: a Sender ID that differs is
 * replaced (deleted, then created again) only where the file says `replace: true`; otherwise the
 * plan refuses it as a problem. A replace is destructive.
 */
import type { SenderId } from "../../client/types";
import type { DesiredSenderId, SenderIdOp, SenderIdPart } from "./types";
import { quoteName } from "../../kit/file/messages";
import type { Kind, KindPlan, PlanContext, Write } from "../../kit/contract";
import { reportedResult } from "../../kit/contract";
import { describeError } from "../../kit/change/error-text";
import { actionEffects } from "../../kit/change/effects";
import { accountLinkedNumbers } from "../ten-dlc-number/public";
import { twinRemovedText } from "../../kit/twins";
import { createDiff, createSenderId, currentIdentity, currentKey, deleteSenderId, diffSenderId, listAllSenderIds } from "./handler";
import { senderIdIdentity } from "./file";
import { senderIdsFragment } from "./schema";
import { senderIdFileForm } from "./file";
import { senderIdExport } from "./export";
import { senderIdSaved } from "./saved";
import { senderIdSchema } from "./pulumi-schema";

export type { SenderIdOp } from "./types";

/** The cache name of the account's Sender ID list. */
export const SENDER_ID_LIST = "sender-ids";

const fieldList = (paths: string[]): string => paths.join(", ");

/** Numbers linked to a 10DLC Campaign of the account, read once per plan (only when pruning numeric Sender IDs). */
function linkedNumbers(ctx: PlanContext): Promise<Set<string>> {
  return ctx.cache.once("ten-dlc-linked-numbers", () => accountLinkedNumbers(ctx.client));
}

export const senderIdKind: Kind<"sender_id", DesiredSenderId[], SenderId[], SenderIdOp, "SenderId", SenderIdPart> = {
  name: "sender_id",
  label: { one: "sender ID", many: "sender IDs" },
  file: senderIdsFragment,
  fileForm: senderIdFileForm,
  export: senderIdExport,
  saved: senderIdSaved,
  replaceNote: " (deleted, then created again: the API has no update)",
  effects: actionEffects,
  pulumi: {
    type: "SenderId",
    collection: "senderIds",
    program: () => (require("./pulumi") as typeof import("./pulumi")).senderIdProgram,
    schema: () => senderIdSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).senderIdProvider,
  declared: (state) => state.sender_ids,
  count: (declared) => declared.length,
  read: (ctx) => ctx.cache.once(SENDER_ID_LIST, () => listAllSenderIds(ctx.client)),

  async plan(ctx, declared, all) {
    const out: KindPlan<SenderIdOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0 };
    // By identity, as the service compares it: a name without case, a number's digits (file.ts).
    const byKey = new Map<string, SenderId[]>();
    for (const s of all) byKey.set(currentIdentity(s), [...(byKey.get(currentIdentity(s)) ?? []), s]);
    const claimed = new Set<string>();
    for (const d of declared) {
      claimed.add(senderIdIdentity(d.sender_id));
      const found = byKey.get(senderIdIdentity(d.sender_id)) ?? [];
      if (found.length > 1) {
        out.problems.push({
          key: d.sender_id,
          message: `the account has ${found.length} Sender IDs ${quoteName(d.sender_id)} (ids ${found.map((s) => s.id).join(", ")}): delete all but one, then plan again`,
          at: d,
        });
        continue;
      }
      const current = found[0];
      if (!current) {
        out.changes.push({ diff: createDiff(d), op: { key: d.sender_id, action: "create", desired: d } });
        continue;
      }
      const diff = diffSenderId(d, current);
      if (diff.length === 0) {
        out.unchanged++;
      } else if (d.replace === true) {
        out.changes.push({ diff, op: { key: d.sender_id, action: "replace", desired: d, current } });
      } else {
        out.problems.push({
          key: d.sender_id,
          message:
            `differs from the file (${fieldList(diff.map((f) => f.path))}), but the API has no update: it can only be replaced ` +
            `(deleted, then created again, and approved again); add \`replace: true\` to it in the file to allow that`,
          at: d,
        });
      }
    }
    const undeclared = all.filter((s) => !claimed.has(currentIdentity(s)));
    if (!ctx.prune) {
      out.unmanaged.push(...undeclared.map(currentKey));
      return out;
    }
    // Wavix makes a numeric Sender ID for a number approved in a 10DLC Campaign, and deletes it
    // when the number is unlinked (official): prune leaves those to the Campaign's links. Decided
    // from `sender_id` (its digits name the linked number), which the document always gives, not
    // from `type`; one whose `type` the listing does not give is not judged at all (issue #27).
    const digits = (s: SenderId) => /^[0-9]+$/.test(currentIdentity(s));
    const linked = undeclared.some(digits) ? await linkedNumbers(ctx) : new Set<string>();
    for (const s of undeclared) {
      if (digits(s) && linked.has(currentIdentity(s))) {
        out.unmanaged.push(currentKey(s));
        continue;
      }
      if (s.type !== "numeric" && s.type !== "alphanumeric") {
        out.unmanaged.push(currentKey(s));
        out.notes = [...(out.notes ?? []), { key: currentKey(s), message: "not pruned: the listing does not say its type, so it cannot be told from the numeric Sender ID Wavix keeps for a 10DLC-linked number" }];
        continue;
      }
      out.changes.push({ diff: [{ path: "sender_id", before: s.sender_id, after: null }], op: { key: currentKey(s), action: "delete", current: s } });
    }
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => [],
      async send(client) {
        if (op.action === "delete") return deleteSenderId(client, op.current.id);
        if (op.action === "replace") await deleteSenderId(client, op.current.id);
        const { created, reconciled, adopted, twin } = await createSenderId(client, op.desired);
        if (twin) return { reconciled, adopted, twin: twinRemovedText(twin, created.id) };
        return reconciled || adopted ? { reconciled, adopted } : undefined;
      },
      failure(_key, err) {
        if (op.action !== "replace") return undefined;
        return `replacing it failed (${describeError(err)}); the old Sender ID may be deleted already: a re-run creates it again`;
      },
    })),

  // One listing confirms every create, replace and delete.
  async confirm(ctx, ops, report) {
    const results = ops.map((op) => reportedResult(op, [], report));
    if (ops.length === 0) return { results };
    try {
      const now = await listAllSenderIds(ctx.client);
      ops.forEach((op, i) => {
        const r = results[i];
        if (r.outcome !== "ok") return;
        const shows =
          op.action === "delete"
            ? !now.some((s) => s.id === op.current.id)
            : now.some((s) => currentIdentity(s) === senderIdIdentity(op.key) && (op.action === "create" || s.id !== op.current.id));
        if (!shows) Object.assign(r, { outcome: "failed", error: "the change did not show when read back" });
      });
    } catch (err) {
      for (const r of results) if (r.outcome === "ok") Object.assign(r, { outcome: "failed", error: `read-back failed: ${ctx.describe(err)}` });
    }
    return { results };
  },
};
