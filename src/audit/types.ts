/**
 * Plain-data types of the audit (docs/CONTRACT.md part 5, `audit --format json`). The report is data;
 * rendering lives in `render/`.
 */
import type { BrandVetting, TwoFaEvent } from "../client/types";

/** Raw data of one 2FA session as collected from the API (events as the wire sent them). */
export interface CollectedSession {
  session_id: string;
  /** The service whose listing gave this session; absent for a session only named directly. */
  service_id?: string;
  /** That service's `service_name` from the sessions listing, when it gave one. */
  service_name?: string;
  /** `created_at` as the sessions listing sent it (optional in the official ListSessionsResponseItem). */
  created_at?: string;
  /** The listing's `status` of the session (`verified`, `pending`, `failed`, …), when it gave one. */
  status?: string;
  /** The listing's `charge` of the session (decimal text), when it gave one. */
  charge?: string;
  /**
   * The session's events, when they were read; absent when they were not asked for (headline figures
   * come from the listing) — see `events_not_found` for events asked for and not found.
   */
  events?: TwoFaEvent[];
  /** Its events were asked for and the API answered 404: the listing's status and charge stand in. */
  events_not_found?: boolean;
}

/** Raw data of one 10DLC brand as collected from the API. */
export interface CollectedBrand {
  brand_id: string;
  vettings: BrandVetting[];
}

/** Everything `computeAudit` needs; produced by `collect.ts` (or by hand in tests). */
export interface CollectedAuditData {
  /** The services' sessions in their periods (with `service_id`) and the named ones (without). */
  sessions: CollectedSession[];
  /** The services' sessions in their previous periods. @default [] */
  previous?: CollectedSession[];
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
  /** When it was created (the listing's `created_at`, in ISO 8601 UTC), when the listing gave a readable one. */
  created_at?: string;
  /**
   * Whether the session was verified: the listing's `status` is `verified` (else, for a session the
   * listing gave no usable status for, a successful `Verification` event); null when neither can be
   * read (a data gap: the session counts in `unknown`, never as a failed verification).
   */
  verified: boolean | null;
  /**
   * Its charge: the listing's `charge`, else the exact sum of its event charges at the largest scale
   * among them; null when neither can be read (a data gap).
   */
  charge_total: string | null;
  /** Where `verified` and `charge_total` come from: the sessions listing, its events, or nowhere (a gap). */
  figures_from: "listing" | "events" | "none";
  /**
   * Its events: `read`, `not_requested` (headline figures need only the listing; `--events` reads
   * them), or `not_found` (asked for, the API answered 404: a data gap).
   */
  events_read: "read" | "not_requested" | "not_found";
  /** Sorted by time, stable for equal times; empty unless `events_read` is `read`. */
  events: AuditTwoFaEvent[];
}

export interface EventsByStatus {
  success: number;
  failed: number;
  pending: number;
}

/** Figures of a set of sessions: how many, how many verified, the ratio not verified, the charges. */
export interface SessionFigures {
  sessions: number;
  verified: number;
  not_verified: number;
  /** Sessions whose verification could not be read (a data gap): neither verified nor not verified. */
  unknown: number;
  /**
   * `not_verified / (verified + not_verified)` as decimal text rounded half-up to {@link RATIO_PLACES}
   * places (`"0.250000"`); null without a session of known outcome.
   */
  failure_ratio: string | null;
  /** Exact sum of the sessions' charges, at the largest scale among them ("0" without any). */
  charge_total: string;
}

/**
 * The change from the previous period to this one. Each is the exact difference of the two figures
 * as the report shows them (so a reader can check it by subtraction); `failure_ratio` is null when
 * either period has no sessions.
 */
export interface FiguresChange {
  sessions: number;
  failure_ratio: string | null;
  charge_total: string;
}

/** One UTC day of the period: the services' sessions created that day (zero days included). */
export interface DailyFigures extends SessionFigures {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  events_by_status: EventsByStatus;
}

/** Where a service's threshold comes from. */
export type ThresholdSource = "service" | "two_fa";

/** One service of `audit.two_fa.services`: its period, threshold, figures and their change. */
export interface ServiceFigures {
  service_id: string;
  /** Its `service_name`, when the sessions listing gave one. */
  service_name?: string;
  period: { from: string; to: string };
  /** This service's previous period: the span of the same length right before its own period. */
  previous_period: { from: string; to: string };
  /**
   * The days (`YYYY-MM-DD`, inclusive) its sessions listing was asked for, per period: each period's
   * UTC days with one more day on each side, since the API does not say in which zone its days are;
   * sessions are then kept by their `created_at`.
   */
  listed_days: { current: { from: string; to: string }; previous: { from: string; to: string } };
  /** The threshold that applies (the service's own, else the section's); null when none. */
  max_failure_ratio: number | null;
  max_failure_ratio_source: ThresholdSource | null;
  current: SessionFigures;
  previous: SessionFigures;
  change: FiguresChange;
  /** Failure ratio strictly above `max_failure_ratio` (an error finding whose subject is the service). */
  exceeded: boolean;
}

