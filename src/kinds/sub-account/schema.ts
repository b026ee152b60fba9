/** The file's `sub_accounts:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const subAccountsFragment: FileFragment = {
  order: 10,
  "key": "sub_accounts",
  "schema": {
    "description": "Sub-accounts (sub-organizations) to keep. Each is identified by its exact name; an existing one with that name is adopted. With `--prune`, sub-accounts not listed here are disabled.",
    "x-since": "0.1.0",
    "examples": [[{"name":"Acme Support","status":"enabled"}]],
    "type": "array",
    "items": {
      "$ref": "#/definitions/subAccount"
    }
  },
  "definitions": {
    "subAccount": {
      "description": "A sub-account, identified by its exact name.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "description": "Company name of the sub-account: its identity, unique in this file.",
          "x-since": "0.1.0",
          "examples": ["Acme Support"],
          "type": "string",
          "minLength": 1
        },
        "id": {
          "description": "Wavix ID of the sub-account. Needed only to pin one when two existing sub-accounts share the name.",
          "x-since": "0.1.0",
          "examples": [2001],
          "type": "integer",
          "minimum": 1
        },
        "status": {
          "description": "`enabled` or `disabled`.",
          "x-since": "0.1.0",
          "examples": ["enabled"],
          "enum": [
            "enabled",
            "disabled"
          ]
        },
        "default_destinations": {
          "description": "Default endpoints of the sub-account; either key may be omitted (left as it is).",
          "x-since": "0.1.0",
          "examples": [{"sms_endpoint":"https://hooks.acme.example/sms","dlr_endpoint":"https://hooks.acme.example/dlr"}],
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "sms_endpoint": {
              "description": "URL that receives inbound SMS.",
              "x-since": "0.1.0",
              "examples": ["https://hooks.acme.example/sms"],
              "$ref": "#/definitions/httpUrl"
            },
            "dlr_endpoint": {
              "description": "URL that receives SMS delivery reports.",
              "x-since": "0.1.0",
              "examples": ["https://hooks.acme.example/dlr"],
              "$ref": "#/definitions/httpUrl"
            }
          }
        }
      }
    }
  }
};
