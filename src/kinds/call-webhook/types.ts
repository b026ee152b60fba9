/**
 * The call webhook kind's own types: what the file declares (`call_webhooks:`), what apply needs
 * for one change, and the plain inputs and outputs of its provider (`CallWebhook`;
 * docs/CONTRACT.md part 6).
 */
import type { CallWebhookEventType } from "../../client/types";
import type { OpBase } from "../../kit/contract";
import type { OnDelete, Origin } from "../../kit/provider/guards";

/** The file's `call_webhooks:`: only the event types present are managed. */
export type DeclaredCallWebhooks = Partial<Record<CallWebhookEventType, string>>;

/** The call webhook kind's part of the typed file. */
export interface CallWebhookPart {
  /** Only the event types present are managed. */
  call_webhooks?: DeclaredCallWebhooks;
}

/** `before`: the URL the plan read (null when none was set), which a saved plan rechecks. */
export type CallWebhookOp =
  | (OpBase & { key: CallWebhookEventType; action: "create" | "update"; url: string; before: string | null })
  | (OpBase & { key: CallWebhookEventType; action: "delete"; before: string | null });

export interface CallWebhookInputs {
  eventType: CallWebhookEventType;
  url: string;
  /**
   * What deleting the resource does: `delete` deletes the webhook even when the stack adopted it
   * (it was set before the stack's create); `retain` never deletes it. Not given: a webhook the
   * stack set is deleted, one it adopted is left as it is (src/kit/provider/guards.ts).
   */
  onDelete?: OnDelete;
}

export interface CallWebhookOutputs extends CallWebhookInputs, Partial<Origin> {}
