/**
 * The provider object Pulumi serializes into state for every dynamic resource (docs/CONTRACT.md part 6).
 *
 * The engine runs the provider text stored in the OLD state on delete and refresh, in a host
 * started in whatever folder the program runs from at that time. So the text is a loader, frozen
 * from version 1 on: the kind and one `configure` method, nothing else, and it must keep working
 * whatever the project becomes. Do not edit `loader`: a change makes new state differ from old
 * (test/pulumi/shim.test.ts pins the exact text, and its size: at most MAX_PROVIDER_TEXT).
 *
 * Inside the dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`, `getProvider`), the text
 * is deserialized once per process and `configure` is awaited before any other method is looked
 * up on the object. `configure` resolves `wavix-sync/provider` as Node resolves it for
 * a file in the host's working directory: the package itself when that folder is inside it (its
 * nearest package.json is named `wavix-sync`: self-reference through `exports`), else
 * `node_modules/wavix-sync` in that folder or any folder above. That module (`provider-load.ts`)
 * copies the kind's methods onto the provider object and applies the configuration. No key, no
 * client, no machine path is in the text.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The kinds `provider-impl.js` exports: every registered kind's Pulumi type name (src/kinds). */
export type ProviderKind = import("../kinds").RegisteredKind["pulumi"]["type"];

/**
 * Package subpath the frozen loader requires (package.json `exports`): a function
 * `(provider, configureRequest) => void` that puts the kind's methods on the provider object.
 * Part of the loader's contract: keep it, and keep what it does, for as long as state may hold it.
 */
export const PROVIDER_LOAD_SPECIFIER = "wavix-sync/provider";

/** Longest provider text accepted in state (docs/CONTRACT.md part 6: a few hundred characters). */
export const MAX_PROVIDER_TEXT = 600;

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
