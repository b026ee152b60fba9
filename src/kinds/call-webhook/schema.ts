/** The file's `call_webhooks:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const callWebhooksFragment: FileFragment = {
  order: 30,
  "key": "call_webhooks",
  "schema": {
    "description": "Account-wide call webhooks by event type. Only the event types present are managed; with `--prune`, the others are deleted.",
    "x-since": "0.1.0",
    "examples": [{"on-call":"https://hooks.acme.example/on-call","post-call":"https://hooks.acme.example/post-call"}],
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "on-call": {
        "description": "URL notified of call events while a call is in progress (event type `on-call`).",
        "x-since": "0.1.0",
        "examples": ["https://hooks.acme.example/on-call"],
        "$ref": "#/definitions/httpUrl"
      },
      "post-call": {
        "description": "URL notified when a call has ended (event type `post-call`).",
        "x-since": "0.1.0",
        "examples": ["https://hooks.acme.example/post-call"],
        "$ref": "#/definitions/httpUrl"
      }
    }
  }
};
