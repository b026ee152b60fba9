/**
 * Data sources for the audit data (docs/CONTRACT.md part 6): 2FA verification events and 10DLC brand
 * vettings. They run in the Pulumi program's own process (reads only, no provider), with the
 * credentials of stack config `wavix:apiKey` (secret) / `wavix:baseUrl`, else `WAVIX_API_KEY` /
 * `WAVIX_BASE_URL`, and honour the account pin `wavix:accountId`. The computation is the audit's
 * engine-agnostic one (src/audit/data-sources.ts), so CLI, these and a native plugin agree.
 *
 * Results are camelCase, like the arguments. The snake_case names of earlier versions
 * (`charge_total`, `session_id`, `brand_id`, …) still read, as deprecated aliases: non-enumerable
 * getters (so stack outputs and JSON show each value once), to be removed in the next minor
 * version (docs/AUDIT.md, "Pulumi data sources").
 */
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../kit/pulumi/sdk";
import { WavixClient } from "../client";
import {
  readBrandVettings,
  readTwoFaEvents,
  type AuditClient,
  type BrandResult,
  type BrandVettingsResult,
  type EventsByStatus,
  type GetBrandVettingsArgs,
  type GetTwoFaEventsArgs,
  type TwoFaEventResult,
  type TwoFaEventsResult,
  type TwoFaServiceWindowArgs,
  type TwoFaSessionResult,
  type VettingResult,
} from "../audit";
import { MISSING_KEY_HINT } from "./provider-impl";
import { driftNotes } from "../kit/provider/session";

export type { GetBrandVettingsArgs, GetTwoFaEventsArgs, TwoFaServiceWindowArgs } from "../audit";

/** Options shared by the data sources. */
export interface DataSourceOptions {
  /**
   * The client to read with (tests, or a program that builds its own).
   * @default a WavixClient from stack config `wavix:apiKey`/`wavix:baseUrl`, else the environment
   */
  client?: WavixClient;
  /**
   * The account the key must belong to, checked before anything else is read.
   * @default stack config `wavix:accountId` when set (with the default client), else no check
   */
  accountId?: number;
}

export interface GetTwoFaEventsOutputArgs {
  sessions?: pulumi.Input<pulumi.Input<string>[]>;
  services?: pulumi.Input<pulumi.Input<TwoFaServiceWindowArgs>[]>;
}

export interface GetBrandVettingsOutputArgs {
  brands: pulumi.Input<pulumi.Input<string>[] | "all">;
}

/** An event of {@link TwoFaEventsData}, with its deprecated snake_case name. */
export interface TwoFaEventData extends TwoFaEventResult {
  /** @deprecated use `createdAt`: the snake_case alias goes in the next minor version. */
  readonly created_at: string;
}

/** A session of {@link TwoFaEventsData}, with its deprecated snake_case names. */
export interface TwoFaSessionData extends Omit<TwoFaSessionResult, "events"> {
  events: TwoFaEventData[];
  /** @deprecated use `sessionId`. */
  readonly session_id: string;
  /** @deprecated use `serviceId`. */
  readonly service_id?: string;
  /** @deprecated use `serviceName`. */
  readonly service_name?: string;
  /** @deprecated use `chargeTotal`. */
  readonly charge_total: string;
}

/** What `getTwoFaEvents` returns: {@link TwoFaEventsResult} with deprecated snake_case aliases. */
export interface TwoFaEventsData extends Omit<TwoFaEventsResult, "sessions"> {
  sessions: TwoFaSessionData[];
  /** @deprecated use `chargeTotal`. */
  readonly charge_total: string;
  /** @deprecated use `eventsByStatus`. */
  readonly events_by_status: EventsByStatus;
}

/** A vetting of {@link BrandVettingsData}, with its deprecated snake_case names. */
export interface VettingData extends VettingResult {
  /** @deprecated use `vettingId`. */
  readonly vetting_id: string;
  /** @deprecated use `evpId`. */
  readonly evp_id: string;
  /** @deprecated use `createDate`. */
  readonly create_date: string;
  /** @deprecated use `vettedDate`. */
  readonly vetted_date: string | null;
  /** @deprecated use `vettingStatus`. */
  readonly vetting_status: string;
  /** @deprecated use `vettingClass`. */
  readonly vetting_class: string;
  /** @deprecated use `vettingScore`. */
  readonly vetting_score: number | null;
  /** @deprecated use `vettingDetails`. */
  readonly vetting_details?: Record<string, unknown>;
}

/** A brand of {@link BrandVettingsData}, with its deprecated snake_case names. */
export interface BrandData extends Omit<BrandResult, "vettings"> {
  vettings: VettingData[];
  /** @deprecated use `brandId`. */
  readonly brand_id: string;
  /** @deprecated use `effectiveScore`. */
  readonly effective_score: number | null;
}

/** What `getBrandVettings` returns: {@link BrandVettingsResult} with deprecated snake_case aliases. */
export interface BrandVettingsData extends Omit<BrandVettingsResult, "brands"> {
  brands: BrandData[];
}

/** The names results had before they were camelCase: each kept, for one version, as an alias. */
const DEPRECATED_NAMES = new Map<string, string>(
  [
    "charge_total",
    "events_by_status",
    "session_id",
    "service_id",
    "service_name",
    "created_at",
    "brand_id",
    "effective_score",
    "vetting_id",
    "evp_id",
    "create_date",
    "vetted_date",
    "vetting_status",
    "vetting_class",
    "vetting_score",
    "vetting_details",
  ].map((snake) => [snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), snake]),
);

