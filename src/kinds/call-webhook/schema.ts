/** The file's `call_webhooks:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const callWebhooksFragment: FileFragment = {
  order: 30,
  "key": "call_webhooks",
  "schema": {
    "description": "Account-wide call webhooks by event type. Only the event types present are managed; with `--prune`, the others are deleted.",
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "on-call": {
        "description": "URL notified of call events while a call is in progress (event type `on-call`).",
        "$ref": "#/definitions/httpUrl"
      },
      "post-call": {
        "description": "URL notified when a call has ended (event type `post-call`).",
        "$ref": "#/definitions/httpUrl"
      }
    }
  }
};