/** The sessions named in `audit.two_fa.sessions` (and not listed by a service), audited whatever their dates. */
export interface NamedSessionFigures {
  max_failure_ratio: number | null;
  current: SessionFigures;
  exceeded: boolean;
}

/** The 2FA part of the report without its sessions (what a streamed report holds in memory). */
export interface AuditTwoFaSummary {
  /** Exact sum of the charges of every session in the report. */
  charge_total: string;
  /** Events of every session in the report, by status. */
  events_by_status: EventsByStatus;
  /** The services' sessions in the period: the figures compared with `previous`. */
  current: SessionFigures;
  /** The same services over the previous period of the same length. */
  previous: SessionFigures;
  change: FiguresChange;
  /** Every UTC day of the period, ascending, zero days included (the services' sessions, by the day each was created). */
  daily: DailyFigures[];
  /** One entry per service, in file order. */
  services: ServiceFigures[];
  /** Present when the file names sessions directly. */
  named_sessions?: NamedSessionFigures;
}

export interface AuditTwoFa extends AuditTwoFaSummary {
  /** The services' sessions in the period (services in file order, days ascending), then the named ones. */
  sessions: AuditSession[];
}

/** Normalised 2FA data of a data source (no period): sessions with sorted events and exact totals. */
export interface TwoFaSessionsData {
  charge_total: string;
  events_by_status: EventsByStatus;
  verified: number;
  not_verified: number;
  /** Sessions of unknown outcome (a gap). */
  unknown: number;
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
  /** Score of the newest vetting that has one; null when none has. */
  effective_score: number | null;
  /** True when any vetting has status `PENDING`. */
  pending: boolean;
  /** When the newest scored vetting was made (its `vetted_date`, else `create_date`); null without one. */
  newest_vetting_at: string | null;
  /** Whole days from `newest_vetting_at` to the report's `generated_at`; null without a scored vetting. */
  vetting_age_days: number | null;
  /** Score of the scored vetting before the newest one; null when there is none. */
  previous_score: number | null;
  /** `effective_score − previous_score`; null when either is. */
  score_change: number | null;
  /** True when the newest score is below the one before (a `vetting_score_fell` warning). */
  score_fell: boolean;
}

export interface AuditTenDlc {
  brands: AuditBrand[];
}

export type FindingSeverity = "error" | "warning";

/**
 * Finding codes (docs/AUDIT.md, "Findings"):
 * - `two_fa_failure_ratio_exceeded` (error): a service's sessions not verified / sessions in the
 *   period > its `max_failure_ratio` (subject: the service ID); for the sessions named in the file,
 *   the section's ratio (subject: `audit.two_fa.sessions`).
 * - `two_fa_no_sessions` (warning): a service had no session in the period. The API answers 404
 *   both for a window without sessions and for an unknown service, so the report cannot tell them apart.
 * - `session_outside_window` (warning): a sessions listing gave sessions created outside the day it
 *   was asked for; they are left out of that day (counted where they belong when inside the period).
 * - `session_events_not_found` (warning, gap): a session the service listed, whose events were asked
 *   for and the API does not find (404); the listing's status and charge stand in, marked as such.
 * - `session_status_unknown` (warning, gap): a session whose outcome neither the listing (no or an
 *   unknown `status`, no decimal `charge`) nor its events tell; counted in `unknown`.
 * - `session_time_unknown` (warning, gap): a listed session without a readable `created_at` (and no
 *   events to place it by): it cannot be placed in or out of the period, so it is not counted.
 * - `session_events_disagree` (warning): events read for a listed session say otherwise than the
 *   listing (verified or charge); the listing's figures stand.
 * - `brand_vettings_not_found` (warning, gap): a brand of the account listing (`brands: all`) whose
 *   vettings answer 404; the other brands are reported.
 * - `vetting_newest_failed` (error): the newest vetting FAILED while the effective score comes from
 *   an older (e.g. EXPIRED) one.
 * - `vetting_too_old` (error): the newest scored vetting is older than `max_vetting_age_days`.
 * - `period_incomplete` (warning, gap): the period ends after `generated_at`: sessions may still come.
 * - `vetting_score_below_minimum` (error): `effective_score` < `min_vetting_score`.
 * - `vetting_score_missing` (error): a minimum is set, the brand has no scored vetting and none pending.
 * - `vetting_score_fell` (warning): the newest score is below the one before it.
 * - `vetting_pending` (warning): the brand has a vetting with status `PENDING`.
 * - `invalid_charge` (warning, gap): a charge that is not decimal text; left out of the totals.
 * - `invalid_timestamp` (warning): a time that cannot be read; kept as sent and sorted last.
 * - `session_without_id` (warning, gap): a service listed sessions without `session_id` (optional in
 *   the official ListSessionsResponseItem); they cannot be told apart, so they are not in the report.
 * - `unknown_event_status` (warning, gap): an event status other than success, failed or pending; the
 *   event is kept in its session but counted in no `events_by_status` bucket (a gap).
 *
 * Data findings of the previous period (`invalid_charge`, …) are reported too, their message
 * starting with "previous period:".
 */
