/**
 * The call-webhook kind's part of the native provider's package schema (`wavix:index:CallWebhook`;
 * src/kit/provider/schema.ts): the same inputs as the dynamic `CallWebhook` (./pulumi.ts).
 */
import { type KindSchemaPart, onDeleteProperty, ORIGIN_OUTPUTS, type SchemaProperties, stringEnum, typeRef } from "../../kit/provider/schema";

const inputs: SchemaProperties = {
  eventType: {
    ...typeRef("CallWebhookEventType"),
    description: "`on-call` (notified while a call is in progress) or `post-call` (when it has ended): the webhook's identity and the resource ID.",
    willReplaceOnChanges: true,
  },
  url: { type: "string", description: "The URL notified (http or https)." },
  onDelete: onDeleteProperty("deletes the webhook"),
};

export const callWebhookSchema: KindSchemaPart = {
  resource: {
    description: "An account-wide call webhook, one per event type. Deleting the resource deletes a webhook the stack made; one it adopted (found in place at create) or imported stays unless `onDelete: \"delete\"`. Import id: the event type (`on-call`, `post-call`).",
    inputProperties: inputs,
    requiredInputs: ["eventType", "url"],
    properties: { ...inputs, ...ORIGIN_OUTPUTS },
    required: ["eventType", "url"],
  },
  types: {
    CallWebhookEventType: stringEnum("The call events a webhook is notified of.", {
      "on-call": "While a call is in progress.",
      "post-call": "When a call has ended.",
    }, { "on-call": "OnCall", "post-call": "PostCall" }),
  },
};