/**
 * `value` with a non-enumerable getter under each deprecated snake_case name, at every depth: a
 * program reading `data.charge_total` keeps working, while the enumerable shape (stack outputs,
 * JSON) is the camelCase one alone.
 */
export function withDeprecatedAliases<T>(value: T): T {
  if (Array.isArray(value)) {
    value.forEach(withDeprecatedAliases);
    return value;
  }
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    withDeprecatedAliases(obj[key]);
    const snake = DEPRECATED_NAMES.get(key);
    if (snake !== undefined && !(snake in obj)) Object.defineProperty(obj, snake, { get: () => obj[key], enumerable: false, configurable: true });
  }
  return value;
}

/**
 * The program's client. `pulumi.runtime.getConfig` reads the raw stack value, so a secret key is
 * used without `Config.get` warning about it; the key never leaves this process.
 */
function defaultClient(): WavixClient {
  const apiKey = sdk.getConfig("wavix:apiKey") || undefined;
  const baseUrl = sdk.getConfig("wavix:baseUrl") || undefined;
  // Contract drift is shown as a Pulumi warning by the CLI's rule (quiet unless WAVIX_SYNC_VERBOSE).
  const apiKeyName = apiKey !== undefined ? "wavix:apiKey" : "WAVIX_API_KEY (wavix:apiKey is not set)";
  return new WavixClient({ apiKey, baseUrl, missingApiKeyHint: MISSING_KEY_HINT, apiKeyName, onWarning: driftNotes((m) => void sdk.warn(m)) });
}

/** `wavix:accountId` of the stack, when set (a whole number; anything else is refused). */
function stackAccountId(): number | undefined {
  const text = sdk.getConfig("wavix:accountId");
  if (text === undefined || text === "") return undefined;
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new sdk.RunError(`wavix:accountId must be the account's id (a whole number), got ${JSON.stringify(text)}`);
  return id;
}

/** Brands per page when listing them all: the API's maximum, so an account costs few pages. */
export const BRANDS_PER_PAGE = 100;

/** The client, listing brands {@link BRANDS_PER_PAGE} at a time. */
function auditClient(client: WavixClient): AuditClient {
  return {
    getAccountProfile: () => client.getAccountProfile(),
    listTwoFaEvents: (id) => client.listTwoFaEvents(id),
    listTwoFaSessions: (serviceId, from, to) => client.listTwoFaSessions(serviceId, from, to),
    listBrandVettings: (id) => client.listBrandVettings(id),
    iterateBrandPages: () => client.iterateBrandPages({ perPage: BRANDS_PER_PAGE }),
  };
}

/**
 * An incomplete result is said on the engine's log as well as in `complete`/`findings`, so a
 * program that only reads a total still sees that it lacks data.
 */
function warnIncomplete(fn: string, result: { complete: boolean; findings: { gap: boolean; message: string }[] }): void {
  if (result.complete) return;
  const gaps = result.findings.filter((f) => f.gap);
  void sdk.warn(`${fn}: incomplete, ${gaps.length} data gap(s): ${gaps.slice(0, 5).map((g) => g.message).join("; ")}${gaps.length > 5 ? "; …" : ""}`);
}

function readOptions(opts: DataSourceOptions): { accountId?: number } {
  const accountId = opts.accountId ?? (opts.client === undefined ? stackAccountId() : undefined);
  return accountId !== undefined ? { accountId } : {};
}

/** 2FA events of the listed sessions and of every session of the listed services in their windows. */
export async function getTwoFaEvents(args: GetTwoFaEventsArgs, opts: DataSourceOptions = {}): Promise<TwoFaEventsData> {
  const options = readOptions(opts);
  const client = opts.client ?? defaultClient();
  const result = await readTwoFaEvents(auditClient(client), args, options);
  warnIncomplete("getTwoFaEvents", result);
  return withDeprecatedAliases(result) as TwoFaEventsData;
}

/** {@link getTwoFaEvents} taking Inputs and giving an Output. */
export function getTwoFaEventsOutput(args: GetTwoFaEventsOutputArgs, opts: DataSourceOptions = {}): pulumi.Output<TwoFaEventsData> {
  return sdk.output(args).apply((a) => getTwoFaEvents({ sessions: a.sessions, services: a.services }, opts));
}

/** Vettings of the listed brands (or all), with each brand's effective score, trend, age and pending flag. */
export async function getBrandVettings(args: GetBrandVettingsArgs, opts: DataSourceOptions = {}): Promise<BrandVettingsData> {
  const options = readOptions(opts);
  const client = opts.client ?? defaultClient();
  const result = await readBrandVettings(auditClient(client), args, options);
  warnIncomplete("getBrandVettings", result);
  return withDeprecatedAliases(result) as unknown as BrandVettingsData;
}

/** {@link getBrandVettings} taking Inputs and giving an Output. */
export function getBrandVettingsOutput(args: GetBrandVettingsOutputArgs, opts: DataSourceOptions = {}): pulumi.Output<BrandVettingsData> {
  return sdk.output(args).apply((a) => getBrandVettings({ brands: a.brands as string[] | "all" }, opts));
}
