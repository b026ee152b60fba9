/**
 * The audit's rules, as pure computation over collected data (docs/AUDIT.md): no I/O, no clock (the
 * caller passes `now`). {@link AuditBuilder} takes sessions one at a time, so a collection of any
 * size keeps only figures in memory (per service, per day, in total); {@link computeAudit} is the
 * same builder over data held in memory. Rendering is elsewhere (`render/`).
 */
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import Decimal from "decimal.js";
import { normaliseReasons } from "../client/client";
import type { BrandVetting, TwoFaEvent } from "../client/types";
import type { AuditConfig } from "../config/types";
import { addDecimal, DecimalSum } from "../util/decimal";
import { formatUtc, normaliseTimestamp, parseTimestamp } from "./time";
import type {
  AuditAsked,
  AuditRunner,
  AuditSource,
  AuditBrand,
  AuditReport,
  AuditReportHead,
  AuditSession,
  AuditTwoFaEvent,
  AuditVetting,
  CollectedAuditData,
  CollectedBrand,
  CollectedSession,
  DailyFigures,
  EventsByStatus,
  Finding,
  FiguresChange,
  ServiceFigures,
  SessionFigures,
  TwoFaSessionsData,
} from "./types";
import { daysOf, DAY_MS, listingDays, previousPeriod, requireServicePeriods, spanOf, utcDay, type Period, type RunWindow } from "./window";

/** Decimal places of a failure ratio (`"0.250000"`): one session in a million still shows. */
export const RATIO_PLACES = 6;

