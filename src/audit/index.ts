/**
 * The audit (docs/CONTRACT.md part 3 `audit`, part 5 `audit`): 2FA verification events and 10DLC brand
 * vettings, collected through the typed client, normalised, totalled exactly, and checked against
 * the file's thresholds. The CLI (`src/cli/audit.ts`) and the Pulumi data sources call these.
 */
import type { AuditConfig } from "../config/types";
import { AuditCollectionError, collectTenDlc, collectTwoFa } from "./collect";
import type { AuditClient, TenDlcSelection, TwoFaSelection } from "./collect";
import { computeAudit, computeTenDlc, computeTwoFa } from "./compute";
import type { AuditBrand, AuditReport, AuditTwoFa } from "./types";

export * from "./types";
export { computeAudit, computeTwoFa, computeTenDlc } from "./compute";
export type { ComputeAuditOptions } from "./compute";
export { AuditCollectionError, collectTwoFa, collectTenDlc } from "./collect";
export type { AuditClient, TwoFaSelection, TenDlcSelection, MissingItem, Collected } from "./collect";
export { parseTimestamp, normaliseTimestamp, formatUtc } from "./time";
export { renderJson } from "./render/json";
export { renderMarkdown } from "./render/md";
export { renderHtml, eventsPerDay, ratesPerService } from "./render/html";
export type { HtmlRenderOptions, DayBucket, ServiceRate } from "./render/html";
export { renderCsv, renderTwoFaEventsCsv, renderVettingsCsv, csvField } from "./render/csv";

/** Options of {@link audit}. */
export interface AuditOptions {
  /**
   * The report's `generated_at`.
   * @default new Date()
   */
  now?: Date;
}

/**
 * Collect and compute the whole report for the file's `audit` section. Both areas are collected
 * concurrently; sessions, services or brands that do not exist are all reported together in one
 * {@link AuditCollectionError}. An absent section (or area) gives an empty report part.
 */
export async function audit(
  client: AuditClient,
  config: AuditConfig | undefined,
  options: AuditOptions = {},
): Promise<AuditReport> {
  const [twoFa, tenDlc] = await Promise.all([
    collectTwoFa(client, config?.two_fa ?? {}),
    collectTenDlc(client, config?.ten_dlc ?? {}),
  ]);
  const missing = [...twoFa.missing, ...tenDlc.missing];
  if (missing.length > 0) throw new AuditCollectionError(missing);
  return computeAudit({ sessions: twoFa.items, brands: tenDlc.items, findings: [...twoFa.findings, ...tenDlc.findings] }, config, { now: options.now });
}

/** Normalised 2FA data for a data source: sessions with sorted events and exact totals. */
export type TwoFaEventsData = AuditTwoFa;

/** Normalised 10DLC data for a data source. */
export interface BrandVettingsData {
  brands: AuditBrand[];
}

/**
 * 2FA events of the listed sessions and of every session of the listed services in their windows
 * (deduplicated). Throws {@link AuditCollectionError} naming every unknown session or service.
 */
export async function getTwoFaEventsData(client: AuditClient, selection: TwoFaSelection): Promise<TwoFaEventsData> {
  const collected = await collectTwoFa(client, selection);
  if (collected.missing.length > 0) throw new AuditCollectionError(collected.missing);
  return computeTwoFa(collected.items).value;
}

/**
 * Vettings (reasons always an array, dates in UTC) with each brand's effective score and pending
 * flag, for the listed brands or `"all"`. Throws {@link AuditCollectionError} naming every unknown brand.
 */
export async function getBrandVettingsData(client: AuditClient, selection: TenDlcSelection): Promise<BrandVettingsData> {
  const collected = await collectTenDlc(client, selection);
  if (collected.missing.length > 0) throw new AuditCollectionError(collected.missing);
  return { brands: computeTenDlc(collected.items).value };
}
