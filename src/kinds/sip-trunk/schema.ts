/** The file's `sip_trunks:` (assembled into schemas/wavix.schema.json by src/config/file-schema.ts). */
import type { FileFragment } from "../../kit/contract";

/** The official ids are `format: int32`: a larger number names nothing the API holds. */
const INT32_MAX = 2147483647;
const bool = (description: string) => ({ description, type: "boolean" });
const int = (description: string) => ({ description, type: "integer", minimum: 0 });

export const sipTrunksFragment: FileFragment = {
  order: 15,
  key: "sip_trunks",
  schema: {
    description:
      "SIP trunks to keep. Each is identified by its label; an existing one with that label is adopted. The password is write-only: `password_env` names the environment variable that holds it. With `--prune`, trunks not listed here are deleted (never one a number routes to).",
    "x-since": "0.1.0",
    examples: [[{"label":"acme-pbx","password_env":"ACME_PBX_PASSWORD","ip_restrict":true,"allowed_ips":["203.0.113.10"]}]],
    type: "array",
    items: { $ref: "#/definitions/sipTrunk" },
  },
  definitions: {
    sipTrunk: {
      description: "A SIP trunk, identified by its label (official SIPTrunkCreateRequest fields).",
      type: "object",
      additionalProperties: false,
      required: ["label"],
      properties: {
        label: { description: "User-defined name of the trunk: its identity, unique in this file.", "x-since": "0.1.0", examples: ["acme-pbx"], type: "string", minLength: 1 },
        id: { description: "Wavix ID of the trunk: pins one when two share the label, or renames it.", "x-since": "0.1.0", examples: [144], type: "integer", minimum: 1, maximum: INT32_MAX },
        password_env: {
          description:
            "Name of the environment variable holding the trunk's password (never the password). Needed to create the trunk and to update it (every PUT carries the password: the API requires it), read at apply only; the API never returns it, so plans cannot compare it.",
          "x-since": "0.1.0",
          examples: ["ACME_PBX_PASSWORD"],
          type: "string",
          pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
        },
        host: { description: "IP authentication: the SIP endpoint's public static IP address (sent as `host_request.host`).", "x-since": "0.1.0", examples: ["203.0.113.10"], type: "string", minLength: 1 },
        callerid: {
          description: "Caller ID: an active or verified number of the account (digits); \"\" with `multiple_numbers: true`. Needed to create a trunk unless multiple_numbers is true.",
          "x-since": "0.1.0",
          examples: ["15551230001"],
          type: "string",
          pattern: "^(\\+?[0-9]+)?$",
        },
        multiple_numbers: { ...bool("Any active or verified number of the account may be the caller ID."), "x-since": "0.1.0", examples: [false] },
        ip_restrict: { ...bool("Registration only from `allowed_ips` (needs at least one)."), "x-since": "0.1.0", examples: [true] },
        allowed_ips: {
          description: "Public static IP addresses allowed to register, compared as a set.",
          "x-since": "0.1.0",
          examples: [["203.0.113.10","203.0.113.11"]],
          type: "array",
          items: { type: "string", minLength: 1 },
        },
        didinfo_enabled: { ...bool("Inbound calls carry the dialled number in the SIP `To` header."), "x-since": "0.1.0", examples: [true] },
        call_restrict: { ...bool("Enforce the maximum call duration `call_limit`."), "x-since": "0.1.0", examples: [true] },
        call_limit: { ...int("Maximum call duration in seconds (with call_restrict)."), "x-since": "0.1.0", examples: [3600] },
        cost_limit: { ...bool("Enforce the maximum outbound call cost `max_call_cost`."), "x-since": "0.1.0", examples: [true] },
        max_call_cost: {
          description: "Maximum cost of an outbound call in USD, as decimal text (\"0.18\"); compared as a decimal.",
          "x-since": "0.1.0",
          examples: ["0.18"],
          type: "string",
          pattern: "^[0-9]{1,9}(\\.[0-9]{1,6})?$",
        },
        channels_restrict: { ...bool("Enforce the concurrent outbound call limit `max_channels`."), "x-since": "0.1.0", examples: [true] },
        max_channels: { ...int("Maximum concurrent outbound calls (with channels_restrict)."), "x-since": "0.1.0", examples: [10] },
        rewrite_enabled: { ...bool("Apply the custom dial plan (`rewrite_prefix`, `rewrite_cond`)."), "x-since": "0.1.0", examples: [true] },
        rewrite_prefix: { description: "Digits prepended to each dialled number.", "x-since": "0.1.0", examples: ["1"], type: "string", pattern: "^[0-9]*$" },
        rewrite_cond: { description: "Number of leading digits removed from each dialled number.", "x-since": "0.1.0", examples: ["0"], type: "string", pattern: "^[0-9]*$" },
        call_recording_enabled: { ...bool("Outbound calls are recorded."), "x-since": "0.1.0", examples: [false] },
        transcription_enabled: { ...bool("Calls are transcribed (Flex Pro)."), "x-since": "0.1.0", examples: [false] },
        transcription_threshold: { ...int("Minimum call duration in seconds that is transcribed (Flex Pro)."), "x-since": "0.1.0", examples: [30] },
        machine_detection_enabled: { ...bool("Voicemail detection (Flex Pro)."), "x-since": "0.1.0", examples: [false] },
        encrypted_media: { ...bool("SRTP media encryption."), "x-since": "0.1.0", examples: [true] },
      },
    },
  },
};
