/**
 * The computation of the data sources `getTwoFaEvents` and `getBrandVettings` (docs/CONTRACT.md part
 * 6), engine-agnostic: camelCase arguments in, camelCase results out, no Pulumi type. The dynamic
 * front end (src/pulumi/data-sources.ts) and a native provider plugin both call these, so every
 * face of the data sources computes the same thing as `wavix-sync audit`.
 */
import { parseDesiredState } from "../config/load";
import { AccountMismatchError } from "../kit/provider/account-pin";
import { AuditCollectionError, collectNamedSessions, collectTenDlc, listSessions, withEvents, type AuditClient } from "./collect";
import { computeTenDlc, computeTwoFa } from "./compute";
import type { AuditBrand, AuditSession, AuditVetting, CollectedSession, EventsByStatus, Finding } from "./types";
import { datesPeriod } from "./window";

/** A service and the days to read its sessions over. */
export interface TwoFaServiceWindowArgs {
  serviceId: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  from: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  to: string;
}

export interface GetTwoFaEventsArgs {
  /** Session UUIDs. @default [] */
  sessions?: string[];
  /** Every session of these services created in their windows. @default [] */
  services?: TwoFaServiceWindowArgs[];
}

export interface GetBrandVettingsArgs {
  /** Brand IDs, or `"all"` for every brand of the account. */
  brands: string[] | "all";
}

export interface TwoFaEventResult {
  /** ISO 8601 UTC (kept as sent when it cannot be read). */
  createdAt: string;
  event: string;
  status: string;
  /** Decimal text, as the API sent it. */
  charge: string;
  error: string | null;
}

export interface TwoFaSessionResult {
  sessionId: string;
  /** The service whose listing gave it; absent for a session named directly. */
  serviceId?: string;
  serviceName?: string;
  /**
   * The listing's status is `verified` (a session named directly: a successful `Verification`
   * event); null when neither can be read (a gap: see `complete`).
   */
  verified: boolean | null;
  /** The listing's charge, else the exact sum of its event charges; null when neither can be read (a gap). */
  chargeTotal: string | null;
  /** Where `verified` and `chargeTotal` come from: `listing`, `events` or `none`. */
  figuresFrom: "listing" | "events" | "none";
  /** `read`, or `not_found` (the API answered 404: the listing's figures stand in, a gap). */
  eventsRead: "read" | "not_requested" | "not_found";
  events: TwoFaEventResult[];
}

/** A finding of a data source: what the CLI's report would say about the same data. */
export interface DataSourceFinding {
  severity: "error" | "warning";
  code: string;
  subject: string;
  message: string;
  /** True when it is a data gap (the result is then not complete). */
  gap: boolean;
}

/** The result of `getTwoFaEvents`. */
export interface TwoFaEventsResult {
  /** False when some data could not be read: `gaps` names it, and the figures lack it. */
  complete: boolean;
  /** How many of `findings` are data gaps. */
  gapCount: number;
  /** What the audit would report about this data (gaps and warnings), never dropped. */
  findings: DataSourceFinding[];
  chargeTotal: string;
  eventsByStatus: EventsByStatus;
  verified: number;
  notVerified: number;
  /** Sessions of unknown outcome (gaps). */
  unknown: number;
  sessions: TwoFaSessionResult[];
}

export interface VettingResult {
  vettingId: string;
  evpId: string;
  createDate: string;
  vettedDate: string | null;
  vettingStatus: string;
  vettingClass: string;
  vettingScore: number | null;
  /** Always an array (the API sends a string or an array). */
  reasons: string[];
  vettingDetails?: Record<string, unknown>;
}

export interface BrandResult {
  brandId: string;
  vettings: VettingResult[];
  /** Score of the newest scored vetting; null when none has a score. */
  effectiveScore: number | null;
  pending: boolean;
  newestVettingAt: string | null;
  /** Whole days from `newestVettingAt` to the read. */
  vettingAgeDays: number | null;
  previousScore: number | null;
  scoreChange: number | null;
  scoreFell: boolean;
}

/** The result of `getBrandVettings`. */
export interface BrandVettingsResult {
  /** False when some brand could not be read (`brands: "all"`, a brand whose vettings answer 404). */
  complete: boolean;
  gapCount: number;
  /** What the audit would report (pending, score fell, newest failed, gaps). */
  findings: DataSourceFinding[];
  brands: BrandResult[];
}

/** Options of {@link readTwoFaEvents} and {@link readBrandVettings}. */
export interface DataSourceReadOptions {
  /**
   * The account the key must belong to (Pulumi: `wavix:accountId`), checked before anything else is
   * read. @default no check
   */
  accountId?: number;
  /** Where the pin comes from, for the message. @default "wavix:accountId" */
  accountSource?: string;
  /** "Now" of the vetting ages. @default new Date() */
  now?: Date;
}

/**
 * The arguments run through the desired-state file's own checks (dates YYYY-MM-DD, windows in order
 * and at most a year, ids) before any request. Throws one Error naming every problem by its
 * argument path (camelCase).
 */
function validate(fn: string, audit: Record<string, unknown>): void {
  const result = parseDesiredState(JSON.stringify({ version: 1, audit }), fn);
  const camel = (p: string): string => p.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  const lines = result.ok ? [] : result.problems.map((p) => `${camel(p.path.replace(/^audit\.[a-z_]+\.?/, ""))}: ${p.message}`);
  if (lines.length > 0) throw new Error(`${fn}: ${lines.length} invalid argument(s):\n${lines.join("\n")}`);
}

