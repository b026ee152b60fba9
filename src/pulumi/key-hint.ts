/** Under Pulumi, stack config is the documented place for the key (docs/CONTRACT.md part 6): the hint both Pulumi faces give when it is missing. */
export const MISSING_KEY_HINT = "set it with `pulumi config set --secret wavix:apiKey <KEY>` (or WAVIX_API_KEY)";
