/**
 * The real dynamic providers, loaded at run time inside the Pulumi dynamic-provider host by the
 * tiny shims of `shim.ts` (docs/CONTRACT.md part 6: the serialized provider captures no key and no client).
 *
 * This module's path and export names are what provider text already stored in users' state
 * resolves (`wavix-sync/pulumi/provider-impl`, through `provider-load.ts`): keep both. Each kind's
 * provider lives in its folder (src/kinds/<kind>/provider.ts); what they share is in
 * `provider-host.ts`.
 */
export { UNKNOWN, applyConfig, configure, MISSING_KEY_HINT } from "./provider-host";
export { PhoneNumber } from "../kinds/number/provider";
export { SubAccount } from "../kinds/sub-account/provider";
export { CallWebhook } from "../kinds/call-webhook/provider";
export { SenderId } from "../kinds/sender-id/provider";
export { TenDlcCampaignNumber } from "../kinds/ten-dlc-number/provider";
export { AccountCallbacks } from "../kinds/account-callbacks/provider";