export type FindingCode =
  | "two_fa_failure_ratio_exceeded"
  | "two_fa_no_sessions"
  | "session_outside_window"
  | "session_events_not_found"
  | "period_incomplete"
  | "vetting_score_below_minimum"
  | "vetting_score_missing"
  | "vetting_score_fell"
  | "vetting_pending"
  | "invalid_charge"
  | "invalid_timestamp"
  | "session_without_id"
  | "unknown_event_status"
  | "session_status_unknown"
  | "session_time_unknown"
  | "session_events_disagree"
  | "brand_vettings_not_found"
  | "vetting_newest_failed"
  | "vetting_too_old";

export interface Finding {
  severity: FindingSeverity;
  code: FindingCode;
  /** The service ID, session ID, brand ID, `audit.two_fa.sessions` or `period`. */
  subject: string;
  message: string;
  /** True when the finding is a data gap: something the report could not read, so it is not complete. */
  gap?: true;
}

/** One data gap of a report: a finding that means the data is not complete (see {@link Finding.gap}). */
export interface Gap {
  code: FindingCode;
  subject: string;
  message: string;
}


/** A period as the report writes it: ISO 8601 UTC, `from` included, `to` excluded. */
export interface ReportPeriod {
  from: string;
  to: string;
}

/** What the run asked for (the file's audit section, and the window that applied). */
export interface AuditAsked {
  /**
   * How the period was given: `last 30d` (`--last 30d`), `2026-11-01 to 2026-11-21` (`--from/--to`),
   * `file` (each service's own from/to), or null (no 2FA service and no window).
   */
  window: string | null;
  two_fa: {
    sessions: string[];
    services: { service_id: string; from?: string; to?: string; max_failure_ratio?: number }[];
    max_failure_ratio: number | null;
  };
  ten_dlc: {
    brands: string[] | "all";
    min_vetting_score: number | null;
    /** `audit.ten_dlc.max_vetting_age_days`: the newest scored vetting may be at most this old. */
    max_vetting_age_days: number | null;
  };
  /** Whether each session's events were read (`--events`), or only the listings (headline figures). */
  events: boolean;
}

/** Who or what made the report: the CI job when one is recognised, else the host. */
export interface AuditRunner {
  /** `github`, `gitlab`, `ci` (a generic `CI` variable), or `local`. */
  kind: string;
  host: string;
  /** The CI's own identification of the job (run id, pipeline, repository, commit), when present. */
  ci?: Record<string, string>;
}

/** What the report was read from, and what reading it cost. */
export interface AuditSource {
  /** The API root every request went to (`WAVIX_BASE_URL`, default https://api.wavix.com). */
  api_root: string;
  /** `sha256:` and the first 16 hex digits of the SHA-256 of the API key: which key, never the key. */
  key_fingerprint: string | null;
  /** HTTP requests sent (retries included), retries, and answers 429. Null when not counted. */
  requests: { total: number; retries: number; rate_limited: number } | null;
}

/** The report without its sessions: what the renderers read, and what a streamed report keeps in memory. */
export interface AuditReportHead {
  /** The report format's version (schemas/audit-report.schema.json describes it). */
  format_version: number;
  /** False when the report lacks data it covers: see `gaps`. */
  complete: boolean;
  /** The data gaps, counted and named. */
  gaps: { count: number; by_code: Record<string, number>; items: Gap[] };
  generated_at: string;
  tool: { name: string; version: string };
  /** Where the data was read from: the API root, the key's fingerprint, the requests it took. */
  source: AuditSource;
  runner: AuditRunner;
  /** The account behind the key (`GET /v1/profile`). */
  account: { id: number };
  /** The period audited (the span of the services' periods, else the run's window); null without either. */
  period: ReportPeriod | null;
  /**
   * The span of the same length before it; null with `period`, and null when the services have
   * periods of their own that differ (each is compared with its own: `two_fa.services[].previous_period`).
   */
  previous_period: ReportPeriod | null;
  asked: AuditAsked;
  /** How the figures are made, in sentences (what "verified" means, rounding, periods, the listing's days). */
  methodology: string[];
  two_fa: AuditTwoFaSummary;
  ten_dlc: AuditTenDlc;
  findings: Finding[];
}

/** The audit report, exactly the JSON of `audit --format json` (docs/AUDIT.md). */
export interface AuditReport extends Omit<AuditReportHead, "two_fa"> {
  two_fa: AuditTwoFa;
}
