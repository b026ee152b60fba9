/**
 * Plain (resolved) input and output shapes of the Pulumi dynamic resources (docs/CONTRACT.md part 6).
 * Args are camelCase; the provider normalises them in `check` (digits without `+`, transport codes,
 * `trunkId` only for trunks), so what is stored in state is the normalised form.
 */
// Each kind's own types live in its folder (src/kinds/<kind>/types.ts); this is the public face
// (`wavix-sync/pulumi`) that has always exported them.
export type { TransportInput, DestinationInputs, NormalDestination, PhoneNumberInputs, PhoneNumberState, PhoneNumberOutputs } from "../kinds/number/types";
export type { SubAccountInputs, SubAccountOutputs } from "../kinds/sub-account/types";
export type { CallWebhookInputs, CallWebhookOutputs } from "../kinds/call-webhook/types";
export type { SenderIdInputs, SenderIdOutputs } from "../kinds/sender-id/types";
export type { TenDlcCampaignNumberInputs, TenDlcCampaignNumberOutputs } from "../kinds/ten-dlc-number/types";
export type { AccountCallbacksInputs, AccountCallbacksOutputs } from "../kinds/account-callbacks/types";
export type { SipTrunkSettingsInputs, SipTrunkInputs, SipTrunkOutputs } from "../kinds/sip-trunk/types";
