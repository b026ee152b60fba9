/**
 * The provider texts and shims of src/kit/pulumi/shim.ts, typed for the registered kinds: what
 * `wavix-sync/pulumi` exports (the texts themselves, FROZEN, are written there).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RegisteredKind } from "../kinds";
import * as kit from "../kit/pulumi/shim";

/** The kinds `provider-impl.js` exports: every registered kind's Pulumi type name (src/kinds). */
export type ProviderKind = RegisteredKind["pulumi"]["type"];

export { MAX_PROVIDER_TEXT, PROVIDER_LOAD_SPECIFIER, WavixDynamicResource } from "../kit/pulumi/shim";

/** The version-2 provider text of a kind (FROZEN once released: src/kit/pulumi/shim.ts). */
export const providerText: (kind: ProviderKind) => string = kit.providerText;

/** The shim of one kind: one object per kind for the whole program (src/kit/pulumi/shim.ts). */
export const shimFor: (kind: ProviderKind) => pulumi.dynamic.ResourceProvider = kit.shimFor;
