/**
 * Call webhooks: identity is the event type (`on-call`, `post-call`); POST upserts, DELETE removes.
 */
import type { GatedClient } from "../../kit/gate";
import type { WavixClient } from "../../client";
import type { CallWebhook, CallWebhookEventType } from "../../client/types";
import type { FieldDiff } from "../../kit/change/diff";
import { sameUrl } from "../../util/url";

export const EVENT_TYPES: readonly CallWebhookEventType[] = ["on-call", "post-call"];

export async function listWebhooks(client: WavixClient): Promise<Map<CallWebhookEventType, string>> {
  const list: CallWebhook[] = await client.listCallWebhooks();
  return new Map(list.map((w) => [w.event_type, w.url]));
}

export function diffWebhook(desiredUrl: string, currentUrl: string | undefined): FieldDiff[] {
  // Compared as the API means a URL (src/util/url.ts): another spelling of it is no change.
  return sameUrl(desiredUrl, currentUrl) ? [] : [{ path: "url", before: currentUrl ?? null, after: desiredUrl }];
}

export async function upsertWebhook(client: GatedClient, eventType: CallWebhookEventType, url: string): Promise<void> {
  await client.upsertCallWebhook(eventType, url);
}

export async function deleteWebhook(client: GatedClient, eventType: CallWebhookEventType): Promise<void> {
  await client.deleteCallWebhook(eventType);
}
