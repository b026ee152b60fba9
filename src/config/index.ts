// Re-exports only: the desired-state file (docs/CONTRACT.md part 3).
export * from "./types";
export { loadDesiredState, readDesiredStateFile, parseDesiredStateBytes, parseDesiredState, checkDesiredData, formatProblem, type LoadResult, type LoadOptions } from "./load";
export { MAX_CONFIG_BYTES } from "./decode";
export {
  normalizeDigits,
  transportCode,
  transportName,
  normalizeDesiredState,
  TRANSPORT_VALUES,
  type TransportName,
  type PositionLookup,
} from "./normalize";
export { toFileObject, stringifyDesiredState, type StringifyOptions } from "./serialize";
export { DESIRED_STATE_SCHEMA_PATH, desiredStateSchema } from "./schema";
export { isSecretKey } from "./semantic";
