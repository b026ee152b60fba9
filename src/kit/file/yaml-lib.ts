/**
 * The `yaml` package, loaded on first use. It takes about 0.1 s to load, and a valid file read by
 * the fast path (fast-parse.ts) never needs it: only the full path (positions for messages) and
 * the serialiser do (issue #15, start-up).
 */
type YamlLib = typeof import("yaml");

let lib: YamlLib | undefined;

export function yamlLib(): YamlLib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lib ??= require("yaml") as YamlLib;
  return lib;
}