/** Money is decimal text (docs/CONTRACT.md part 2: `"0.0050"`, never a float); what the sums accept. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Enough digits that a ratio of two session counts is exact to {@link RATIO_PLACES} places. */
const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/** This package's name and version, as the report states them. */
export function toolInfo(): { name: string; version: string } {
  // Two folders up from src/audit/ and from dist/audit/ alike.
  const pkg = require("../../package.json") as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** Result of normalising one piece of wire data: the value plus the findings it raised. */
interface Normalised<T> {
  value: T;
  findings: Finding[];
}

// ---------------------------------------------------------------------------------------------
// Exact figures

/** `a − b` as decimal text at the larger scale; never "-0". */
export function subtractDecimal(a: string, b: string): string {
  const negated = b.startsWith("-") ? b.slice(1) : b.startsWith("+") ? `-${b.slice(1)}` : `-${b}`;
  const d = addDecimal(a, negated);
  return /^-0(\.0*)?$/.test(d) ? d.slice(1) : d;
}

/** `part / whole` rounded half-up to {@link RATIO_PLACES} places; null for an empty whole. */
export function ratioText(part: number, whole: number): string | null {
  return whole === 0 ? null : new Exact(part).div(whole).toFixed(RATIO_PLACES, Decimal.ROUND_HALF_UP);
}

/** An exact running sum of decimal texts, at the largest scale among them ("0" for none). */
class MoneySum {
  private readonly sum = new DecimalSum();
  add(value: string): void {
    this.sum.add(value);
  }
  toString(): string {
    return this.sum.toString();
  }
}

const noEvents = (): EventsByStatus => ({ success: 0, failed: 0, pending: 0 });

/** Sessions, verified sessions, charges and events by status of a set of sessions, added one by one. */
class Tally {
  sessions = 0;
  verified = 0;
  /** Sessions whose outcome could not be read (`verified: null`): in no ratio. */
  unknown = 0;
  readonly charge = new MoneySum();
  readonly byStatus = noEvents();

  add(s: AuditSession): void {
    this.sessions += 1;
    if (s.verified === true) this.verified += 1;
    else if (s.verified === null) this.unknown += 1;
    if (s.charge_total !== null) this.charge.add(s.charge_total);
    for (const e of s.events) if (e.status === "success" || e.status === "failed" || e.status === "pending") this.byStatus[e.status] += 1;
  }

  figures(): SessionFigures {
    const notVerified = this.sessions - this.verified - this.unknown;
    return {
      sessions: this.sessions,
      verified: this.verified,
      not_verified: notVerified,
      unknown: this.unknown,
      failure_ratio: ratioText(notVerified, this.sessions - this.unknown),
      charge_total: this.charge.toString(),
    };
  }

  /** Sessions verified, not verified and of unknown outcome (what a data source states). */
  figuresOfOutcome(): { verified: number; not_verified: number; unknown: number } {
    return { verified: this.verified, not_verified: this.sessions - this.verified - this.unknown, unknown: this.unknown };
  }
}

/** The change from `before` to `now`, each the exact difference of the figures as shown. */
export function changeOf(now: SessionFigures, before: SessionFigures): FiguresChange {
  return {
    sessions: now.sessions - before.sessions,
    failure_ratio: now.failure_ratio === null || before.failure_ratio === null ? null : subtractDecimal(now.failure_ratio, before.failure_ratio),
    charge_total: subtractDecimal(now.charge_total, before.charge_total),
  };
}

/** Sessions of known outcome: those the ratio is over. */
const known = (f: SessionFigures): number => f.sessions - f.unknown;

/** Sessions not verified strictly above `ratio` of the sessions of known outcome, compared exactly (0.1 × 3 is 0.3). */
/** True when the listing's `created_at` reads as a time. */
function listedTime(raw: CollectedSession): boolean {
  return raw.created_at !== undefined && raw.created_at !== null && parseTimestamp(String(raw.created_at)) !== null;
}

function exceeds(f: SessionFigures, ratio: number | null): boolean {
  return ratio !== null && known(f) > 0 && new Exact(f.not_verified).gt(new Exact(ratio).times(known(f)));
}

function percent(part: number, whole: number): string {
  return new Exact(part).times(100).div(whole).toDecimalPlaces(1).toFixed(1);
}

// ---------------------------------------------------------------------------------------------
// The builder

/** What a report is about besides its data: who, when, which period. */
export interface AuditContext {
  /** The report's `generated_at` (and the age of vettings). */
  now: Date;
  /** The account behind the key (`GET /v1/profile`). */
  accountId: number;
  /** The file's audit section. */
  config: AuditConfig | undefined;
  /** The run's window, overriding each service's own. @default each service's `from`/`to` */
  window?: RunWindow;
  /** @default this package's (package.json) */
  tool?: { name: string; version: string };
  /** Whether the sessions' events are read (`--events`). @default false */
  events?: boolean;
  /** Where the data comes from (API root, key fingerprint, request counts). @default unknown */
  source?: AuditSource;
  /** Who made the report. @default {@link runnerInfo} of the environment */
  runner?: AuditRunner;
}

/** The report format's version: raised when a field changes meaning or goes (schemas/audit-report.schema.json). */
export const REPORT_FORMAT_VERSION = 2;

/** The report's methodology, in sentences (docs/AUDIT.md, "What the report proves"). */
export function methodology(events: boolean): string[] {
  return [
    "A period is a half-open span of UTC time: from included, to excluded.",
    "Each service's sessions listing is asked for the UTC days its period touches with one more day on each side (the API does not say in which time zone its days are); a session counts in the period its created_at falls in.",
    "A session is verified when the sessions listing gives it the status verified (failed, pending, expired and canceled are not verified); when the listing gives no known status, its events decide (a successful Verification event).",
    "A session's charge is the listing's charge; when the listing gives none that is decimal text, the exact sum of its event charges.",
    "A session whose outcome or charge cannot be read is a data gap: counted in unknown (in no failure ratio, never as a failed verification) or left out of the charges, and the report is not complete.",
    `Failure ratio: sessions not verified / sessions of known outcome, rounded half-up to ${RATIO_PLACES} places; thresholds are compared with the exact ratio.`,
    "Money is decimal text summed exactly at the largest scale among its inputs, never a float.",
    "Each service is compared with its own previous period: the span of the same length right before its period.",
    events
      ? "Every session's events were read (--events); where they disagree with the listing, the listing's figures stand and a warning says so."
      : "Events were not read (the listing gives each session's status and charge); --events reads them for the per-event tables.",
    "A 10DLC brand's effective score is its newest scored vetting's (by vetted_date, else create_date; equal times ordered by vetting_id).",
  ];
}

/** Who runs the report: the CI job when a CI's variables say so, else the host. */
export function runnerInfo(env: NodeJS.ProcessEnv = process.env, host: string = hostname()): AuditRunner {
  const pick = (names: readonly string[]): Record<string, string> =>
    Object.fromEntries(names.filter((n) => typeof env[n] === "string" && env[n] !== "").map((n) => [n, env[n] as string]));
  if (env.GITHUB_ACTIONS === "true") {
    return { kind: "github", host, ci: pick(["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_WORKFLOW", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "GITHUB_JOB", "GITHUB_SHA", "GITHUB_REF", "GITHUB_ACTOR"]) };
  }
  if (env.GITLAB_CI === "true") {
    return { kind: "gitlab", host, ci: pick(["CI_SERVER_URL", "CI_PROJECT_PATH", "CI_PIPELINE_ID", "CI_JOB_ID", "CI_JOB_NAME", "CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "GITLAB_USER_LOGIN"]) };
  }
  if (env.CI !== undefined && env.CI !== "" && env.CI !== "false") return { kind: "ci", host, ci: pick(["CI", "BUILD_ID", "BUILD_URL", "JOB_NAME", "BUILD_NUMBER"]) };
  return { kind: "local", host };
}

/** `sha256:` and 16 hex digits of the key's SHA-256: tells keys apart, never shows one. */
export function keyFingerprint(apiKey: string): string {
  return `sha256:${createHash("sha256").update(apiKey, "utf8").digest("hex").slice(0, 16)}`;
}

interface ServiceState {
  id: string;
  name?: string;
  period: Period;
  threshold: number | null;
  thresholdSource: "service" | "two_fa" | null;
  current: Tally;
  previous: Tally;
}

/**
 * The report, built one session at a time. Sessions of services (with `service_id`) count in their
 * service's period figures and the daily series; sessions without one are the file's named sessions.
 */
export class AuditBuilder {
  private readonly services = new Map<string, ServiceState>();
  private readonly named = new Tally();
  private namedSeen = false;
  /** Every session in the report (services' and named ones). */
  private readonly all = new Tally();
  private readonly days = new Map<string, Tally>();
  private readonly findings: Finding[] = [];
  /**
   * The time of each service session of the current pass that only its events placed (the listing
   * gave no readable `created_at`). The previous period's listing asks one more day on each side,
   * so it lists the current period's first day again (and the current listing the previous
   * period's last day), without events: a session placed here is placed there too, not a gap.
   */
  private readonly placedByEvents = new Map<string, number>();
  private brands: AuditBrand[] = [];
  private source: AuditSource | undefined;
  /** The report's `period`: the span of the services' periods, else the run's window; undefined without either. */
  readonly span: Period | undefined;
  /** The previous period every service shares; undefined when their periods differ (each has its own). */
  private readonly sharedPrevious: Period | undefined;
  readonly generatedAt: string;

  constructor(private readonly ctx: AuditContext) {
    const twoFa = ctx.config?.two_fa;
    const periods = requireServicePeriods(twoFa?.services ?? [], ctx.window);
    const fallback = twoFa?.max_failure_ratio ?? null;
    for (const { service, period } of periods) {
      const own = service.max_failure_ratio;
      this.services.set(service.service_id, {
        id: service.service_id,
        period,
        threshold: own ?? fallback,
        thresholdSource: own !== undefined ? "service" : fallback !== null ? "two_fa" : null,
        current: new Tally(),
        previous: new Tally(),
      });
    }
    // The services' periods; without a service, the run's window still states the period (the
    // daily series stays empty: it counts services' sessions).
    const services = spanOf(periods.map((p) => p.period));
    this.span = services ?? ctx.window?.period;
    // Each service is compared with its own previous period (issue #35, item 3): one previous
    // period for the report only when every service has the same period.
    const same = periods.every((p) => p.period.from === periods[0].period.from && p.period.to === periods[0].period.to);
    this.sharedPrevious = this.span && same ? previousPeriod(this.span) : undefined;
    if (services) for (const day of daysOf(services)) this.days.set(day, new Tally());
    // Whole seconds, as the contract shows it ("2026-11-22T10:00:00Z").
    this.generatedAt = formatUtc(Math.floor(ctx.now.getTime() / 1000) * 1000);
  }

  /** The period of a service of the file (undefined for one the file does not list). */
  periodOf(serviceId: string): Period | undefined {
    return this.services.get(serviceId)?.period;
  }

  /**
   * A session of the current period: a service's (with `service_id`) or a named one (without).
   * Returns it normalised, or undefined when its time puts it outside its service's period or
   * cannot be read (a `session_time_unknown` gap).
   */
  addSession(raw: CollectedSession): AuditSession | undefined {
    const n = normaliseSession(raw);
    const service = raw.service_id !== undefined ? this.services.get(raw.service_id) : undefined;
    let day: string | undefined;
    if (service) {
      const time = this.sessionTime(raw, n.value.firstEventTime, "");
      if (time === null) return undefined;
      if (n.value.firstEventTime === time && !listedTime(raw)) this.placedByEvents.set(raw.session_id, time);
      if (time < service.period.from || time >= service.period.to) return undefined;
      day = utcDay(time);
      if (service.name === undefined && raw.service_name !== undefined) service.name = raw.service_name;
    }
    if (n.findings.length > 0) this.findings.push(...n.findings);
    const session = n.value.session;
    if (service) {
      service.current.add(session);
      if (day !== undefined) this.days.get(day)?.add(session);
    } else {
      this.namedSeen = true;
      this.named.add(session);
    }
    this.all.add(session);
    this.countUnknownStatuses(session, "");
    return session;
  }

  /** A service's session of its previous period: counted in `previous`, not kept. */
  addPreviousSession(raw: CollectedSession): void {
    const service = raw.service_id !== undefined ? this.services.get(raw.service_id) : undefined;
    if (!service) return;
    const n = normaliseSession(raw, "previous period: ");
    const prev = previousPeriod(service.period);
    const time = this.sessionTime(raw, n.value.firstEventTime ?? this.placedByEvents.get(raw.session_id) ?? null, "previous period: ");
    if (time === null || time < prev.from || time >= prev.to) return;
    if (n.findings.length > 0) this.findings.push(...n.findings);
    service.previous.add(n.value.session);
    this.countUnknownStatuses(n.value.session, "previous period: ");
  }

  /** Findings raised while collecting. */
  addFindings(findings: readonly Finding[]): void {
    this.findings.push(...findings);
  }

  setBrands(brands: readonly CollectedBrand[]): void {
    const t = this.ctx.config?.ten_dlc;
    const r = computeTenDlc(brands, t?.min_vetting_score, this.ctx.now, t?.max_vetting_age_days);
    this.brands = r.value;
    this.findings.push(...r.findings);
  }

  /** Where the data came from and what it cost (known once the collection is done). */
  setSource(source: AuditSource): void {
    this.source = source;
  }

  /** What of the head is settled from the start: the account, the period, `generated_at`, the tool. */
  fixed(): Pick<AuditReportHead, "account" | "period" | "generated_at" | "tool"> {
    return { account: { id: this.ctx.accountId }, period: this.span ? reportPeriod(this.span) : null, generated_at: this.generatedAt, tool: this.ctx.tool ?? toolInfo() };
  }

  /** The report without its sessions. */
  head(): AuditReportHead {
    const cfg = this.ctx.config;
    const findings = [...this.findings];
    const services: ServiceFigures[] = [];
    const current = new Tally();
    const previous = new Tally();
    for (const s of this.services.values()) {
      const cur = s.current.figures();
      const prev = s.previous.figures();
      const exceeded = exceeds(cur, s.threshold);
      const label = s.name !== undefined ? `2FA service ${s.name} (${s.id})` : `2FA service ${s.id}`;
      const when = describePeriod(s.period);
      if (exceeded) {
        findings.push({
          severity: "error",
          code: "two_fa_failure_ratio_exceeded",
          subject: s.id,
          message: `${label}: ${cur.not_verified} of ${known(cur)} sessions not verified (${percent(cur.not_verified, known(cur))}%)${cur.unknown > 0 ? ` (${cur.unknown} more of unknown outcome)` : ""} in ${when}, above max_failure_ratio ${s.threshold}${s.thresholdSource === "two_fa" ? " (audit.two_fa.max_failure_ratio)" : ""}`,
        });
      }
      if (cur.sessions === 0) {
        findings.push({
          severity: "warning",
          code: "two_fa_no_sessions",
          subject: s.id,
          message: `${label}: no sessions in ${when}${prev.sessions === 0 ? ", nor in the previous period" : ""}; the API answers the same for an unknown service_id, so check it if sessions were expected`,
        });
      }
      const prevPeriod = previousPeriod(s.period);
      services.push({
        service_id: s.id,
        ...(s.name !== undefined ? { service_name: s.name } : {}),
        period: reportPeriod(s.period),
        previous_period: reportPeriod(prevPeriod),
        listed_days: { current: listingDays(s.period), previous: listingDays(prevPeriod) },
        max_failure_ratio: s.threshold,
        max_failure_ratio_source: s.thresholdSource,
        current: cur,
        previous: prev,
        change: changeOf(cur, prev),
        exceeded,
      });
      mergeTally(current, s.current);
      mergeTally(previous, s.previous);
    }

    let named: AuditReportHead["two_fa"]["named_sessions"];
    if (this.namedSeen || (cfg?.two_fa?.sessions.length ?? 0) > 0) {
      const threshold = cfg?.two_fa?.max_failure_ratio ?? null;
      const figures = this.named.figures();
      const exceeded = exceeds(figures, threshold);
      if (exceeded) {
        findings.push({
          severity: "error",
          code: "two_fa_failure_ratio_exceeded",
          subject: "audit.two_fa.sessions",
          message: `sessions named in the file: ${figures.not_verified} of ${known(figures)} not verified (${percent(figures.not_verified, known(figures))}%), above max_failure_ratio ${threshold}`,
        });
      }
      named = { max_failure_ratio: threshold, current: figures, exceeded };
    }

    if (this.span && this.span.to > this.ctx.now.getTime()) {
      findings.push({
        severity: "warning",
        code: "period_incomplete",
        subject: "period",
        message: `the period ends at ${formatUtc(this.span.to)}, after this report was made (${this.generatedAt}): sessions may still come`,
        gap: true,
      });
    }

    const daily: DailyFigures[] = [...this.days.entries()].map(([date, t]) => ({ date, ...t.figures(), events_by_status: { ...t.byStatus } }));
    const cur = current.figures();
    const prev = previous.figures();
    const sorted = sortFindings(findings);
    const gaps = sorted.filter((f) => f.gap).map((f) => ({ code: f.code, subject: f.subject, message: f.message }));
    const byCode: Record<string, number> = {};
    for (const g of gaps) byCode[g.code] = (byCode[g.code] ?? 0) + 1;
    // In the report's key order; what `fixed` gives, as it gave it to the sessions' tables.
    const fixed = this.fixed();
    return {
      format_version: REPORT_FORMAT_VERSION,
      complete: gaps.length === 0,
      gaps: { count: gaps.length, by_code: byCode, items: gaps },
      generated_at: fixed.generated_at,
      tool: fixed.tool,
      source: this.source ?? this.ctx.source ?? { api_root: "unknown", key_fingerprint: null, requests: null },
      runner: this.ctx.runner ?? runnerInfo(),
      account: fixed.account,
      period: fixed.period,
      previous_period: this.sharedPrevious ? reportPeriod(this.sharedPrevious) : null,
      asked: askedOf(cfg, this.ctx.window, this.ctx.events ?? false),
      methodology: methodology(this.ctx.events ?? false),
      two_fa: {
        charge_total: this.all.charge.toString(),
        events_by_status: { ...this.all.byStatus },
        current: cur,
        previous: prev,
        change: changeOf(cur, prev),
        daily,
        services,
        ...(named ? { named_sessions: named } : {}),
      },
      ten_dlc: { brands: this.brands },
      findings: sorted,
    };
  }

  /**
   * The session's time: the listing's `created_at`, else its first event's; null when neither reads
   * (a `session_time_unknown` gap: the listing is asked for edge days, so the day it was listed
   * for does not place it).
   */
  private sessionTime(raw: CollectedSession, firstEventTime: number | null, prefix: string): number | null {
    const text = raw.created_at !== undefined && raw.created_at !== null ? String(raw.created_at) : undefined;
    const t = text !== undefined ? parseTimestamp(text) : null;
    if (t !== null) return t;
    if (firstEventTime !== null) {
      if (text !== undefined) {
        this.findings.push({
          severity: "warning",
          code: "invalid_timestamp",
          subject: raw.session_id,
          message: `${prefix}2FA session ${raw.session_id}: created_at ${JSON.stringify(raw.created_at)} cannot be read; placed by its first event`,
        });
      }
      return firstEventTime;
    }
    this.findings.push({
      severity: "warning",
      code: "session_time_unknown",
      subject: raw.session_id,
      message: `${prefix}2FA session ${raw.session_id}${raw.service_id !== undefined ? ` (service ${raw.service_id})` : ""}: created_at ${text === undefined ? "missing" : JSON.stringify(raw.created_at)} and no event time: it cannot be placed in or out of the period, so it is not counted`,
      gap: true,
    });
    return null;
  }

  private countUnknownStatuses(session: AuditSession, prefix: string): void {
    if (session.events.length > 0) this.findings.push(...unknownStatusFindings(session, prefix));
  }
}

function mergeTally(into: Tally, from: Tally): void {
  into.sessions += from.sessions;
  into.verified += from.verified;
  into.unknown += from.unknown;
  into.charge.add(from.charge.toString());
  for (const k of ["success", "failed", "pending"] as const) into.byStatus[k] += from.byStatus[k];
}

/** A period as the report writes it. */
export function reportPeriod(p: Period): { from: string; to: string } {
  return { from: formatUtc(p.from), to: formatUtc(p.to) };
}

/** `2026-11-01 – 2026-11-21` for whole days, else both instants (the end excluded). */
export function describePeriod(p: Period): string {
  if (p.from % DAY_MS === 0 && p.to % DAY_MS === 0) {
    const first = utcDay(p.from);
    const last = utcDay(p.to - DAY_MS);
    return first === last ? `${first} (UTC)` : `${first} – ${last} (UTC)`;
  }
  return `${formatUtc(p.from)} – ${formatUtc(p.to)} (end excluded)`;
}

function askedOf(cfg: AuditConfig | undefined, window: RunWindow | undefined, events: boolean): AuditAsked {
  const services = cfg?.two_fa?.services ?? [];
  return {
    window: services.length === 0 ? (window ? window.label : null) : window ? window.label : "file",
    two_fa: {
      sessions: [...(cfg?.two_fa?.sessions ?? [])],
      services: services.map((s) => ({
        service_id: s.service_id,
        ...(s.from !== undefined ? { from: s.from } : {}),
        ...(s.to !== undefined ? { to: s.to } : {}),
        ...(s.max_failure_ratio !== undefined ? { max_failure_ratio: s.max_failure_ratio } : {}),
      })),
      max_failure_ratio: cfg?.two_fa?.max_failure_ratio ?? null,
    },
    ten_dlc: {
      brands: cfg?.ten_dlc ? (cfg.ten_dlc.brands === "all" ? "all" : [...cfg.ten_dlc.brands]) : [],
      min_vetting_score: cfg?.ten_dlc?.min_vetting_score ?? null,
      max_vetting_age_days: cfg?.ten_dlc?.max_vetting_age_days ?? null,
    },
    events,
  };
}

/** Options of {@link computeAudit}. */
export interface ComputeAuditOptions {
  /** The report's `generated_at`. Injected so reports are reproducible in tests. @default new Date() */
  now?: Date;
  /** The account the data is of (`GET /v1/profile` `id`). */
  accountId: number;
  /** The run's window. @default each service's own from/to */
  window?: RunWindow;
  /** @default this package's name and version */
  tool?: { name: string; version: string };
  /** Whether events were read. @default false */
  events?: boolean;
  /** @default unknown */
  source?: AuditSource;
  /** @default {@link runnerInfo} */
  runner?: AuditRunner;
}

/** The whole report from data held in memory (the builder, fed in order). */
export function computeAudit(data: CollectedAuditData, config: AuditConfig | undefined, options: ComputeAuditOptions): AuditReport {
  const b = new AuditBuilder({ now: options.now ?? new Date(), accountId: options.accountId, config, window: options.window, tool: options.tool, events: options.events, source: options.source, runner: options.runner });
  b.addFindings(data.findings ?? []);
  const sessions: AuditSession[] = [];
  for (const s of data.sessions) {
    const kept = b.addSession(s);
    if (kept) sessions.push(kept);
  }
  for (const s of data.previous ?? []) b.addPreviousSession(s);
  b.setBrands(data.brands);
  const head = b.head();
  return { ...head, two_fa: { ...head.two_fa, sessions } };
}

// ---------------------------------------------------------------------------------------------
// 2FA sessions

/** Sessions normalised and totalled, without periods (what the 2FA data source returns). */
export function computeTwoFa(sessions: readonly CollectedSession[]): Normalised<TwoFaSessionsData> {
  const findings: Finding[] = [];
  const tally = new Tally();
  const out: AuditSession[] = [];
  for (const s of sessions) {
    const n = normaliseSession(s);
    findings.push(...n.findings, ...unknownStatusFindings(n.value.session));
    out.push(n.value.session);
    tally.add(n.value.session);
  }
  return {
    value: { charge_total: tally.charge.toString(), events_by_status: { ...tally.byStatus }, sessions: out, ...tally.figuresOfOutcome() },
    findings,
  };
}

/** Session statuses of the sessions listing that say the session was verified. */
const VERIFIED_STATUSES = new Set(["verified", "approved"]);
/** Statuses that say it was not (the official document shows `verified` and `pending`; these are the API's other outcomes). */
const NOT_VERIFIED_STATUSES = new Set(["pending", "failed", "expired", "canceled", "cancelled", "rejected"]);

/** `unknown_event_status` gaps of a session's events. */
function unknownStatusFindings(session: AuditSession, prefix = ""): Finding[] {
  if (session.events.length === 0) return [];
  const unknown = new Map<string, number>();
  for (const e of session.events) {
    if (e.status !== "success" && e.status !== "failed" && e.status !== "pending") unknown.set(e.status, (unknown.get(e.status) ?? 0) + 1);
  }
  return [...unknown].map(([status, n]) => ({
    severity: "warning" as const,
    code: "unknown_event_status" as const,
    subject: session.session_id,
    message: `${prefix}2FA session ${session.session_id}: ${n} event(s) with status ${JSON.stringify(status)}, not success, failed or pending; kept in the session, counted in no status total`,
    gap: true as const,
  }));
}

/**
 * One session's figures (docs/AUDIT.md, "What the report proves"): the listing's status and charge
 * when it gives them (a known status, decimal text), else its events' when they were read, else a
 * gap (`verified: null`, `charge_total: null`). Events read besides the listing are detail: where
 * they disagree, the listing stands and a `session_events_disagree` warning says so.
 */
function normaliseSession(s: CollectedSession, prefix = ""): Normalised<{ session: AuditSession; firstEventTime: number | null }> {
  const findings: Finding[] = [];
  const eventCharges: string[] = [];
  let eventChargesOk = true;
  // Without events (the headline figures' case: every session of a run without --events) there is
  // nothing to read, sort or sum: no arrays built for each of 20,000 sessions.
  const keyed = s.events === undefined || s.events.length === 0 ? [] : s.events.map((raw) => {
    const { event, time } = normaliseEvent(raw);
    if (time === null) {
      findings.push({
        severity: "warning",
        code: "invalid_timestamp",
        subject: s.session_id,
        message: `${prefix}2FA session ${s.session_id}: event time ${JSON.stringify(raw.created_at)} cannot be read; kept as sent`,
      });
    }
    if (DECIMAL_TEXT.test(event.charge)) {
      eventCharges.push(event.charge);
    } else {
      eventChargesOk = false;
      findings.push({
        severity: "warning",
        code: "invalid_charge",
        subject: s.session_id,
        message: `${prefix}2FA session ${s.session_id}: event charge ${JSON.stringify(raw.charge)} is not decimal text; left out of the event sums`,
        gap: true,
      });
    }
    return { event, time };
  });
  // Sort by time; Array.prototype.sort is stable, so equal times keep the API's order. Unreadable
  // times go last rather than guessing where they belong.
  if (keyed.length > 1) keyed.sort((a, b) => compareTimes(a.time, b.time));
  const events = keyed.length === 0 ? [] : keyed.map((k) => k.event);
  const eventsRead = s.events !== undefined;
  const eventsVerified = events.length > 0 && events.some((e) => e.event.trim().toLowerCase() === "verification" && e.status === "success");
  const eventsCharge = eventCharges.length === 0 ? "0" : eventCharges.reduce((a, c) => addDecimal(a, c));

  const listed = s.service_id !== undefined;
  const status = typeof s.status === "string" ? s.status.trim().toLowerCase() : undefined;
  const statusKnown = status !== undefined && (VERIFIED_STATUSES.has(status) || NOT_VERIFIED_STATUSES.has(status));
  const listingCharge = typeof s.charge === "number" ? String(s.charge) : typeof s.charge === "string" ? s.charge.trim() : undefined;
  const chargeOk = listingCharge !== undefined && DECIMAL_TEXT.test(listingCharge);
  // Only a finding needs it: not built for every session.
  const label = (): string => `${prefix}2FA session ${s.session_id}${listed ? ` (service ${s.service_id})` : ""}`;

  let verified: boolean | null;
  let fromListing = true;
  if (statusKnown) verified = VERIFIED_STATUSES.has(status!);
  else if (eventsRead) {
    verified = eventsVerified;
    fromListing = false;
  } else {
    verified = null;
    fromListing = false;
  }
  let charge: string | null;
  let chargeFromListing = true;
  if (chargeOk) charge = listingCharge!;
  else if (eventsRead && eventChargesOk) {
    charge = eventsCharge;
    chargeFromListing = false;
  } else {
    charge = null;
    chargeFromListing = false;
  }
  if (listed && verified === null) {
    findings.push({
      severity: "warning",
      code: "session_status_unknown",
      subject: s.session_id,
      message: `${label()}: the listing gives ${status === undefined ? "no status" : `status ${JSON.stringify(s.status)}, not one the audit knows`} and no events were read; counted as of unknown outcome, not as a failed verification`,
      gap: true,
    });
  }
  if (listed && charge === null && !(eventsRead && !eventChargesOk)) {
    findings.push({
      severity: "warning",
      code: "invalid_charge",
      subject: s.session_id,
      message: `${label()}: the listing's charge ${JSON.stringify(s.charge ?? null)} is not decimal text and no events were read; left out of the charges`,
      gap: true,
    });
  }
  if (eventsRead && listed) {
    const verifiedDisagrees = statusKnown && VERIFIED_STATUSES.has(status!) !== eventsVerified;
    const chargeDisagrees = chargeOk && eventChargesOk && !new Decimal(listingCharge!).eq(new Decimal(eventsCharge));
    if (verifiedDisagrees || chargeDisagrees) {
      findings.push({
        severity: "warning",
        code: "session_events_disagree",
        subject: s.session_id,
        message: `${label()}: its events say ${[
          verifiedDisagrees ? `${eventsVerified ? "verified" : "not verified"} (the listing: ${JSON.stringify(s.status)})` : "",
          chargeDisagrees ? `charges ${eventsCharge} (the listing: ${listingCharge})` : "",
        ]
          .filter(Boolean)
          .join(" and ")}; the listing's figures stand`,
      });
    }
  }
  const createdAt = s.created_at !== undefined ? normaliseTimestamp(String(s.created_at)) : null;
  // Assigned one by one in the report's key order rather than spread: this runs for every session.
  const session = { session_id: s.session_id } as AuditSession;
  if (s.service_id !== undefined) session.service_id = s.service_id;
  if (s.service_name !== undefined) session.service_name = s.service_name;
  if (createdAt !== null) session.created_at = createdAt;
  session.verified = verified;
  session.charge_total = charge;
  session.figures_from = verified === null || charge === null ? "none" : fromListing && chargeFromListing ? "listing" : "events";
  session.events_read = eventsRead ? "read" : s.events_not_found ? "not_found" : "not_requested";
  session.events = events;
  return { value: { session, firstEventTime: keyed.length === 0 ? null : keyed[0].time }, findings };
}

/** One event with `created_at` in ISO 8601 UTC (kept as sent when unreadable). */
export function normaliseEvent(raw: TwoFaEvent): { event: AuditTwoFaEvent; time: number | null } {
  const createdAt = String(raw.created_at ?? "");
  const time = parseTimestamp(createdAt);
  return {
    event: {
      created_at: time === null ? createdAt : formatUtc(time),
      event: String(raw.event ?? ""),
      status: String(raw.status ?? "").trim().toLowerCase(),
      charge: typeof raw.charge === "number" ? String(raw.charge) : String(raw.charge ?? "").trim(),
      error: raw.error === null || raw.error === undefined || raw.error === "" ? null : String(raw.error),
    },
    time,
  };
}

// ---------------------------------------------------------------------------------------------
// 10DLC

/**
 * Normalise brands and derive `effective_score` (the newest scored vetting's), the score before it,
 * the newest vetting's age at `now`, and `pending`.
 *
 * With `minVettingScore` set, a brand without any scored vetting is an error
 * (`vetting_score_missing`): a gate on a minimum score cannot pass on no score. The exception is a
 * brand whose vetting is still PENDING: the `vetting_pending` warning already says the score is
 * awaited, and failing a pipeline for a vetting in progress would block every new brand.
 */
export function computeTenDlc(brands: readonly CollectedBrand[], minVettingScore?: number, now: Date = new Date(), maxVettingAgeDays?: number): Normalised<AuditBrand[]> {
  const findings: Finding[] = [];
  const out: AuditBrand[] = [];
  for (const b of brands) {
    const keyed = b.vettings.map((raw) => {
      const n = normaliseVetting(raw);
      if (n.createTime === null) {
        findings.push({
          severity: "warning",
          code: "invalid_timestamp",
          subject: b.brand_id,
          message: `brand ${b.brand_id}: vetting ${n.value.vetting_id} create_date ${JSON.stringify(raw.create_date)} cannot be read; kept as sent`,
        });
      }
      return n;
    });
    // Equal times are ordered by vetting_id (code points), never by the API's order, so the same
    // vettings always give the same effective score and trend (docs/AUDIT.md).
    const byId = (x: (typeof keyed)[number], y: (typeof keyed)[number]) => compareText(x.value.vetting_id, y.value.vetting_id);
    const byCreate = [...keyed].sort((x, y) => compareTimes(x.createTime, y.createTime) || byId(x, y));
    const vettings = byCreate.map((k) => k.value);

    // Scored vettings in the order their scores were given: by vetted_date, else create_date, then
    // vetting_id. The newest gives the effective score; the one before, the trend.
    const when = (k: (typeof keyed)[number]) => k.vettedTime ?? k.createTime;
    const scored = byCreate.filter((k) => k.value.vetting_score !== null).sort((x, y) => compareTimes(when(x), when(y)) || byId(x, y));
    const newest = scored[scored.length - 1];
    const before = scored[scored.length - 2];
    const effectiveScore = newest?.value.vetting_score ?? null;
    const previousScore = before?.value.vetting_score ?? null;
    const newestTime = newest ? when(newest) : null;
    const scoreChange = effectiveScore !== null && previousScore !== null ? effectiveScore - previousScore : null;
    const pendingVettings = vettings.filter((v) => v.vetting_status.trim().toUpperCase() === "PENDING");
    const pending = pendingVettings.length > 0;

    if (pending) {
      findings.push({
        severity: "warning",
        code: "vetting_pending",
        subject: b.brand_id,
        message: `brand ${b.brand_id}: vetting ${pendingVettings.map((v) => v.vetting_id).join(", ")} is pending`,
      });
    }
    if (scoreChange !== null && scoreChange < 0) {
      findings.push({
        severity: "warning",
        code: "vetting_score_fell",
        subject: b.brand_id,
        message: `brand ${b.brand_id}: vetting score fell from ${previousScore} to ${effectiveScore} (vetting ${newest!.value.vetting_id}${newestTime !== null ? ` of ${formatUtc(newestTime)}` : ""})`,
      });
    }
    // The newest vetting failed while the score still comes from an older one (an EXPIRED vetting's,
    // say): the score in force is not what the vetting body last said.
    const newestVetting = byCreate[byCreate.length - 1];
    if (newestVetting && newest && newestVetting !== newest && newestVetting.value.vetting_status.trim().toUpperCase() === "FAILED") {
      findings.push({
        severity: "error",
        code: "vetting_newest_failed",
        subject: b.brand_id,
        message: `brand ${b.brand_id}: the newest vetting ${newestVetting.value.vetting_id} FAILED, while the effective score ${effectiveScore} comes from vetting ${newest.value.vetting_id} (${newest.value.vetting_status || "no status"})`,
      });
    }
    const ageDays = newestTime !== null ? Math.floor((now.getTime() - newestTime) / DAY_MS) : null;
    if (maxVettingAgeDays !== undefined && ageDays !== null && ageDays > maxVettingAgeDays) {
      findings.push({
        severity: "error",
        code: "vetting_too_old",
        subject: b.brand_id,
        message: `brand ${b.brand_id}: the newest scored vetting (${newest!.value.vetting_id} of ${formatUtc(newestTime!)}) is ${ageDays} days old, more than max_vetting_age_days ${maxVettingAgeDays}`,
      });
    }
    if (minVettingScore !== undefined) {
      if (effectiveScore !== null && effectiveScore < minVettingScore) {
        findings.push({
          severity: "error",
          code: "vetting_score_below_minimum",
          subject: b.brand_id,
          message: `brand ${b.brand_id}: vetting score ${effectiveScore} is below min_vetting_score ${minVettingScore}`,
        });
      } else if (effectiveScore === null && !pending) {
        findings.push({
          severity: "error",
          code: "vetting_score_missing",
          subject: b.brand_id,
          message: `brand ${b.brand_id}: no vetting has a score; min_vetting_score ${minVettingScore} cannot be met`,
        });
      }
    }
    out.push({
      brand_id: b.brand_id,
      vettings,
      effective_score: effectiveScore,
      pending,
      newest_vetting_at: newestTime !== null ? formatUtc(newestTime) : null,
      vetting_age_days: ageDays,
      previous_score: previousScore,
      score_change: scoreChange,
      score_fell: scoreChange !== null && scoreChange < 0,
    });
  }
  return { value: out, findings };
}

/** `reasons` arrives as an array, a single string or null (seed 2.7); always an array here, without blanks. */
function reasonsArray(reasons: unknown): string[] {
  return (normaliseReasons(reasons) ?? []).filter((r) => r !== "" && r !== "null" && r !== "undefined");
}

function normaliseScore(score: unknown): number | null {
  if (typeof score === "number" && Number.isFinite(score)) return score;
  if (typeof score === "string" && /^-?\d+(?:\.\d+)?$/.test(score.trim())) return Number(score);
  return null;
}

/** One vetting normalised, with its parsed times for ordering. */
export function normaliseVetting(raw: BrandVetting): {
  value: AuditVetting;
  createTime: number | null;
  vettedTime: number | null;
} {
  const createText = String(raw.create_date ?? "");
  const createTime = parseTimestamp(createText);
  const vettedText = raw.vetted_date === null || raw.vetted_date === undefined ? null : String(raw.vetted_date);
  const vettedTime = vettedText === null ? null : parseTimestamp(vettedText);
  const value: AuditVetting = {
    vetting_id: String(raw.vetting_id ?? ""),
    evp_id: String(raw.evp_id ?? ""),
    create_date: createTime === null ? createText : formatUtc(createTime),
    vetted_date: vettedText === null ? null : vettedTime === null ? vettedText : formatUtc(vettedTime),
    vetting_status: String(raw.vetting_status ?? ""),
    vetting_class: String(raw.vetting_class ?? ""),
    vetting_score: normaliseScore(raw.vetting_score),
    // The client normalises already; doing it again keeps this function right for any input.
    reasons: reasonsArray(raw.reasons as unknown),
  };
  if (raw.vetting_details !== undefined && raw.vetting_details !== null) value.vetting_details = raw.vetting_details;
  return { value, createTime, vettedTime };
}

// ---------------------------------------------------------------------------------------------

/** Ascending; unreadable (null) times after every readable one. */
function compareTimes(a: number | null, b: number | null): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

const SEVERITY_RANK: Record<Finding["severity"], number> = { error: 0, warning: 1 };

/** Errors first, then by code and subject, so reports diff cleanly between runs. */
function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || compareText(a.code, b.code) || compareText(a.subject, b.subject),
  );
}

/** Code-point order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
