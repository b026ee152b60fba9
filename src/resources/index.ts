// Re-exports only: the per-kind handlers shared by the CLI engine and the Pulumi providers.
export * from "./diff";
export * from "./phone-number";
export * from "./sub-account";
export * from "./call-webhook";
export * from "./number-reader";
export * from "./not-found";
