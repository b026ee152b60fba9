/**
 * The provider object Pulumi serializes into state for every dynamic resource (PRODUCT.md part 6).
 *
 * Pulumi's closure serializer copies, as source, every function the provider's methods reach. So
 * the object handed to `pulumi.dynamic.Resource` is a shim that reaches nothing but two strings:
 * each method `require`s the real implementation (`provider-impl.js`) at run time inside the
 * dynamic-provider host. No key, no client, no project code is captured; the text stays a few
 * hundred bytes. The host evaluates the text with `require-from-string`, so `require` resolves
 * from its working directory, which the engine sets to the Pulumi program's directory.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type * as pulumi from "@pulumi/pulumi";

/** The kinds `provider-impl.js` exports. */
export type ProviderKind = "SubAccount" | "PhoneNumber" | "CallWebhook";

/**
 * Package subpath tried first: a program that installed `wavix-sync` loads the implementation
 * through the package (needs the `./pulumi/provider-impl` entry of package.json `exports`).
 */
export const PROVIDER_IMPL_SPECIFIER = "wavix-sync/pulumi/provider-impl";

/**
 * Builds the shim. `rel` is the compiled `provider-impl.js` relative to the program's working
 * directory (no machine-specific absolute path ends up in state).
 *
 * Everything the methods use is inside this closure on purpose: the serializer then copies this
 * one factory's variables (two strings) and nothing of the module around it.
 */
export function makeShim(kind: ProviderKind, rel: string): pulumi.dynamic.ResourceProvider {
  const specifier = "wavix-sync/pulumi/provider-impl";
  const load = (): Record<string, Record<string, (...args: unknown[]) => Promise<never>>> => {
    try {
      return require(specifier);
    } catch (err) {
      const code = (err as { code?: string } | null)?.code;
      // Only "the package is not installed here" falls through; a broken install must be seen.
      if (code !== "MODULE_NOT_FOUND" && code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") throw err;
      if (code === "MODULE_NOT_FOUND" && !String((err as Error).message).includes(specifier)) throw err;
      return require(require("path").resolve(rel));
    }
  };
  return {
    configure: (...args: unknown[]) => load()[kind].configure(...args),
    check: (...args: unknown[]) => load()[kind].check(...args),
    diff: (...args: unknown[]) => load()[kind].diff(...args),
    create: (...args: unknown[]) => load()[kind].create(...args),
    read: (...args: unknown[]) => load()[kind].read(...args),
    update: (...args: unknown[]) => load()[kind].update(...args),
    delete: (...args: unknown[]) => load()[kind].delete(...args),
  };
}

/**
 * Where the compiled `provider-impl.js` is, relative to `cwd`, with `/` separators. Under the
 * TypeScript sources (tests running `src/`), the compiled twin in `dist/` is named instead.
 */
export function providerImplPath(cwd: string = process.cwd()): string {
  let file = path.join(__dirname, "provider-impl.js");
  if (!existsSync(file) && path.basename(path.dirname(__dirname)) === "src") {
    file = path.join(path.dirname(path.dirname(__dirname)), "dist", "pulumi", "provider-impl.js");
  }
  const rel = path.relative(cwd, file).split(path.sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}
