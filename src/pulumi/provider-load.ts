/**
 * `wavix-sync/provider` (package.json `exports`): what the frozen loader stored in state
 * (`shim.ts`) calls inside the dynamic-provider host, once per provider text and process, before
 * the host looks up any other method. It must stay synchronous and keep this signature for as
 * long as state may hold a version-1 loader; everything behind it may change freely.
 */
import type * as pulumi from "@pulumi/pulumi";
import { applyConfig, dynamicProvider, providerContext, quietReportedErrors } from "./provider-host";
import { KINDS } from "../kinds";

/** The dynamic provider of a type name (`PhoneNumber`): every registered kind's, by its Pulumi type. */
function providerOf(type: string): pulumi.dynamic.ResourceProvider | undefined {
  const kind = KINDS.find((k) => k.pulumi.type === type);
  return kind ? dynamicProvider(kind.provider()) : undefined;
}

function load(provider: { kind: string }, req: pulumi.dynamic.ConfigureRequest): void {
  const methods = typeof provider.kind === "string" ? providerOf(provider.kind) : undefined;
  if (!methods) {
    throw new Error(`this wavix-sync has no Pulumi provider ${JSON.stringify(provider.kind)} (state written by another version?)`);
  }
  Object.assign(provider, methods, keepingDiff(provider.kind, methods));
  // Only ever loaded inside the dynamic-provider host: its own print of our errors goes.
  quietReportedErrors();
  applyConfig(req);
}

/**
 * The kind's diff, noting each id a declared resource keeps (a diff that replaces nothing): the
 * delete of another state entry naming the same Wavix object — the old half of a replacement an
 * interrupted deployment left pending — then touches nothing (src/kit/provider/session.ts `recordKept`).
 */
function keepingDiff(kind: string, methods: pulumi.dynamic.ResourceProvider): Partial<pulumi.dynamic.ResourceProvider> {
  const diff = methods.diff;
  if (!diff) return {};
  return {
    async diff(id, olds, news) {
      const result = await diff.call(methods, id, olds, news);
      if (!result.replaces || result.replaces.length === 0) providerContext().recordKept(kind, id);
      return result;
    },
  };
}

export = load;
