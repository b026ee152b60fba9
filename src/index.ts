// Re-exports only: the library behind both front ends.
export * from "./client";
export * from "./config";
export * from "./resources";
export { exportAccount } from "./resources/export";
export * from "./plan";
export * from "./audit";
export { startSimulator, generateAccount } from "./simulator";
