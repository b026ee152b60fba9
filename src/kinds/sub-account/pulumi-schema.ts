/**
 * The sub-account kind's part of the native provider's package schema (`wavix:index:SubAccount`;
 * src/kit/provider/schema.ts): the same inputs as the dynamic `SubAccount` (./pulumi.ts), the
 * descriptions of the file's `sub_accounts:` (./schema.ts).
 */
import { fileDescription, type KindSchemaPart, onDeleteProperty, ORIGIN_OUTPUTS, type SchemaProperties, stringEnum, typeRef } from "../../kit/provider/schema";
import { subAccountsFragment } from "./schema";

const d = (key?: string) => fileDescription(subAccountsFragment.definitions ?? {}, "subAccount", key);

const inputs: SchemaProperties = {
  name: {
    type: "string",
    description:
      "Company name of the sub-account: its identity within the account (an existing sub-account with this exact name is adopted, never duplicated). Without `subAccountId`, a new name replaces the resource; with it, a new name renames the sub-account in place.",
    willReplaceOnChanges: true,
  },
  subAccountId: {
    type: "integer",
    description:
      "Pins one sub-account by its Wavix ID (the file's `id:`; Pulumi reserves the name `id`): needed when two existing sub-accounts share the name, and makes a new `name` a rename. Always set in the outputs.",
  },
  status: { ...typeRef("SubAccountStatus"), description: "`enabled` or `disabled`; left as it is when omitted. Deleting the resource disables a sub-account the stack made (the API has no delete); one it adopted or imported stays as it is unless `onDelete: \"delete\"`." },
  defaultDestinations: { ...typeRef("DefaultDestinations"), description: d("default_destinations") },
  onDelete: onDeleteProperty("disables the sub-account"),
};

export const subAccountSchema: KindSchemaPart = {
  resource: {
    description:
      "A Wavix sub-account (sub-organization). Deleting the resource disables one the stack made (the API has no delete); one it adopted (found by name at create) or imported stays as it is unless `onDelete: \"delete\"`. Import id: its exact name, or `id:<Wavix id>` to pin one.",
    inputProperties: inputs,
    requiredInputs: ["name"],
    properties: {
      ...inputs,
      ...ORIGIN_OUTPUTS,
      defaultDestinations: { ...typeRef("DefaultDestinationsState"), description: `${d("default_destinations")} An endpoint read back as unset is null.` },
      apiKey: { type: "string", secret: true, description: "The sub-account's own API key (always secret): its numbers are managed with it." },
      masterOrganization: { type: "integer", description: "The Wavix ID of the master account the sub-account belongs to." },
      pinned: { type: "boolean", description: "True when the inputs pin `subAccountId` (a refresh keeps the pin)." },
    },
    required: ["name", "subAccountId", "apiKey", "masterOrganization"],
  },
  types: {
    SubAccountStatus: stringEnum("Whether a sub-account is enabled.", { enabled: "The sub-account works.", disabled: "The sub-account is disabled." }),
    DefaultDestinations: {
      type: "object",
      description: "A sub-account's default endpoints; either may be omitted (left as it is).",
      properties: {
        smsEndpoint: { type: "string", description: "URL that receives inbound SMS." },
        dlrEndpoint: { type: "string", description: "URL that receives SMS delivery reports." },
      },
    },
    DefaultDestinationsState: {
      type: "object",
      description: "A sub-account's default endpoints as state holds them (null: unset).",
      properties: {
        smsEndpoint: { type: "string", description: "URL that receives inbound SMS." },
        dlrEndpoint: { type: "string", description: "URL that receives SMS delivery reports." },
      },
    },
  },
};
