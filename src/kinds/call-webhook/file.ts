/** `call_webhooks:` in the file: a URL per event type; only the event types present are managed. */
import type { CallWebhookEventType } from "../../client/types";
import type { FileForm } from "../../kit/contract";
import type { DeclaredCallWebhooks } from "./types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export const callWebhookFileForm: FileForm<DeclaredCallWebhooks> = {
  urls: [["on-call"], ["post-call"]],

  check(value, { urlCheck }) {
    if (isObj(value)) for (const k of ["on-call", "post-call"]) urlCheck(value[k], ["call_webhooks", k]);
  },

  normalize(value) {
    if (value === undefined) return undefined;
    const cw = value as Obj;
    const out: Partial<Record<CallWebhookEventType, string>> = {};
    for (const ev of ["on-call", "post-call"] as const) {
      if (typeof cw[ev] === "string") out[ev] = cw[ev] as string;
    }
    return out;
  },

  toFile: (declared) => ({ ...declared }),
};