async function checkPin(client: AuditClient, options: DataSourceReadOptions): Promise<void> {
  if (options.accountId === undefined) return;
  const profile = await client.getAccountProfile();
  if (profile.id !== options.accountId) throw new AccountMismatchError(options.accountId, profile.id, options.accountSource ?? "wavix:accountId");
}

/**
 * 2FA events of the listed sessions and of every session of the listed services created in their
 * windows (deduplicated), with what the audit would say about them (`findings`) and whether the
 * data is `complete`: a session whose events answer 404 keeps the listing's status and charge and
 * is a gap, never a silent "not verified". Throws {@link AuditCollectionError} naming every unknown
 * session.
 */
export async function readTwoFaEvents(client: AuditClient, args: GetTwoFaEventsArgs, options: DataSourceReadOptions = {}): Promise<TwoFaEventsResult> {
  const services = args.services ?? [];
  // A data source has no run to give a window: each service needs its own.
  const missingWindow = services.flatMap((s, i) => [
    ...(s.from === undefined || s.from === null ? [`services[${i}].from: required (YYYY-MM-DD, the first day)`] : []),
    ...(s.to === undefined || s.to === null ? [`services[${i}].to: required (YYYY-MM-DD, the last day)`] : []),
  ]);
  if (missingWindow.length > 0) throw new Error(`getTwoFaEvents: ${missingWindow.length} invalid argument(s):\n${missingWindow.join("\n")}`);
  const sessions = args.sessions ?? [];
  validate("getTwoFaEvents", { two_fa: { sessions, services: services.map((s) => ({ service_id: s.serviceId, from: s.from, to: s.to })) } });
  await checkPin(client, options);

  const named = await collectNamedSessions(client, sessions);
  if (named.missing.length > 0) throw new AuditCollectionError(named.missing);
  const cached = new Map(named.items.map((s) => [s.session_id, s.events]));
  const seen = new Set<string>();
  const findings: Finding[] = [];
  const note = (f: Finding[]) => void findings.push(...f);
  const listings = services.map((s) => ({ serviceId: s.serviceId, period: datesPeriod(s.from, s.to, { from: "from", to: "to" }) }));
  const collected: CollectedSession[] = [];
  for await (const s of withEvents(client, listSessions(client, listings, seen, note), note, { cached })) collected.push(s);
  for (const s of named.items) if (!seen.has(s.session_id)) collected.push(s);
  const computed = computeTwoFa(collected);
  const data = computed.value;
  const all = findingResults([...findings, ...computed.findings]);
  return {
    complete: all.every((f) => !f.gap),
    gapCount: all.filter((f) => f.gap).length,
    findings: all,
    chargeTotal: data.charge_total,
    eventsByStatus: { ...data.events_by_status },
    verified: data.verified,
    notVerified: data.not_verified,
    unknown: data.unknown,
    sessions: data.sessions.map(sessionResult),
  };
}

/** Findings as a data source returns them: errors first, then by code and subject; `gap` always said. */
function findingResults(findings: readonly Finding[]): DataSourceFinding[] {
  const rank = (f: Finding) => (f.severity === "error" ? 0 : 1);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...findings]
    .sort((a, b) => rank(a) - rank(b) || cmp(a.code, b.code) || cmp(a.subject, b.subject))
    .map((f) => ({ severity: f.severity, code: f.code, subject: f.subject, message: f.message, gap: f.gap === true }));
}

/**
 * Vettings (reasons always an array, dates in UTC) with each brand's effective score, trend, age
 * and pending flag, for the listed brands or `"all"`. Throws {@link AuditCollectionError} naming
 * every unknown brand.
 */
export async function readBrandVettings(client: AuditClient, args: GetBrandVettingsArgs, options: DataSourceReadOptions = {}): Promise<BrandVettingsResult> {
  validate("getBrandVettings", { ten_dlc: { brands: args.brands } });
  await checkPin(client, options);
  const collected = await collectTenDlc(client, { brands: args.brands });
  if (collected.missing.length > 0) throw new AuditCollectionError(collected.missing);
  const computed = computeTenDlc(collected.items, undefined, options.now ?? new Date());
  const all = findingResults([...collected.findings, ...computed.findings]);
  return { complete: all.every((f) => !f.gap), gapCount: all.filter((f) => f.gap).length, findings: all, brands: computed.value.map(brandResult) };
}

function sessionResult(s: AuditSession): TwoFaSessionResult {
  return {
    sessionId: s.session_id,
    ...(s.service_id !== undefined ? { serviceId: s.service_id } : {}),
    ...(s.service_name !== undefined ? { serviceName: s.service_name } : {}),
    verified: s.verified,
    chargeTotal: s.charge_total,
    figuresFrom: s.figures_from,
    eventsRead: s.events_read,
    events: s.events.map((e) => ({ createdAt: e.created_at, event: e.event, status: e.status, charge: e.charge, error: e.error })),
  };
}

function vettingResult(v: AuditVetting): VettingResult {
  return {
    vettingId: v.vetting_id,
    evpId: v.evp_id,
    createDate: v.create_date,
    vettedDate: v.vetted_date,
    vettingStatus: v.vetting_status,
    vettingClass: v.vetting_class,
    vettingScore: v.vetting_score,
    reasons: [...v.reasons],
    ...(v.vetting_details !== undefined ? { vettingDetails: v.vetting_details } : {}),
  };
}

function brandResult(b: AuditBrand): BrandResult {
  return {
    brandId: b.brand_id,
    vettings: b.vettings.map(vettingResult),
    effectiveScore: b.effective_score,
    pending: b.pending,
    newestVettingAt: b.newest_vetting_at,
    vettingAgeDays: b.vetting_age_days,
    previousScore: b.previous_score,
    scoreChange: b.score_change,
    scoreFell: b.score_fell,
  };
}
