/**
 * The call-webhook kind's provider (src/kit/provider/contract.ts; served as `CallWebhook` by
 * src/pulumi/provider-impl.ts): the id is the event type.
 */
import type { CallWebhookEventType } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import type { CallWebhookInputs, CallWebhookOutputs } from "./types";
import { UNKNOWN, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider } from "../../kit/provider/contract";
import { EVENT_TYPES, deleteWebhook, listWebhooks, upsertWebhook } from "./handler";

function isEventType(v: unknown): v is CallWebhookEventType {
  return typeof v === "string" && (EVENT_TYPES as readonly string[]).includes(v);
}

/** The id is the event type: state whose id and event type disagree names another webhook (issue #19). */
function checkEventType(id: string, stored: unknown): void {
  const t = (stored as Props | undefined)?.eventType;
  if (typeof t === "string" && t !== UNKNOWN && t !== id) throw identityMismatch("CallWebhook", id, `event type ${t}`, `event type ${id}`);
}

export const callWebhookProvider: KindProvider<CallWebhookInputs, CallWebhookOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, ["eventType", "url"]);
    if (raw.eventType !== UNKNOWN && !isEventType(raw.eventType)) {
      failures.push({ property: "eventType", reason: `eventType must be ${EVENT_TYPES.join(" or ")}, got ${JSON.stringify(raw.eventType ?? null)}` });
    }
    if (raw.url !== UNKNOWN) {
      if (raw.url === undefined || raw.url === null) failures.push({ property: "url", reason: "url is required" });
      else {
        const result = ctx.checkEntry({ call_webhooks: { "on-call": raw.url } }, "CallWebhook");
        if (!result.ok) failures.push(...result.problems.map((p) => failureOf(p, /^call_webhooks\.on-call/, () => "url")));
      }
    }
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    return { inputs: { eventType: news.eventType, url: news.url }, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const replaces = olds.eventType !== news.eventType ? ["eventType"] : [];
    const diffs = [...replaces, ...(olds.url !== news.url ? ["url"] : [])];
    return { changes: diffs.length > 0, diffs, replaces, stables: replaces.length === 0 ? ["eventType"] : [], deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    await upsertWebhook(ctx.masterClient(), inputs.eventType, inputs.url);
    ctx.recordTakenOver("CallWebhook", inputs.eventType);
    return { id: inputs.eventType, outs: { eventType: inputs.eventType, url: inputs.url } };
  },

  async read(ctx, id, props) {
    if (!isEventType(id)) return {};
    checkEventType(id, props);
    const url = (await listWebhooks(ctx.masterClient())).get(id);
    if (url === undefined) return {};
    const state = { eventType: id, url };
    return { id, props: state, inputs: state };
  },

  async update(ctx, id, olds, news) {
    checkEventType(id, olds);
    await upsertWebhook(ctx.masterClient(), news.eventType, news.url);
    return { outs: { eventType: news.eventType, url: news.url } };
  },

  async delete(ctx, id, props) {
    if (!isEventType(id)) return;
    checkEventType(id, props);
    if (ctx.keptForReplacement("CallWebhook", id, `CallWebhook ${id}`, "deleted")) return;
    await notFoundToUndefined(deleteWebhook(ctx.masterClient(), id));
  },

  // Import id: the event type (`on-call`, `post-call`), which is also the resource id.
  async import(ctx, importId) {
    if (!isEventType(importId)) throw new Error(`a CallWebhook is imported by its event type (${EVENT_TYPES.join(" or ")}), not ${JSON.stringify(importId)}`);
    return callWebhookProvider.read(ctx, importId);
  },
};
