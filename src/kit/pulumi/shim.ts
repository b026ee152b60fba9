/**
 * The provider text Pulumi stores in state for every dynamic resource (`__provider`, in its inputs
 * and its outputs; docs/CONTRACT.md part 6).
 *
 * The engine's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`, `getProvider`) runs
 * the text it is given: for check, diff, create and update the program's new text, for read and
 * delete the text stored in the OLD state, in a host started in whatever folder the program runs
 * from at that time. So every text ever written must keep working whatever the project becomes:
 * each is a loader — the kind and one `configure` method — that resolves `wavix-sync/provider`
 * as Node resolves it for a file in the host's working directory (the package itself when that
 * folder is inside it, else `node_modules/wavix-sync` in that folder or any folder above) and lets
 * it put the kind's methods on the provider object. No key, no client, no machine path is in a text.
 *
 * Version 1 (`test/fixtures/pulumi-shim-v1/`) was `@pulumi/pulumi`'s serialization of a loader
 * object: 592 characters, stored twice per resource. Version 2 is the same loader written out by
 * hand as the smallest module the host accepts (`exports.handler` returning the provider): under
 * 150 characters. The host does not replace a resource whose text changed (its `diff` delegates to
 * ours, which ignores `__provider`), so state written with version 1 moves to version 2 on the next
 * `up` without a step of its own, and both keep loading (test/pulumi/shim.test.ts).
 *
 * It sits in the kit (src/kit/pulumi/: the dynamic-resource base) because each kind's resource
 * class (src/kinds/<kind>/pulumi.ts) extends `WavixDynamicResource`; it names no kind.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "./sdk";
import { redactRegistrationResponses } from "./debug-logs";
import { token } from "../provider/schema";

/**
 * A kind's Pulumi type name (`PhoneNumber`). Any string down here, below the kinds;
 * src/pulumi/shim.ts narrows it to the registered kinds' (what `provider-impl.js` exports).
 */
export type ProviderKind = string;

/**
 * Package subpath the frozen loader requires (package.json `exports`): a function
 * `(provider, configureRequest) => void` that puts the kind's methods on the provider object.
 * Part of the loader's contract: keep it, and keep what it does, for as long as state may hold it.
 */
export const PROVIDER_LOAD_SPECIFIER = "wavix-sync/provider";

/** Longest provider text accepted in state (docs/CONTRACT.md part 6; version 1 was 592). */
export const MAX_PROVIDER_TEXT = 600;

/**
 * The version-2 provider text of a kind. FROZEN once released, like version 1: state keeps every
 * text ever written (test/fixtures/pulumi-shim-v2/ pins them).
 */
export function providerText(kind: ProviderKind): string {
  return `exports.handler=()=>({kind:${JSON.stringify(kind)},configure(r){require("module").createRequire(process.cwd()+"/")(${JSON.stringify(PROVIDER_LOAD_SPECIFIER)})(this,r)}});\n`;
}

interface Loader {
  kind: ProviderKind;
  configure(req: pulumi.dynamic.ConfigureRequest): void;
}

// FROZEN (version 1): the serializer copies this method's compiled text into state verbatim.
// It returns nothing on purpose (every character counts): `wavix-sync/provider` applies the
// configuration synchronously, before it returns.
const loader = {
  configure(this: Loader, r: pulumi.dynamic.ConfigureRequest): void {
    require("module").createRequire(process.cwd() + "/")("wavix-sync/provider")(this, r);
  },
};

const shims = new Map<ProviderKind, pulumi.dynamic.ResourceProvider>();

/**
 * The shim of one kind. One object per kind for the whole program: `@pulumi/pulumi` caches the
 * serialized text per provider object, so 10,000 numbers serialize once, not 10,000 times.
 */
export function shimFor(kind: ProviderKind): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = { kind, configure: loader.configure } as Loader as unknown as pulumi.dynamic.ResourceProvider;
    shims.set(kind, shim);
  }
  return shim;
}

/**
 * Which provider the kinds' resource classes register with: `dynamic` (the default: a dynamic
 * resource whose provider text is the loader above) or `native` (the plugin `pulumi-resource-wavix`:
 * the resource `wavix:index:<type>` with the same inputs; docs/PULUMI.md). The root program sets it
 * from config `wavix-sync:provider` (src/pulumi/program.ts); it holds for the whole process.
 */
export type ResourceFace = "dynamic" | "native";

let face: ResourceFace = "dynamic";

export function setResourceFace(next: ResourceFace): void {
  face = next;
}

export function resourceFace(): ResourceFace {
  return face;
}

/** The type of a kind's dynamic resource (`pulumi-nodejs:dynamic/wavix:PhoneNumber`). */
export const dynamicType = (module: string, type: string): string => `pulumi-nodejs:dynamic/${module}:${type}`;

/**
 * The aliases of a native resource: the ones given, each also under the dynamic type, and the
 * dynamic resource of the same name — so a stack that holds the dynamic resources moves to the
 * native ones in place (the engine lets the new provider diff the old state: no create, no delete;
 * docs/PULUMI.md, "Migrating from the dynamic resources").
 */
function nativeAliases(given: pulumi.CustomResourceOptions["aliases"], dynamic: string): NonNullable<pulumi.CustomResourceOptions["aliases"]> {
  const out: NonNullable<pulumi.CustomResourceOptions["aliases"]> = [...(given ?? [])];
  for (const a of given ?? []) if (a !== null && typeof a === "object" && !("type" in a && a.type !== undefined)) out.push({ ...a, type: dynamic });
  out.push({ type: dynamic });
  return out;
}

/**
 * What `pulumi.dynamic.Resource` is, with the version-2 provider text: the same type token
 * (`pulumi-nodejs:dynamic/<module>:<type>`) and the text set under `__provider`, but written out
 * rather than serialized from a closure (which made it four times longer). Same arguments as
 * `pulumi.dynamic.Resource`: the provider is a shim of `shimFor`.
 *
 * With the native face ({@link setResourceFace}) the same class registers the native resource
 * `wavix:index:<type>` instead: the same inputs, no provider text, aliased to the dynamic one.
 */
export class WavixDynamicResource extends CustomResource {
  constructor(
    provider: pulumi.dynamic.ResourceProvider,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined,
    module: string,
    type: string,
  ) {
    if (props.__provider !== undefined) throw new Error("A dynamic resource must not define the __provider key");
    // Before the first registration: its debug message would carry every output, secrets in clear.
    redactRegistrationResponses();
    if (face === "native") {
      super(token(type), name, props, { ...opts, aliases: nativeAliases(opts?.aliases, dynamicType(module, type)) });
      return;
    }
    const kind = (provider as unknown as Loader).kind;
    super(dynamicType(module, type), name, { ...props, __provider: providerText(kind) }, opts);
  }
}
