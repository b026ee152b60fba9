// Re-exports only: the local Wavix API simulator (docs/ARCHITECTURE.md, `src/simulator`).
export { startSimulator, redactQuery } from "./server";
export type { Simulator } from "./server";
export type {
  FaultRule,
  Scope,
  ScopeLevel,
  SimApiKey,
  SimRateLimit,
  SimRequestLogEntry,
  SimSeed,
  SimSeedBrand,
  SimSeedCall,
  SimSeedNumber,
  SimSeedSubAccount,
  SimSeedTwoFaService,
  SimSeedTwoFaSession,
  SimSeedVetting,
  SimulatorOptions,
} from "./types";
export { SCOPES } from "./types";
export { SimStore, DEFAULT_ORGANIZATION_ID } from "./store";
export type { SimNumberRecord, SimSubAccountRecord, SimCallRecord } from "./store";
export { generateAccount, demoSeed, DEFAULT_SIM_API_KEY, DEMO_SUB_ACCOUNT_KEYS } from "./demo";
export type { GenerateAccountOptions } from "./demo";
export { loadSeedFile } from "./seed-file";
export { MAX_BULK_IDS } from "./routes";
export { SIM_VARIATIONS, EXTRA_FIELD } from "./variations";
export type { SimVariation } from "./variations";
export { VIOLATIONS_DIR_ENV, TEST_FILE_ENV } from "./violations";
export type { ContractViolation } from "./violations";
