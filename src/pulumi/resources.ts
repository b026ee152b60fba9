/**
 * The Pulumi dynamic resources (docs/CONTRACT.md part 6). Types read
 * `pulumi-nodejs:dynamic/wavix:SubAccount` etc. The provider passed to Pulumi is a shim that loads
 * `provider-impl.js` inside the host (see `shim.ts`), so state holds no key and no client.
 * Each kind's resource lives in its folder (src/kinds/<kind>/pulumi.ts); this module keeps the
 * names the `wavix-sync/pulumi` entry has always exported.
 */
export { RESOURCE_MODULE } from "../kit/pulumi/module";
export { SubAccount, type SubAccountArgs } from "../kinds/sub-account/pulumi";
export { PhoneNumber, type PhoneNumberArgs, type DestinationArgs } from "../kinds/number/pulumi";
export { CallWebhook, type CallWebhookArgs } from "../kinds/call-webhook/pulumi";
export { SenderId, type SenderIdArgs } from "../kinds/sender-id/pulumi";
export { TenDlcCampaignNumber, type TenDlcCampaignNumberArgs } from "../kinds/ten-dlc-number/pulumi";
export { AccountCallbacks, type AccountCallbacksArgs } from "../kinds/account-callbacks/pulumi";
export { SipTrunk, type SipTrunkArgs } from "../kinds/sip-trunk/pulumi";
