/**
 * The call-webhook kind's provider (src/kit/provider/contract.ts; served as `CallWebhook` by
 * src/pulumi/provider-impl.ts): the id is the event type. A create adopts a webhook already set
 * for the event type (`adopted: true`), and a delete leaves an adopted one as it is unless
 * `onDelete: "delete"` (src/kit/provider/guards.ts); every delete first checks the account and that
 * the webhook still points where the state says.
 */
import type { CallWebhookEventType } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import type { CallWebhookInputs, CallWebhookOutputs } from "./types";
import { UNKNOWN, compact, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { FaceWords } from "../../kit/provider/words";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { adoptionHint, keptByReplacement, checkAccount, keptOrigin, leavesOnDelete, onDeleteFailures, originOf } from "../../kit/provider/guards";
import { EVENT_TYPES, deleteWebhook, listWebhooks, upsertWebhook } from "./handler";

function isEventType(v: unknown): v is CallWebhookEventType {
  return typeof v === "string" && (EVENT_TYPES as readonly string[]).includes(v);
}

/** The id is the event type: state whose id and event type disagree names another webhook (issue #19). */
function checkEventType(words: FaceWords, id: string, stored: unknown): void {
  const t = (stored as Props | undefined)?.eventType;
  if (typeof t === "string" && t !== UNKNOWN && t !== id) throw identityMismatch("CallWebhook", id, `event type ${t}`, `event type ${id}`, words);
}

/** The account's webhooks, read once per context for the hints `check` gives before creates. */
function listedOnce(ctx: ProviderContext): Promise<Map<CallWebhookEventType, string>> {
  const client = ctx.masterClient();
  return ctx.perClient(client, "call-webhooks", (c) => listWebhooks(c));
}

/** Inputs as state holds them: `onDelete` only when given. */
const inputsOf = (i: { eventType: CallWebhookEventType; url: string; onDelete?: unknown }): CallWebhookInputs =>
  compact({ eventType: i.eventType, url: i.url, onDelete: i.onDelete as CallWebhookInputs["onDelete"] });

export const callWebhookProvider: KindProvider<CallWebhookInputs, CallWebhookOutputs> = {
  async check(ctx, olds, news) {
    const raw = news as unknown as Props;
    const failures = [...unknownKeyFailures(raw, ["eventType", "url", "onDelete"]), ...onDeleteFailures(raw, undefined, ctx.words)];
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
    const inputs = inputsOf(news);
    await adoptionHint(ctx, olds, raw, `CallWebhook ${inputs.eventType}`, "deleted", async () =>
      (await listedOnce(ctx)).has(inputs.eventType) ? `the account's ${inputs.eventType} webhook` : undefined,
    );
    return { inputs, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const replaces = olds.eventType !== news.eventType ? ["eventType"] : [];
    const diffs = [...replaces, ...(olds.url !== news.url ? ["url"] : []), ...((olds.onDelete ?? null) !== (news.onDelete ?? null) ? ["onDelete"] : [])];
    return { changes: diffs.length > 0, diffs, replaces, stables: replaces.length === 0 ? ["eventType", "adopted", "accountId"] : [], deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    // A webhook already set for this event type is adopted: set to the declared URL if it differs.
    const current = (await listWebhooks(client)).get(inputs.eventType);
    if (current !== inputs.url) await upsertWebhook(ctx.writer(client, { what: `CallWebhook ${inputs.eventType}`, effects: [] }), inputs.eventType, inputs.url);
    ctx.recordTakenOver("CallWebhook", inputs.eventType);
    return { id: inputs.eventType, outs: { ...inputsOf(inputs), ...(await originOf(ctx, current !== undefined)) } };
  },

  async read(ctx, id, props) {
    if (!isEventType(id)) return {};
    checkEventType(ctx.words, id, props);
    await checkAccount(ctx, `CallWebhook ${id}`, props as unknown as Props, "read");
    const url = (await listWebhooks(ctx.masterClient())).get(id);
    if (url === undefined) return {};
    const inputs = inputsOf({ eventType: id, url, onDelete: props?.onDelete });
    return { id, props: { ...inputs, ...keptOrigin(props as unknown as Props) }, inputs };
  },

  async update(ctx, id, olds, news) {
    checkEventType(ctx.words, id, olds);
    await checkAccount(ctx, `CallWebhook ${id}`, olds as unknown as Props, "updated");
    if (olds.url !== news.url) await upsertWebhook(ctx.writer(ctx.masterClient(), { what: `CallWebhook ${id}`, effects: [], stored: olds }), news.eventType, news.url);
    return { outs: { ...inputsOf(news), ...keptOrigin(olds as unknown as Props) } };
  },

  async delete(ctx, id, props) {
    if (!isEventType(id)) return;
    checkEventType(ctx.words, id, props);
    const what = `CallWebhook ${id}`;
    if (keptByReplacement(ctx, "CallWebhook", id, what, "deleted", props as unknown as Props)) return;
    if (leavesOnDelete(ctx, what, props as unknown as Props, "deleted")) return;
    await checkAccount(ctx, what, props as unknown as Props, "deleted");
    const client = ctx.masterClient();
    const url = (await listWebhooks(client)).get(id);
    if (url === undefined) return; // already gone
    // The id (the event type) names a webhook of every account: the URL says whether it is the one in state.
    if (typeof props.url === "string" && url !== props.url) {
      throw new Error(
        `${what}: not deleted: it points at another URL than the state says (changed outside ${ctx.words.engine}, or the ${ctx.words.holder} now points at another account); ` +
          `nothing was written. Run ${ctx.words.refresh} if the change is intended, then delete again`,
      );
    }
    await notFoundToUndefined(deleteWebhook(ctx.writer(client, { what, effects: ["delete"], stored: props }), id));
  },

  // Import id: the event type (`on-call`, `post-call`), which is also the resource id.
  async import(ctx, importId) {
    if (!isEventType(importId)) throw new Error(`a CallWebhook is imported by its event type (${EVENT_TYPES.join(" or ")}), not ${JSON.stringify(importId)}`);
    return callWebhookProvider.read(ctx, importId);
  },
};
