/** Call webhooks as an export writes them: every event type the account has, sorted. */
import type { WavixClient } from "../../client";
import type { CallWebhookEventType } from "../../client/types";
import type { KindExport } from "../contract";
import { listWebhooks } from "./handler";

const sorted = async (client: WavixClient): Promise<Partial<Record<CallWebhookEventType, string>>> =>
  Object.fromEntries([...(await listWebhooks(client)).entries()].sort());

export const callWebhookExport: KindExport<Partial<Record<CallWebhookEventType, string>>> = {
  async text(client) {
    return { form: "value", value: await sorted(client) };
  },
  state: sorted,
};
