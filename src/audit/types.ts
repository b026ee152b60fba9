/**
 * Plain-data types of the audit (docs/CONTRACT.md part 5, `audit --format json`). The report is data;
 * rendering lives in `render/`.
 */
import type { BrandVetting, TwoFaEvent } from "../client/types";

/** Raw data of one 2FA session as collected from the API (events as the wire sent them). */
export interface CollectedSession {
  session_id: string;
  /** The service whose window listed this session; absent for a session only named directly. */
  service_id?: string;
  /** That service's `service_name` from the sessions listing, when it gave one. */
  service_name?: string;
  events: TwoFaEvent[];
}

/** Raw data of one 10DLC brand as collected from the API. */
export interface CollectedBrand {
  brand_id: string;
  vettings: BrandVetting[];
}

/** Everything `computeAudit` needs; produced by `collect.ts` (or by hand in tests). */
export interface CollectedAuditData {
  sessions: CollectedSession[];
  brands: CollectedBrand[];
  /** Findings raised while collecting (e.g. `session_without_id`). @default [] */
  findings?: Finding[];
}

export type TwoFaEventStatus = "success" | "failed" | "pending";

/** A 2FA event after normalisation: `created_at` in ISO 8601 UTC, `charge` kept as decimal text. */
export interface AuditTwoFaEvent {
  created_at: string;
  event: string;
  status: string;
  charge: string;
  error: string | null;
}

export interface AuditSession {
  session_id: string;
  /** The file's service whose window listed this session; absent for a session only named directly. */
  service_id?: string;
  /** The service's name (`service_name` of the sessions listing), when the API gave one. */
  service_name?: string;
  /** True when the session has a successful `Verification` event (docs/CONTRACT.md part 5). */
  verified: boolean;
  /** Exact decimal sum of the event charges, at the largest scale among them ("0" without events). */
  charge_total: string;
  /** Sorted by time, stable for equal times. */
  events: AuditTwoFaEvent[];
}

export interface EventsByStatus {
  success: number;
  failed: number;
  pending: number;
}

export interface AuditTwoFa {
  charge_total: string;
  events_by_status: EventsByStatus;
  sessions: AuditSession[];
}

/**
 * A vetting after normalisation: `reasons` always an array, dates in ISO 8601 UTC.
 * `vetting_token` is deliberately left out: it is an opaque per-vetting credential and reports are
 * shared artifacts (CI logs, tickets).
 */
export interface AuditVetting {
  vetting_id: string;
  evp_id: string;
  create_date: string;
  vetted_date: string | null;
  vetting_status: string;
  vetting_class: string;
  vetting_score: number | null;
  reasons: string[];
  vetting_details?: Record<string, unknown>;
}

export interface AuditBrand {
  brand_id: string;
  /** Sorted by `create_date`, stable for equal times. */
  vettings: AuditVetting[];
  /** Score of the latest vetting that has one; null when none has. */
  effective_score: number | null;
  /** True when any vetting has status `PENDING`. */
  pending: boolean;
}

export interface AuditTenDlc {
  brands: AuditBrand[];
}

export type FindingSeverity = "error" | "warning";

/**
 * Finding codes:
 * - `two_fa_failure_ratio_exceeded` (error): sessions not verified / sessions > `max_failure_ratio`.
 * - `vetting_score_below_minimum` (error): `effective_score` < `min_vetting_score`.
 * - `vetting_score_missing` (error): a minimum is set, the brand has no scored vetting and none pending.
 * - `vetting_pending` (warning): the brand has a vetting with status `PENDING`.
 * - `invalid_charge` (warning): an event charge that is not decimal text; left out of the totals.
 * - `invalid_timestamp` (warning): a time that cannot be read; kept as sent and sorted last.
 * - `session_without_id` (warning): a service listed sessions without `session_id` (optional in the
 *   official ListSessionsResponseItem); their events cannot be asked for, so they are not in the report.
 * - `unknown_event_status` (warning): an event status other than success, failed or pending; the
 *   event is kept in its session but counted in no `events_by_status` bucket.
 */
export type FindingCode =
  | "two_fa_failure_ratio_exceeded"
  | "vetting_score_below_minimum"
  | "vetting_score_missing"
  | "vetting_pending"
  | "invalid_charge"
  | "invalid_timestamp"
  | "session_without_id"
  | "unknown_event_status";

export interface Finding {
  severity: FindingSeverity;
  code: FindingCode;
  /** The session ID, brand ID, or `two_fa` for account-wide findings. */
  subject: string;
  message: string;
}

/** The audit report, exactly the JSON of `audit --format json` (docs/CONTRACT.md part 5). */
export interface AuditReport {
  generated_at: string;
  two_fa: AuditTwoFa;
  ten_dlc: AuditTenDlc;
  findings: Finding[];
}
