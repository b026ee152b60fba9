/**
 * `wavix-sync/provider` (package.json `exports`): what the frozen loader stored in state
 * (`shim.ts`) calls inside the dynamic-provider host, once per provider text and process, before
 * the host looks up any other method. It must stay synchronous and keep this signature for as
 * long as state may hold a version-1 loader; everything behind it may change freely.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as impl from "./provider-impl";
import { KINDS } from "../kinds";

/** The provider of a type name (`PhoneNumber`): every registered kind's, by its Pulumi type. */
function providerOf(type: string): object | undefined {
  const kind = KINDS.find((k) => k.pulumi.type === type);
  return kind?.pulumi.provider();
}

function load(provider: { kind: string }, req: pulumi.dynamic.ConfigureRequest): void {
  const methods = typeof provider.kind === "string" ? providerOf(provider.kind) : undefined;
  if (!methods) {
    throw new Error(`this wavix-sync has no Pulumi provider ${JSON.stringify(provider.kind)} (state written by another version?)`);
  }
  Object.assign(provider, methods);
  impl.applyConfig(req);
}

export = load;
