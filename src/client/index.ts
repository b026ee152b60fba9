export * from "./types";
export * from "./errors";
export { WavixClient, normaliseReasons, type WavixClientOptions, type ListNumbersParams, type ListSubAccountsParams, type ListBrandsParams } from "./client";
export { DEFAULT_RETRY_OPTIONS, resolveRetryOptions, isIdempotent, type RetryOptions, type ResolvedRetryOptions, type HttpMethod } from "./retry";
export { parseRetryAfter, cappedRetryAfter } from "./retry-timing";
export { resolveBaseUrl, isLoopbackHost, DEFAULT_BASE_URL } from "./base-url";
export { AdaptivePacer, TokenBucket, type PacerOptions, type PacerState } from "./rate-limit";
export type { ClientStats, FetchLike } from "./request";
export { checkResponse, type ResponseSchemaName } from "./response-schemas";
