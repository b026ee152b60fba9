/**
 * One entry run through the desired-state file's own checks, as both Pulumi faces hand it to the
 * kit's provider session (the dynamic provider's host, src/pulumi/provider-host.ts, and the native
 * plugin, src/pulumi/plugin/server.ts, which loads this module with the first entry it checks, not
 * with Configure: docs/SPEED.md, "The native plugin's start").
 */
import { checkDesiredData, type LoadResult } from "../config/load";
import type { Props } from "../kit/provider/props";

/** Runs one entry through the desired-state file's own checks (docs/CONTRACT.md part 3). */
export function validateEntry(doc: Props, label: string): LoadResult {
  // The same schema and semantic checks as the file, one rule set, on the data as it is (parsing
  // it again as text cost most of a native Check: docs/SPEED.md).
  return checkDesiredData({ version: 1, ...doc }, label);
}
