/**
 * The audit's rules, as pure computation over collected data (docs/AUDIT.md): no I/O, no clock (the
 * caller passes `now`). {@link AuditBuilder} takes sessions one at a time, so a collection of any
 * size keeps only figures in memory (per service, per day, in total); {@link computeAudit} is the
 * same builder over data held in memory. Rendering is elsewhere (`render/`).
 */
import Decimal from "decimal.js";
import { normaliseReasons } from "../client/client";
import type { BrandVetting, TwoFaEvent } from "../client/types";
import type { AuditConfig } from "../config/types";
import { addDecimal } from "../util/decimal";
import { formatUtc, parseTimestamp } from "./time";
import type {
  AuditAsked,
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
import { daysOf, DAY_MS, previousPeriod, requireServicePeriods, spanOf, utcDay, type Period, type RunWindow } from "./window";

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
  private total = "0";
  add(value: string): void {
    this.total = addDecimal(this.total, value);
  }
  toString(): string {
    return this.total;
  }
}

const noEvents = (): EventsByStatus => ({ success: 0, failed: 0, pending: 0 });

/** Sessions, verified sessions, charges and events by status of a set of sessions, added one by one. */
class Tally {
  sessions = 0;
  verified = 0;
  readonly charge = new MoneySum();
  readonly byStatus = noEvents();

  add(s: AuditSession, charges: readonly string[]): void {
    this.sessions += 1;
    if (s.verified) this.verified += 1;
    for (const c of charges) this.charge.add(c);
    for (const e of s.events) if (e.status === "success" || e.status === "failed" || e.status === "pending") this.byStatus[e.status] += 1;
  }

  figures(): SessionFigures {
    return {
      sessions: this.sessions,
      verified: this.verified,
      not_verified: this.sessions - this.verified,
      failure_ratio: ratioText(this.sessions - this.verified, this.sessions),
      charge_total: this.charge.toString(),
    };
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

/** Sessions not verified strictly above `ratio` of the sessions, compared exactly (0.1 × 3 is 0.3). */
function exceeds(f: SessionFigures, ratio: number | null): boolean {
  return ratio !== null && f.sessions > 0 && new Exact(f.not_verified).gt(new Exact(ratio).times(f.sessions));
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
  private brands: AuditBrand[] = [];
  /** The report's `period`: the span of the services' periods, else the run's window; undefined without either. */
  readonly span: Period | undefined;
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
   * Returns it normalised, or undefined when its time puts it outside its service's period (a
   * listing item without a readable `created_at` is placed by its first event).
   */
  addSession(raw: CollectedSession): AuditSession | undefined {
    const n = normaliseSession(raw);
    const service = raw.service_id !== undefined ? this.services.get(raw.service_id) : undefined;
    let day: string | undefined;
    if (service) {
      const time = this.sessionTime(raw, n.value.firstEventTime, "");
      if (time !== null && (time < service.period.from || time >= service.period.to)) return undefined;
      day = time !== null ? utcDay(time) : raw.listed_day;
      if (service.name === undefined && raw.service_name !== undefined) service.name = raw.service_name;
    }
    this.findings.push(...n.findings);
    const session = n.value.session;
    if (service) {
      service.current.add(session, n.value.charges);
      if (day !== undefined) this.days.get(day)?.add(session, n.value.charges);
    } else {
      this.namedSeen = true;
      this.named.add(session, n.value.charges);
    }
    this.all.add(session, n.value.charges);
    this.countUnknownStatuses(session, "");
    return session;
  }

  /** A service's session of its previous period: counted in `previous`, not kept. */
  addPreviousSession(raw: CollectedSession): void {
    const service = raw.service_id !== undefined ? this.services.get(raw.service_id) : undefined;
    if (!service) return;
    const n = normaliseSession(raw, "previous period: ");
    const prev = previousPeriod(service.period);
    const time = this.sessionTime(raw, n.value.firstEventTime, "previous period: ");
    if (time !== null && (time < prev.from || time >= prev.to)) return;
    this.findings.push(...n.findings);
    service.previous.add(n.value.session, n.value.charges);
    this.countUnknownStatuses(n.value.session, "previous period: ");
  }

  /** Findings raised while collecting. */
  addFindings(findings: readonly Finding[]): void {
    this.findings.push(...findings);
  }

  setBrands(brands: readonly CollectedBrand[]): void {
    const minimum = this.ctx.config?.ten_dlc?.min_vetting_score;
    const r = computeTenDlc(brands, minimum, this.ctx.now);
    this.brands = r.value;
    this.findings.push(...r.findings);
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
          message: `${label}: ${cur.not_verified} of ${cur.sessions} sessions not verified (${percent(cur.not_verified, cur.sessions)}%) in ${when}, above max_failure_ratio ${s.threshold}${s.thresholdSource === "two_fa" ? " (audit.two_fa.max_failure_ratio)" : ""}`,
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
      services.push({
        service_id: s.id,
        ...(s.name !== undefined ? { service_name: s.name } : {}),
        period: reportPeriod(s.period),
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
          message: `sessions named in the file: ${figures.not_verified} of ${figures.sessions} not verified (${percent(figures.not_verified, figures.sessions)}%), above max_failure_ratio ${threshold}`,
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
      });
    }

    const daily: DailyFigures[] = [...this.days.entries()].map(([date, t]) => ({ date, ...t.figures(), events_by_status: { ...t.byStatus } }));
    const cur = current.figures();
    const prev = previous.figures();
    return {
      generated_at: this.generatedAt,
      tool: this.ctx.tool ?? toolInfo(),
      account: { id: this.ctx.accountId },
      period: this.span ? reportPeriod(this.span) : null,
      previous_period: this.span ? reportPeriod(previousPeriod(this.span)) : null,
      asked: askedOf(cfg, this.ctx.window),
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
      findings: sortFindings(findings),
    };
  }

