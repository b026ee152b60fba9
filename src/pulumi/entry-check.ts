/**
 * What both Pulumi faces (the dynamic provider's host, src/pulumi/provider-host.ts, and the native
 * plugin, src/pulumi/plugin/server.ts) hand the kit's provider session: the hint for a missing key,
 * and one entry run through the desired-state file's own checks. Light to load: the file's checks
 * (src/config/load.ts) are loaded by the first entry checked, not by a Configure (docs/SPEED.md,
 * "The native plugin's start").
 */
import type { LoadResult } from "../config/load";
import type { Props } from "../kit/provider/props";

/** Under Pulumi, stack config is the documented place for the key (docs/CONTRACT.md part 6). */
export const MISSING_KEY_HINT = "set it with `pulumi config set --secret wavix:apiKey <KEY>` (or WAVIX_API_KEY)";

/** Runs one entry through the desired-state file's own checks (docs/CONTRACT.md part 3). */
export function validateEntry(doc: Props, label: string): LoadResult {
  // The same schema and semantic checks as the file, one rule set, on the data as it is (parsing
  // it again as text cost most of a native Check: docs/SPEED.md).
  const { checkDesiredData } = require("../config/load") as typeof import("../config/load");
  return checkDesiredData({ version: 1, ...doc }, label);
}
