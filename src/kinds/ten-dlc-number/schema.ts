/** The file's `ten_dlc_campaign_numbers:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

export const tenDlcCampaignNumbersFragment: FileFragment = {
  order: 50,
  "key": "ten_dlc_campaign_numbers",
  "schema": {
    "description": "The numbers linked to 10DLC Campaigns, per Brand and Campaign (both created outside wavix-sync: they must exist). Only the Campaigns listed are managed: their missing numbers are linked; with `--prune`, their numbers not listed are unlinked.",
    "x-since": "0.1.0",
    "examples": [[{"brand_id":"B9FXYNH","campaign_id":"CSJ4TV0","numbers":["17029641104"]}]],
    "type": "array",
    "items": {
      "$ref": "#/definitions/tenDlcCampaignNumbers"
    }
  },
  "definitions": {
    "tenDlcCampaignNumbers": {
      "description": "One 10DLC Campaign of one Brand and the set of numbers linked to it.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "brand_id",
        "campaign_id",
        "numbers"
      ],
      "properties": {
        "brand_id": {
          "description": "The 10DLC Brand's id, e.g. `B9FXYNH` (a reference: the Brand is not created here).",
          "x-since": "0.1.0",
          "examples": ["B9FXYNH"],
          "type": "string",
          "pattern": "^[A-Za-z0-9_-]+$"
        },
        "campaign_id": {
          "description": "The 10DLC Campaign's id, e.g. `CSJ4TV0` (a reference: the Campaign is not created here).",
          "x-since": "0.1.0",
          "examples": ["CSJ4TV0"],
          "type": "string",
          "pattern": "^[A-Za-z0-9_-]+$"
        },
        "numbers": {
          "description": "The numbers linked to the Campaign (a set), as digits, e.g. \"17029641104\"; a leading + is dropped. Quote them. A number's link status (pending, approved, failed) is shown by plan, never changed.",
          "x-since": "0.1.0",
          "examples": [["17029641104"]],
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^\\+?[0-9]+$"
          }
        }
      }
    }
  }
};
