// Re-exports only: the `wavix-sync/pulumi` entry (docs/CONTRACT.md part 6).
export * from "./types";
export { RESOURCE_MODULE, SubAccount, PhoneNumber, CallWebhook, SipTrunk, SenderId, TenDlcCampaignNumber, AccountCallbacks } from "./resources";
export type {
  SubAccountArgs,
  PhoneNumberArgs,
  DestinationArgs,
  CallWebhookArgs,
  SipTrunkArgs,
  SenderIdArgs,
  TenDlcCampaignNumberArgs,
  AccountCallbacksArgs,
} from "./resources";
export {
  getTwoFaEvents,
  getTwoFaEventsOutput,
  getBrandVettings,
  getBrandVettingsOutput,
} from "./data-sources";
export type {
  DataSourceOptions,
  GetTwoFaEventsArgs,
  GetTwoFaEventsOutputArgs,
  GetBrandVettingsArgs,
  GetBrandVettingsOutputArgs,
  TwoFaServiceWindowArgs,
  TwoFaEventsData,
  TwoFaSessionData,
  TwoFaEventData,
  BrandVettingsData,
  BrandData,
  VettingData,
} from "./data-sources";
export {
  declareResources,
  declareResourcesStreamed,
  loadStateOrThrow,
  logicalName,
  phoneNumberArgs,
  projectRoot,
  runProgram,
  runProgramStreamed,
  subAccountArgs,
} from "./program";
export type { AccountProgramOutputs, AuditSummary, DeclaredResources, Granularity, ProgramOutputs, RunProgramOptions } from "./program";
export { shimFor, providerText, WavixDynamicResource, MAX_PROVIDER_TEXT, PROVIDER_LOAD_SPECIFIER, type ProviderKind } from "./shim";
