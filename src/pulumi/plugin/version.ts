/**
 * The plugin's version: this package's (the plugin `pulumi-resource-wavix` is a bin of it), which
 * GetPluginInfo reports, the schema carries and the SDKs ask the engine for.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../../util/package-root";

let version: string | undefined;

export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  return version;
}
