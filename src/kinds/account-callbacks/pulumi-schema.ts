/**
 * The account callbacks kind's part of the native provider's package schema
 * (`wavix:index:AccountCallbacks`; src/kit/provider/schema.ts): the same inputs as the dynamic
 * `AccountCallbacks` (./pulumi.ts), the descriptions of the file's `account_callbacks:` (./schema.ts).
 */
import type { KindSchemaPart, SchemaProperties } from "../../kit/provider/schema";

const inputs: SchemaProperties = {
  smsRelayUrl: { type: "string", description: "URL inbound SMS are forwarded to (the profile's `sms_relay_url`)." },
  dlrRelayUrl: { type: "string", description: "URL message delivery reports (DLRs) are forwarded to (the profile's `dlr_relay_url`)." },
};

export const accountCallbacksSchema: KindSchemaPart = {
  resource: {
    description:
      "The account's default SMS callbacks. The API never shows them back: what state holds is what was last sent, a changed input is sent, and a refresh changes nothing. Deleting the resource leaves the account as it is (the API cannot unset them). Import id: `profile`.",
    inputProperties: inputs,
    requiredInputs: [],
    properties: inputs,
    required: [],
  },
};
