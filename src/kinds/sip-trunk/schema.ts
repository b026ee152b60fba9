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
        label: { description: "User-defined name of the trunk: its identity, unique in this file.", type: "string", minLength: 1 },
        id: { description: "Wavix ID of the trunk: pins one when two share the label, or renames it.", type: "integer", minimum: 1, maximum: INT32_MAX },
        password_env: {
          description:
            "Name of the environment variable holding the trunk's password (never the password). Needed to create the trunk and to rotate its password (`--rotate-password LABEL`); the API never returns it, so plans cannot compare it.",
          type: "string",
          pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
        },
        host: { description: "IP authentication: the SIP endpoint's public static IP address (sent as `host_request.host`).", type: "string", minLength: 1 },
        callerid: {
          description: "Caller ID: an active or verified number of the account (digits); \"\" with `multiple_numbers: true`. Needed to create a trunk unless multiple_numbers is true.",
          type: "string",
          pattern: "^(\\+?[0-9]+)?$",
        },
        multiple_numbers: bool("Any active or verified number of the account may be the caller ID."),
        ip_restrict: bool("Registration only from `allowed_ips` (needs at least one)."),
        allowed_ips: {
          description: "Public static IP addresses allowed to register, compared as a set.",
          type: "array",
          items: { type: "string", minLength: 1 },
        },
        didinfo_enabled: bool("Inbound calls carry the dialled number in the SIP `To` header."),
        call_restrict: bool("Enforce the maximum call duration `call_limit`."),
        call_limit: int("Maximum call duration in seconds (with call_restrict)."),
        cost_limit: bool("Enforce the maximum outbound call cost `max_call_cost`."),
        max_call_cost: {
          description: "Maximum cost of an outbound call in USD, as decimal text (\"0.18\"); compared as a decimal.",
          type: "string",
          pattern: "^[0-9]{1,9}(\\.[0-9]{1,6})?$",
        },
        channels_restrict: bool("Enforce the concurrent outbound call limit `max_channels`."),
        max_channels: int("Maximum concurrent outbound calls (with channels_restrict)."),
        rewrite_enabled: bool("Apply the custom dial plan (`rewrite_prefix`, `rewrite_cond`)."),
        rewrite_prefix: { description: "Digits prepended to each dialled number.", type: "string", pattern: "^[0-9]*$" },
        rewrite_cond: { description: "Number of leading digits removed from each dialled number.", type: "string", pattern: "^[0-9]*$" },
        call_recording_enabled: bool("Outbound calls are recorded."),
        transcription_enabled: bool("Calls are transcribed (Flex Pro)."),
        transcription_threshold: int("Minimum call duration in seconds that is transcribed (Flex Pro)."),
        machine_detection_enabled: bool("Voicemail detection (Flex Pro)."),
        encrypted_media: bool("SRTP media encryption."),
      },
    },
  },
};
