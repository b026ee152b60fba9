// Re-exports only.
export * from "./types";
export * from "./engine";
export * from "./format";
export * from "./json";
export * from "./md";
export * from "./mask";
export * from "../kit/change/error-text";
export * from "../kit/provider/account-pin";
export * from "./safety";
export * from "./failure";
export * from "./saved";
