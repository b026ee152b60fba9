/**
 * The audit's rules, as a pure function of collected data (docs/CONTRACT.md part 5, `audit`): no I/O,
 * no clock (the caller passes `now`). Rendering is elsewhere (`render/`).
 */
import { normaliseReasons } from "../client/client";
import Decimal from "decimal.js";
import type { BrandVetting, TwoFaEvent } from "../client/types";
import type { AuditConfig } from "../config/types";
import { sumDecimals } from "../util/decimal";
import { formatUtc, parseTimestamp } from "./time";
import type {
  AuditBrand,
  AuditReport,
  AuditSession,
  AuditTwoFa,
  AuditTwoFaEvent,
  AuditVetting,
  CollectedAuditData,
  CollectedBrand,
  CollectedSession,
  EventsByStatus,
  Finding,
} from "./types";

/** Options of {@link computeAudit}. */
export interface ComputeAuditOptions {
  /**
   * The report's `generated_at`. Injected so reports are reproducible in tests.
   * @default new Date()
   */
  now?: Date;
}

/** Money is decimal text (docs/CONTRACT.md part 2: `"0.0050"`, never a float); what `sumDecimals` accepts. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Result of normalising one piece of wire data: the value plus the findings it raised. */
interface Normalised<T> {
  value: T;
  findings: Finding[];
}

/** Build the report exactly as `audit --format json` prints it. */
export function computeAudit(
  data: CollectedAuditData,
  config: AuditConfig | undefined,
  options: ComputeAuditOptions = {},
): AuditReport {
  const now = options.now ?? new Date();
  const twoFa = computeTwoFa(data.sessions, config?.two_fa?.max_failure_ratio);
  const tenDlc = computeTenDlc(data.brands, config?.ten_dlc?.min_vetting_score);
  const findings = sortFindings([...(data.findings ?? []), ...twoFa.findings, ...tenDlc.findings]);
  return {
    // Whole seconds, as docs/CONTRACT.md part 5 shows it ("2026-11-22T10:00:00Z").
    generated_at: formatUtc(Math.floor(now.getTime() / 1000) * 1000),
    two_fa: twoFa.value,
    ten_dlc: { brands: tenDlc.value },
    findings,
  };
}

// ---------------------------------------------------------------------------------------------
// 2FA

/**
 * Normalise the sessions and total them. `maxFailureRatio` (of sessions not verified) raises
 * `two_fa_failure_ratio_exceeded` when strictly exceeded; without sessions there is no ratio.
 */
export function computeTwoFa(
  sessions: readonly CollectedSession[],
  maxFailureRatio?: number,
): Normalised<AuditTwoFa> {
  const findings: Finding[] = [];
  const out: AuditSession[] = [];
  const allCharges: string[] = [];
  const byStatus: EventsByStatus = { success: 0, failed: 0, pending: 0 };
  for (const s of sessions) {
    const normalised = normaliseSession(s);
    findings.push(...normalised.findings);
    out.push(normalised.value.session);
    allCharges.push(...normalised.value.charges);
    const unknown = new Map<string, number>();
    for (const e of normalised.value.session.events) {
      if (e.status === "success" || e.status === "failed" || e.status === "pending") byStatus[e.status] += 1;
      else unknown.set(e.status, (unknown.get(e.status) ?? 0) + 1);
    }
    for (const [status, n] of unknown) {
      findings.push({
        severity: "warning",
        code: "unknown_event_status",
        subject: s.session_id,
        message: `2FA session ${s.session_id}: ${n} event(s) with status ${JSON.stringify(status)}, not success, failed or pending; kept in the session, counted in no status total`,
      });
    }
  }
  if (maxFailureRatio !== undefined && out.length > 0) {
    const unverified = out.filter((s) => !s.verified).length;
    // Compared exactly (unverified > ratio × sessions) so 0.1 × 3 is not 0.30000000000000004.
    if (new Decimal(unverified).gt(new Decimal(maxFailureRatio).times(out.length))) {
      const percent = new Decimal(unverified).times(100).div(out.length).toDecimalPlaces(1).toString();
      findings.push({
        severity: "error",
        code: "two_fa_failure_ratio_exceeded",
        subject: "two_fa",
        message:
          `${unverified} of ${out.length} 2FA sessions not verified (${percent}%), ` +
          `above max_failure_ratio ${maxFailureRatio}`,
      });
    }
  }
  return {
    value: { charge_total: sumMoney(allCharges), events_by_status: byStatus, sessions: out },
    findings,
  };
}

function normaliseSession(
  s: CollectedSession,
): Normalised<{ session: AuditSession; charges: string[] }> {
  const findings: Finding[] = [];
  const charges: string[] = [];
  const keyed = s.events.map((raw) => {
    const { event, time } = normaliseEvent(raw);
    if (time === null) {
      findings.push({
        severity: "warning",
        code: "invalid_timestamp",
        subject: s.session_id,
        message: `2FA session ${s.session_id}: event time ${JSON.stringify(raw.created_at)} cannot be read; kept as sent`,
      });
    }
    if (DECIMAL_TEXT.test(event.charge)) {
      charges.push(event.charge);
    } else {
      findings.push({
        severity: "warning",
        code: "invalid_charge",
        subject: s.session_id,
        message: `2FA session ${s.session_id}: charge ${JSON.stringify(raw.charge)} is not decimal text; left out of totals`,
      });
    }
    return { event, time };
  });
  // Sort by time; Array.prototype.sort is stable, so equal times keep the API's order. Unreadable
  // times go last rather than guessing where they belong.
  keyed.sort((a, b) => compareTimes(a.time, b.time));
  const events = keyed.map((k) => k.event);
  const verified = events.some(
    (e) => e.event.trim().toLowerCase() === "verification" && e.status === "success",
  );
  return {
    value: {
      session: {
        session_id: s.session_id,
        ...(s.service_id !== undefined ? { service_id: s.service_id } : {}),
        ...(s.service_name !== undefined ? { service_name: s.service_name } : {}),
        verified,
        charge_total: sumMoney(charges),
        events,
      },
      charges,
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

/** Exact sum at the largest scale among the inputs; "0" for none. */
function sumMoney(values: readonly string[]): string {
  return values.length === 0 ? "0" : sumDecimals(values);
}

// ---------------------------------------------------------------------------------------------
// 10DLC

/**
 * Normalise brands and derive `effective_score` and `pending`.
 *
 * With `minVettingScore` set, a brand without any scored vetting is an error
 * (`vetting_score_missing`): a gate on a minimum score cannot pass on no score. The exception is a
 * brand whose vetting is still PENDING: the `vetting_pending` warning already says the score is
 * awaited, and failing a pipeline for a vetting in progress would block every new brand.
 */
export function computeTenDlc(
  brands: readonly CollectedBrand[],
  minVettingScore?: number,
): Normalised<AuditBrand[]> {
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

    // Latest scored vetting: by vetted_date (when the score was given), else create_date; ties keep
    // the later one in create order.
    let latest: (typeof keyed)[number] | undefined;
    for (const k of byCreate) {
      if (k.value.vetting_score === null) continue;
      if (latest === undefined || compareTimes(k.vettedTime ?? k.createTime, latest.vettedTime ?? latest.createTime) >= 0) {
        latest = k;
      }
    }
    const effectiveScore = latest?.value.vetting_score ?? null;
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
    out.push({ brand_id: b.brand_id, vettings, effective_score: effectiveScore, pending });
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
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      compareText(a.code, b.code) ||
      compareText(a.subject, b.subject),
  );
}

/** Code-point order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
