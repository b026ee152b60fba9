/**
 * Call webhooks as an export writes them: every event type the account has, sorted. An event type
 * the file cannot declare (not in EVENT_TYPES: the API grew one) is left out with a warning, so the
 * exported file still passes `validate`.
 */
import type { WavixClient } from "../../client";
import type { CallWebhookEventType } from "../../client/types";
import type { KindExport } from "../../kit/contract";
import { EVENT_TYPES, listWebhooks } from "./handler";

async function read(client: WavixClient): Promise<{ value: Partial<Record<CallWebhookEventType, string>>; warnings: string[] }> {
  const known = new Set<string>(EVENT_TYPES);
  const value: Partial<Record<CallWebhookEventType, string>> = {};
  const warnings: string[] = [];
  for (const [type, url] of [...(await listWebhooks(client)).entries()].sort()) {
    if (known.has(type)) value[type] = url;
    else warnings.push(`call webhook for event type ${JSON.stringify(type)} not exported: the file knows only ${EVENT_TYPES.join(", ")} (upgrade wavix-sync to manage it)`);
  }
  return { value, warnings };
}

export const callWebhookExport: KindExport<Partial<Record<CallWebhookEventType, string>>> = {
  async text(client) {
    const { value, warnings } = await read(client);
    return { form: "value", value, warnings };
  },
  state: async (client) => (await read(client)).value,
};
