// Re-exports only: the per-kind handlers (src/kinds/<kind>/) and the shared diff vocabulary, as the
// package's public entry has always exported them.
export * from "../kit/change/diff";
export * from "../kinds/number/destinations";
export * from "../kinds/number/handler";
export * from "../kinds/sub-account/handler";
export * from "../kinds/call-webhook/handler";
export * from "../kinds/number/reader";
export * from "../client/not-found";
