/** The file's `sender_ids:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const senderIdsFragment: FileFragment = {
  order: 40,
  "key": "sender_ids",
  "schema": {
    "description": "SMS Sender IDs to keep, each identified by its `sender_id`. Missing ones are created; with `--prune`, Sender IDs not listed here are deleted. The API has no update: a Sender ID that differs is replaced (deleted, then created again) only where `replace: true` allows it.",
    "x-since": "0.1.0",
    "examples": [[{"sender_id":"ACME","type":"alphanumeric","countries":["GB","FR"],"usecase":"promo","monthly_volume":"1-1000"}]],
    "type": "array",
    "items": {
      "$ref": "#/definitions/senderId"
    }
  },
  "definitions": {
    "senderId": {
      "description": "An SMS Sender ID (official SenderIDCreateRequest).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "sender_id",
        "type",
        "countries",
        "usecase"
      ],
      "properties": {
        "sender_id": {
          "description": "The name messages are sent from: an alphanumeric name or a phone number. Its identity, unique in this file.",
          "x-since": "0.1.0",
          "examples": ["ACME"],
          "type": "string",
          "minLength": 1
        },
        "type": {
          "description": "`alphanumeric` (a text sender name) or `numeric` (a phone number).",
          "x-since": "0.1.0",
          "examples": ["alphanumeric"],
          "enum": [
            "alphanumeric",
            "numeric"
          ]
        },
        "countries": {
          "description": "Two-letter ISO country codes where the Sender ID is allowlisted (a set: order does not matter). Compared with what the API shows as `allowlisted_in`.",
          "x-since": "0.1.0",
          "examples": [["GB","FR"]],
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "type": "string",
            "pattern": "^[A-Z]{2}$"
          }
        },
        "usecase": {
          "description": "`transactional`, `promo` or `authentication`.",
          "x-since": "0.1.0",
          "examples": ["promo"],
          "enum": [
            "transactional",
            "promo",
            "authentication"
          ]
        },
        "monthly_volume": {
          "description": "Expected messages a month. Sent when the Sender ID is created only: the API does not show it back, so it is never compared.",
          "x-since": "0.1.0",
          "examples": ["1-1000"],
          "enum": [
            "1-1000",
            "1001-20000",
            "20001-50000",
            "50001-100000",
            "More than 100000"
          ]
        },
        "samples": {
          "description": "Message samples (a set: order does not matter). Left as it is when omitted.",
          "x-since": "0.1.0",
          "examples": [["Acme: 20% off"]],
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          }
        },
        "replace": {
          "description": "Allow a change to be carried out by deleting the Sender ID and creating it again (the API has no update; the new one must be approved again). Without it such a change is refused.",
          "x-since": "0.1.0",
          "default": false,
          "examples": [true],
          "type": "boolean"
        }
      }
    }
  }
};
