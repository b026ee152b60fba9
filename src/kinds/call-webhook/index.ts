/**
 * The call-webhook kind: identity is the event type; POST upserts, DELETE removes; one listing
 * reads them all and one listing confirms every write.
 */
import type { CallWebhookEventType } from "../../client/types";
import type { CallWebhookOp, CallWebhookPart, DeclaredCallWebhooks } from "./types";
import type { Kind, KindPlan, Write } from "../../kit/contract";
import { reportedResult } from "../../kit/contract";
import { deleteWebhook, diffWebhook, EVENT_TYPES, listWebhooks, upsertWebhook } from "./handler";
import { callWebhooksFragment } from "./schema";
import { callWebhookFileForm } from "./file";
import { callWebhookExport } from "./export";
import { callWebhookSaved } from "./saved";
import { actionEffects } from "../../kit/change/effects";
import { callWebhookSchema } from "./pulumi-schema";

export type { CallWebhookOp, DeclaredCallWebhooks } from "./types";

export const callWebhookKind: Kind<"call_webhook", DeclaredCallWebhooks, Map<CallWebhookEventType, string>, CallWebhookOp, "CallWebhook", CallWebhookPart> = {
  name: "call_webhook",
  label: { one: "call webhook", many: "call webhooks" },
  file: callWebhooksFragment,
  fileForm: callWebhookFileForm,
  export: callWebhookExport,
  pulumi: {
    type: "CallWebhook",
    collection: "callWebhooks",
    program: () => (require("./pulumi") as typeof import("./pulumi")).callWebhookProgram,
    schema: () => callWebhookSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).callWebhookProvider,
  saved: callWebhookSaved,
  effects: actionEffects,
  declared: (state) => state.call_webhooks,
  count: (declared) => Object.keys(declared).length,
  read: (ctx) => listWebhooks(ctx.client),

  plan(ctx, declared, hooks) {
    const out: KindPlan<CallWebhookOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0 };
    for (const eventType of EVENT_TYPES) {
      const url = declared[eventType];
      const current = hooks.get(eventType);
      if (url === undefined) {
        if (current === undefined) continue;
        if (ctx.prune) out.changes.push({ diff: [{ path: "url", before: current, after: null }], op: { key: eventType, action: "delete", before: current } });
        else out.unmanaged.push(eventType);
        continue;
      }
      const diff = diffWebhook(url, current);
      if (diff.length === 0) out.unchanged++;
      else out.changes.push({ diff, op: { key: eventType, action: current === undefined ? "create" : "update", url, before: current ?? null } });
    }
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => [],
      send: (client) => (op.action === "delete" ? deleteWebhook(client, op.key) : upsertWebhook(client, op.key, op.url)),
    })),

  // One list confirms every upsert and delete.
  async confirm(ctx, ops, report) {
    const results = ops.map((op) => reportedResult(op, [], report));
    if (ops.length === 0) return { results };
    try {
      const now = await listWebhooks(ctx.client);
      ops.forEach((op, i) => {
        const r = results[i];
        if (r.outcome !== "ok") return;
        const shows = op.action === "delete" ? !now.has(op.key) : now.get(op.key) === op.url;
        if (!shows) Object.assign(r, { outcome: "failed", error: "the change did not show when read back" });
      });
    } catch (err) {
      // The writes succeeded; a failed read-back is reported, not hidden.
      for (const r of results) if (r.outcome === "ok") Object.assign(r, { outcome: "failed", error: `read-back failed: ${ctx.describe(err)}` });
    }
    return { results };
  },
};
