/**
 * Data sources for the audit data (docs/CONTRACT.md part 6): 2FA verification events and 10DLC brand
 * vettings. They run in the Pulumi program's own process (reads only, no provider), with the
 * credentials of stack config `wavix:apiKey` (secret) / `wavix:baseUrl`, else `WAVIX_API_KEY` /
 * `WAVIX_BASE_URL`. The data is what the audit module computes, so CLI and Pulumi agree.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../kit/pulumi/sdk";
import { WavixClient } from "../client";
import { getBrandVettingsData, getTwoFaEventsData, type AuditClient, type BrandVettingsData, type TwoFaEventsData } from "../audit";
import { parseDesiredState } from "../config";
import { MISSING_KEY_HINT } from "./provider-impl";
import { driftNotes } from "../kit/provider/session";

export type { BrandVettingsData, TwoFaEventsData } from "../audit";

/** Options shared by the data sources. */
export interface DataSourceOptions {
  /**
   * The client to read with (tests, or a program that builds its own).
   * @default a WavixClient from stack config `wavix:apiKey`/`wavix:baseUrl`, else the environment
   */
  client?: WavixClient;
}

export interface TwoFaServiceWindowArgs {
  serviceId: string;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
}

export interface GetTwoFaEventsArgs {
  /** Session UUIDs. @default [] */
  sessions?: string[];
  /** Every session of these services in their windows. @default [] */
  services?: TwoFaServiceWindowArgs[];
}

export interface GetTwoFaEventsOutputArgs {
  sessions?: pulumi.Input<pulumi.Input<string>[]>;
  services?: pulumi.Input<pulumi.Input<TwoFaServiceWindowArgs>[]>;
}

export interface GetBrandVettingsArgs {
  /** Brand IDs, or `"all"` for every brand of the account. */
  brands: string[] | "all";
}

export interface GetBrandVettingsOutputArgs {
  brands: pulumi.Input<pulumi.Input<string>[] | "all">;
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

/** Brands per page when listing them all: the API's maximum, so an account costs few pages. */
export const BRANDS_PER_PAGE = 100;

/** The client, listing brands {@link BRANDS_PER_PAGE} at a time (the audit walks pages without a size). */
function auditClient(client: WavixClient): AuditClient {
  return {
    listTwoFaEvents: (id) => client.listTwoFaEvents(id),
    listTwoFaSessions: (serviceId, from, to) => client.listTwoFaSessions(serviceId, from, to),
    listBrandVettings: (id) => client.listBrandVettings(id),
    iterateBrandPages: () => client.iterateBrandPages({ perPage: BRANDS_PER_PAGE }),
  };
}

/**
 * The arguments run through the desired-state file's own checks (docs/CONTRACT.md part 3: dates
 * YYYY-MM-DD, windows in order, session and brand ids), before any request. Throws one Error
 * naming every problem by its argument path (camelCase).
 */
function validateArgs(fn: string, audit: Record<string, unknown>, paths: (p: string) => string): void {
  const result = parseDesiredState(JSON.stringify({ version: 1, audit }), fn);
  if (result.ok) return;
  const lines = result.problems.map((p) => `${paths(p.path.replace(/^audit\.[a-z_]+\.?/, ""))}: ${p.message}`);
  throw new sdk.RunError(`${fn}: ${lines.length} invalid argument(s):\n${lines.join("\n")}`);
}

const camel = (p: string): string => p.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** 2FA events of the listed sessions and of every session of the listed services in their windows. */
export async function getTwoFaEvents(args: GetTwoFaEventsArgs, opts: DataSourceOptions = {}): Promise<TwoFaEventsData> {
  const selection = {
    sessions: args.sessions ?? [],
    services: (args.services ?? []).map((s) => ({ service_id: s.serviceId, from: s.from, to: s.to })),
  };
  validateArgs("getTwoFaEvents", { two_fa: selection }, camel);
  const client = opts.client ?? defaultClient();
  return getTwoFaEventsData(auditClient(client), selection);
}

/** {@link getTwoFaEvents} taking Inputs and giving an Output. */
export function getTwoFaEventsOutput(args: GetTwoFaEventsOutputArgs, opts: DataSourceOptions = {}): pulumi.Output<TwoFaEventsData> {
  return sdk.output(args).apply((a) => getTwoFaEvents({ sessions: a.sessions, services: a.services }, opts));
}

/** Vettings of the listed brands (or all), with each brand's effective score and pending flag. */
export async function getBrandVettings(args: GetBrandVettingsArgs, opts: DataSourceOptions = {}): Promise<BrandVettingsData> {
  validateArgs("getBrandVettings", { ten_dlc: { brands: args.brands } }, camel);
  const client = opts.client ?? defaultClient();
  return getBrandVettingsData(auditClient(client), { brands: args.brands });
}

/** {@link getBrandVettings} taking Inputs and giving an Output. */
export function getBrandVettingsOutput(args: GetBrandVettingsOutputArgs, opts: DataSourceOptions = {}): pulumi.Output<BrandVettingsData> {
  return sdk.output(args).apply((a) => getBrandVettings({ brands: a.brands as string[] | "all" }, opts));
}
