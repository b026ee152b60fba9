/**
 * The real dynamic providers, loaded at run time inside the Pulumi dynamic-provider host by the
 * tiny shims of src/kit/pulumi/shim.ts (docs/CONTRACT.md part 6: the serialized provider captures
 * no key and no client).
 *
 * This module's path and export names are what provider text already stored in users' state
 * resolves (`wavix-sync/pulumi/provider-impl`, through `provider-load.ts`): keep both. Each kind's
 * provider lives in its folder (src/kinds/<kind>/provider.ts, engine-agnostic); `provider-host.ts`
 * serves it as a dynamic provider.
 */
import { dynamicProvider } from "./provider-host";
import { numberProvider } from "../kinds/number/provider";
import { subAccountProvider } from "../kinds/sub-account/provider";
import { callWebhookProvider } from "../kinds/call-webhook/provider";
import { senderIdProvider } from "../kinds/sender-id/provider";
import { tenDlcNumberProvider } from "../kinds/ten-dlc-number/provider";
import { accountCallbacksProvider } from "../kinds/account-callbacks/provider";
import { sipTrunkProvider } from "../kinds/sip-trunk/provider";

export { UNKNOWN, applyConfig, configure, MISSING_KEY_HINT } from "./provider-host";
export const PhoneNumber = dynamicProvider(numberProvider);
export const SubAccount = dynamicProvider(subAccountProvider);
export const CallWebhook = dynamicProvider(callWebhookProvider);
export const SenderId = dynamicProvider(senderIdProvider);
export const TenDlcCampaignNumber = dynamicProvider(tenDlcNumberProvider);
export const AccountCallbacks = dynamicProvider(accountCallbacksProvider);
export const SipTrunk = dynamicProvider(sipTrunkProvider);
