/**
 * `wavix-sync/provider` (package.json `exports`): what the frozen loader stored in state
 * (`shim.ts`) calls inside the dynamic-provider host, once per provider text and process, before
 * the host looks up any other method. It must stay synchronous and keep this signature for as
 * long as state may hold a version-1 loader; everything behind it may change freely.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as impl from "./provider-impl";
import type { ProviderKind } from "./shim";

const KINDS: Readonly<Record<ProviderKind, pulumi.dynamic.ResourceProvider>> = {
  SubAccount: impl.SubAccount as unknown as pulumi.dynamic.ResourceProvider,
  PhoneNumber: impl.PhoneNumber as unknown as pulumi.dynamic.ResourceProvider,
  CallWebhook: impl.CallWebhook as unknown as pulumi.dynamic.ResourceProvider,
};

function load(provider: { kind: string }, req: pulumi.dynamic.ConfigureRequest): void {
  const methods = Object.prototype.hasOwnProperty.call(KINDS, provider.kind) ? KINDS[provider.kind as ProviderKind] : undefined;
  if (!methods) {
    throw new Error(`this wavix-sync has no Pulumi provider ${JSON.stringify(provider.kind)} (state written by another version?)`);
  }
  Object.assign(provider, methods);
  impl.applyConfig(req);
}

export = load;
