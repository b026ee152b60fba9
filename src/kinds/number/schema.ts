/** The file's `numbers:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const numbersFragment: FileFragment = {
  order: 20,
  "key": "numbers",
  "schema": {
    "description": "Phone numbers already owned by the account, with the settings to keep. The tool never buys or (from the CLI) releases numbers.",
    "x-since": "0.1.0",
    "examples": [[{"number":"15551230001","sms_enabled":true}]],
    "type": "array",
    "items": {
      "$ref": "#/definitions/number"
    }
  },
  "definitions": {
    "number": {
      "description": "A phone number owned by the account, identified by its digits.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "number"
      ],
      "properties": {
        "number": {
          "description": "The number's digits as the API shows them, e.g. \"15551230001\"; a leading + is dropped. Quote it.",
          "x-since": "0.1.0",
          "examples": ["15551230001"],
          "type": "string",
          "pattern": "^\\+?[0-9]+$"
        },
        "sub_account": {
          "description": "The sub-account that owns the number (a tenant's number), by name or by id; it is read and written with that sub-account's own key. Absent: the account's own number.",
          "x-since": "0.1.0",
          "examples": ["Acme Support",2001],
          "oneOf": [
            {
              "type": "string",
              "minLength": 1
            },
            {
              "type": "integer",
              "minimum": 1
            }
          ]
        },
        "sms_enabled": {
          "description": "Whether SMS is enabled on the number.",
          "x-since": "0.1.0",
          "examples": [true],
          "type": "boolean"
        },
        "sms_relay_url": {
          "description": "URL that receives inbound SMS and MMS for the number; null clears it.",
          "x-since": "0.1.0",
          "examples": ["https://hooks.acme.example/inbound-sms",null],
          "$ref": "#/definitions/nullableHttpUrl"
        },
        "call_status_url": {
          "description": "URL that receives call status updates for the number; null clears it.",
          "x-since": "0.1.0",
          "examples": ["https://hooks.acme.example/call-status",null],
          "$ref": "#/definitions/nullableHttpUrl"
        },
        "call_recording_enabled": {
          "description": "Whether calls to the number are recorded.",
          "x-since": "0.1.0",
          "examples": [true],
          "type": "boolean"
        },
        "transcription_enabled": {
          "description": "Whether calls to the number are transcribed.",
          "x-since": "0.1.0",
          "examples": [true],
          "type": "boolean"
        },
        "transcription_threshold": {
          "description": "Minimum call duration in seconds that triggers transcription.",
          "x-since": "0.1.0",
          "examples": [30],
          "type": "integer",
          "minimum": 0
        },
        "destinations": {
          "description": "Inbound call destinations, compared as a set (order does not matter).",
          "x-since": "0.1.0",
          "examples": [[{"destination":"sip.acme.example","transport":"sip","priority":1},{"transport":"trunk","trunk":"acme-pbx","priority":2}]],
          "type": "array",
          "items": {
            "$ref": "#/definitions/destination"
          }
        },
        "on_delete": {
          "description": "Pulumi only: what deleting the resource does. `retain` (default) leaves the number owned; `release` releases it. The CLI never releases numbers.",
          "x-since": "0.1.0",
          "default": "retain",
          "examples": ["release"],
          "enum": [
            "retain",
            "release"
          ]
        }
      }
    },
    "destination": {
      "description": "One inbound call destination.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "transport",
        "priority"
      ],
      "properties": {
        "destination": {
          "description": "SIP URI, PSTN phone number, or the login of a SIP trunk on the platform. Required unless `trunk:` names the trunk (its login is then filled in).",
          "x-since": "0.1.0",
          "examples": ["sip.acme.example","15557654321"],
          "type": "string",
          "minLength": 1
        },
        "transport": {
          "description": "`sip` (1) for a SIP URI, `pstn` (4) for a phone number, `trunk` (5) for a SIP trunk on the platform (needs trunk_id).",
          "x-since": "0.1.0",
          "examples": ["sip","pstn","trunk"],
          "enum": [
            "sip",
            "pstn",
            "trunk",
            1,
            4,
            5
          ]
        },
        "priority": {
          "description": "Routing order among the number's destinations; a lower value is tried first.",
          "x-since": "0.1.0",
          "examples": [1],
          "type": "integer",
          "minimum": 0
        },
        "trunk": {
          "description": "With transport `trunk`: the label of a SIP trunk declared in `sip_trunks`, instead of `destination` and `trunk_id` (its login and id are filled in at plan time, or after its create in the same apply).",
          "x-since": "0.1.0",
          "examples": ["acme-pbx"],
          "type": "string",
          "minLength": 1
        },
        "trunk_id": {
          "description": "SIP trunk ID; required with transport `trunk` (unless `trunk:` names it), not allowed otherwise.",
          "x-since": "0.1.0",
          "examples": [144],
          "type": [
            "integer",
            "null"
          ],
          "minimum": 1
        }
      },
      "if": {
        "required": [
          "transport"
        ],
        "properties": {
          "transport": {
            "enum": [
              "trunk",
              5
            ]
          }
        }
      },
      "then": {
        "properties": {
          "trunk_id": {
            "type": "integer"
          }
        }
      },
      "else": {
        "properties": {
          "trunk_id": {
            "type": "null"
          }
        }
      }
    }
  }
};
