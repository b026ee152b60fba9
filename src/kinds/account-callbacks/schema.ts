/** The file's `account_callbacks:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const accountCallbacksFragment: FileFragment = {
  order: 60,
  "key": "account_callbacks",
  "schema": {
    "description": "The account's default SMS callbacks (profile `sms_relay_url`, `dlr_relay_url`). The API never shows them back, so plan cannot compare them: they are sent only when a run is given `--send-callbacks`. Only the keys present are sent; no other profile field is managed.",
    "x-since": "0.1.0",
    "examples": [{"sms_relay_url":"https://hooks.acme.example/account-sms","dlr_relay_url":"https://hooks.acme.example/account-dlr"}],
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "sms_relay_url": {
        "description": "URL inbound SMS are forwarded to.",
        "x-since": "0.1.0",
        "examples": ["https://hooks.acme.example/account-sms"],
        "$ref": "#/definitions/httpUrl"
      },
      "dlr_relay_url": {
        "description": "URL message delivery reports (DLRs) are forwarded to.",
        "x-since": "0.1.0",
        "examples": ["https://hooks.acme.example/account-dlr"],
        "$ref": "#/definitions/httpUrl"
      }
    }
  }
};