  /** The session's time: the listing's `created_at`, else its first event's; null when neither reads. */
  private sessionTime(raw: CollectedSession, firstEventTime: number | null, prefix: string): number | null {
    if (raw.created_at !== undefined && raw.created_at !== null) {
      const t = parseTimestamp(String(raw.created_at));
      if (t !== null) return t;
      this.findings.push({
        severity: "warning",
        code: "invalid_timestamp",
        subject: raw.session_id,
        message: `${prefix}2FA session ${raw.session_id}: created_at ${JSON.stringify(raw.created_at)} cannot be read; placed by ${firstEventTime !== null ? "its first event" : "the day it was listed for"}`,
      });
    }
    return firstEventTime;
  }

  private countUnknownStatuses(session: AuditSession, prefix: string): void {
    const unknown = new Map<string, number>();
    for (const e of session.events) {
      if (e.status !== "success" && e.status !== "failed" && e.status !== "pending") unknown.set(e.status, (unknown.get(e.status) ?? 0) + 1);
    }
    for (const [status, n] of unknown) {
      this.findings.push({
        severity: "warning",
        code: "unknown_event_status",
        subject: session.session_id,
        message: `${prefix}2FA session ${session.session_id}: ${n} event(s) with status ${JSON.stringify(status)}, not success, failed or pending; kept in the session, counted in no status total`,
      });
    }
  }
}

function mergeTally(into: Tally, from: Tally): void {
  into.sessions += from.sessions;
  into.verified += from.verified;
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

function askedOf(cfg: AuditConfig | undefined, window: RunWindow | undefined): AuditAsked {
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
    },
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
}

/** The whole report from data held in memory (the builder, fed in order). */
export function computeAudit(data: CollectedAuditData, config: AuditConfig | undefined, options: ComputeAuditOptions): AuditReport {
  const b = new AuditBuilder({ now: options.now ?? new Date(), accountId: options.accountId, config, window: options.window, tool: options.tool });
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
    findings.push(...n.findings);
    out.push(n.value.session);
    tally.add(n.value.session, n.value.charges);
  }
  return { value: { charge_total: tally.charge.toString(), events_by_status: { ...tally.byStatus }, sessions: out }, findings };
}

function normaliseSession(
  s: CollectedSession,
  prefix = "",
): Normalised<{ session: AuditSession; charges: string[]; firstEventTime: number | null }> {
  const findings: Finding[] = [];
  const charges: string[] = [];
  const keyed = s.events.map((raw) => {
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
      charges.push(event.charge);
    } else {
      findings.push({
        severity: "warning",
        code: "invalid_charge",
        subject: s.session_id,
        message: `${prefix}2FA session ${s.session_id}: charge ${JSON.stringify(raw.charge)} is not decimal text; left out of totals`,
      });
    }
    return { event, time };
  });
  // Sort by time; Array.prototype.sort is stable, so equal times keep the API's order. Unreadable
  // times go last rather than guessing where they belong.
  keyed.sort((a, b) => compareTimes(a.time, b.time));
  const events = keyed.map((k) => k.event);
  const verified = events.some((e) => e.event.trim().toLowerCase() === "verification" && e.status === "success");
  return {
    value: {
      session: {
        session_id: s.session_id,
        ...(s.service_id !== undefined ? { service_id: s.service_id } : {}),
        ...(s.service_name !== undefined ? { service_name: s.service_name } : {}),
        verified,
        charge_total: charges.length === 0 ? "0" : charges.reduce((a, c) => addDecimal(a, c)),
        events,
      },
      charges,
      firstEventTime: keyed[0]?.time ?? null,
    },
    findings,
  };
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
export function computeTenDlc(brands: readonly CollectedBrand[], minVettingScore?: number, now: Date = new Date()): Normalised<AuditBrand[]> {
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
    const byCreate = [...keyed].sort((x, y) => compareTimes(x.createTime, y.createTime));
    const vettings = byCreate.map((k) => k.value);

    // Scored vettings in the order their scores were given: by vetted_date, else create_date (stable,
    // so ties keep create order). The newest gives the effective score; the one before, the trend.
    const when = (k: (typeof keyed)[number]) => k.vettedTime ?? k.createTime;
    const scored = byCreate.filter((k) => k.value.vetting_score !== null).sort((x, y) => compareTimes(when(x), when(y)));
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
      vetting_age_days: newestTime !== null ? Math.floor((now.getTime() - newestTime) / DAY_MS) : null,
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
