/**
 * Call webhooks in saved plans (docs/SAVED-PLANS.md): the read is the event type's URL (null when
 * none was set); the recheck is one listing, whatever the number of ops.
 */
import type { CallWebhookEventType } from "../../client/types";
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { actionOf, httpUrl, record, shown, SavedDataError, textOrNull } from "../../kit/file/saved-data";
import { EVENT_TYPES, listWebhooks } from "./handler";
import type { CallWebhookOp, DeclaredCallWebhooks } from "./types";

/** The op's URL to set (none for a delete); `read` is the URL the plan saw. */
export const callWebhookSaved: SavedPlanSupport<CallWebhookOp, DeclaredCallWebhooks, Map<CallWebhookEventType, string>> = {
  save: (op) => ({
    read: { url: op.before },
    op: op.action === "delete" ? {} : { url: op.url },
  }),
  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["create", "update", "delete"] as const, "call webhook");
    if (!(EVENT_TYPES as readonly string[]).includes(key)) throw new SavedDataError(`"${key}" is not a call webhook event type`);
    const eventType = key as CallWebhookEventType;
    const read = textOrNull(record(saved.read, "read").url, "read.url");
    if (action === "delete") return { key: eventType, action, before: read };
    const url = httpUrl(record(saved.op, "op").url, "op.url");
    return { key: eventType, action, url, before: read };
  },
  // The file's URLs of the ops' event types; the URLs the plan read (none: not set).
  replay(declared, ops) {
    const part: DeclaredCallWebhooks = {};
    const current = new Map<CallWebhookEventType, string>();
    for (const op of ops) {
      if (declared[op.key] !== undefined) part[op.key] = declared[op.key];
      if (op.before !== null) current.set(op.key, op.before);
    }
    return { declared: part, current };
  },
  async recheck(ctx, ops) {
    if (ops.length === 0) return [];
    const now = await listWebhooks(ctx.client);
    const out: Drift[] = [];
    for (const op of ops) {
      const was = op.before;
      const is = now.get(op.key) ?? null;
      if (was !== is) out.push({ key: op.key, message: `url was ${shown(was)} when planned, now ${shown(is)}` });
    }
    return out;
  },
};
