/**
 * The number kind's part of the native provider's package schema (`wavix:index:PhoneNumber`;
 * src/kit/provider/schema.ts): the same inputs as the dynamic `PhoneNumber` (./pulumi.ts), the
 * descriptions of the file's `numbers:` (./schema.ts).
 */
import { fileDescription, stringEnum, typeRef, type KindSchemaPart, type SchemaProperties } from "../../kit/provider/schema";
import { numbersFragment } from "./schema";

const d = (key?: string, def = "number") => fileDescription(numbersFragment.definitions ?? {}, def, key);

/** What a program declares and state holds alike (the settings of a number). */
const settings: SchemaProperties = {
  number: { type: "string", description: `${d("number")} Identity: a new number replaces the resource (the old number is left as it is unless \`onDelete: release\`).`, willReplaceOnChanges: true },
  subAccountId: {
    type: "integer",
    description: "The Wavix ID of the sub-account that owns the number (a tenant's number): it is read and written with that sub-account's own key. Absent: the account's own number.",
  },
  smsEnabled: { type: "boolean", description: d("sms_enabled") },
  smsRelayUrl: { type: "string", description: `${d("sms_relay_url").replace(/; null clears it\.$/, ".")} Null (where the language can send it) clears it.` },
  callStatusUrl: { type: "string", description: `${d("call_status_url").replace(/; null clears it\.$/, ".")} Null (where the language can send it) clears it.` },
  callRecordingEnabled: { type: "boolean", description: d("call_recording_enabled") },
  transcriptionEnabled: { type: "boolean", description: d("transcription_enabled") },
  transcriptionThreshold: { type: "integer", description: d("transcription_threshold") },
  onDelete: { ...typeRef("PhoneNumberOnDelete"), description: "What deleting the resource does: `retain` (the default) leaves the number owned; `release` releases it back to Wavix." },
};

export const numberSchema: KindSchemaPart = {
  resource: {
    description:
      "A phone number the account (or a sub-account) already owns, kept in the declared state. Never bought: a number the account does not own is an error. Only the settings given are managed; the others are left as they are. Import id: the digits (`15551230001`), or `SUBACCOUNTID/DIGITS` for a sub-account's number.",
    inputProperties: {
      ...settings,
      destinations: { type: "array", items: typeRef("Destination"), description: d("destinations") },
    },
    requiredInputs: ["number"],
    properties: {
      ...settings,
      destinations: { type: "array", items: typeRef("DestinationState"), description: `${d("destinations")} Transports as their codes.` },
      wavixId: { type: "integer", description: "The number's Wavix ID (also the resource ID, as text)." },
    },
    required: ["number", "wavixId"],
  },
  types: {
    Destination: {
      type: "object",
      description: d(undefined, "destination"),
      properties: {
        destination: { type: "string", description: "SIP URI, PSTN phone number, or the login of a SIP trunk on the platform (a SipTrunk's `login`)." },
        transport: {
          oneOf: [typeRef("Transport"), { type: "integer" }],
          description: "`sip` (1) for a SIP URI, `pstn` (4) for a phone number, `trunk` (5) for a SIP trunk on the platform (needs `trunkId`); the codes are accepted too.",
        },
        priority: { type: "integer", description: d("priority", "destination") },
        trunkId: { type: "integer", description: "The SIP trunk's ID (a SipTrunk's `trunkId`): required with transport `trunk`, not allowed otherwise." },
      },
      required: ["destination", "transport", "priority"],
    },
    DestinationState: {
      type: "object",
      description: "One inbound call destination as state holds it (normalised: the transport as its code).",
      properties: {
        destination: { type: "string", description: "SIP URI, PSTN phone number, or a SIP trunk's login." },
        transport: { type: "integer", description: "1 (SIP URI), 4 (PSTN number) or 5 (SIP trunk)." },
        priority: { type: "integer", description: d("priority", "destination") },
        trunkId: { type: "integer", description: "The SIP trunk's ID (transport 5 only)." },
      },
      required: ["destination", "transport", "priority"],
    },
    Transport: stringEnum("How a destination is reached.", { sip: "A SIP URI (code 1).", pstn: "A phone number (code 4).", trunk: "A SIP trunk on the platform (code 5)." }),
    PhoneNumberOnDelete: stringEnum("What deleting a PhoneNumber resource does.", {
      retain: "The number stays owned, its settings as they are (the default).",
      release: "The number is released back to Wavix.",
    }),
  },
};
