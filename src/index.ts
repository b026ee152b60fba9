// Re-exports only.
export * from "./client/types";
export * from "./config/types";
