/**
 * The sentences Markdown and HTML share: what the report covers (account, period, what was asked,
 * by whom and when) and its verdict. Plain text; each renderer escapes it.
 */
import Decimal from "decimal.js";
import { parseTimestamp } from "../time";
import type { AuditReportHead, ReportPeriod, SessionFigures } from "../types";
import { DAY_MS, HOUR_MS } from "../window";

/** `2026-11-01 – 2026-11-21 (UTC, 21 days)`, `2026-11-25 (UTC, 1 day)`, or instants for hour periods. */
export function periodText(p: ReportPeriod | null): string {
  if (p === null) return "none (no 2FA service is audited; named sessions and brands are read whatever their dates)";
  const from = parseTimestamp(p.from)!;
  const to = parseTimestamp(p.to)!;
  if (from % DAY_MS === 0 && to % DAY_MS === 0) {
    const days = (to - from) / DAY_MS;
    const first = p.from.slice(0, 10);
    const last = new Date(to - DAY_MS).toISOString().slice(0, 10);
    return `${first === last ? first : `${first} – ${last}`} (UTC, ${days} day${days === 1 ? "" : "s"})`;
  }
  const hours = (to - from) / HOUR_MS;
  return `${p.from} – ${p.to} (end excluded, ${Number.isInteger(hours) ? `${hours} hour${hours === 1 ? "" : "s"}` : "UTC"})`;
}

/** What the file (and the run) asked for, in one line. */
export function askedText(head: AuditReportHead): string {
  const a = head.asked;
  const parts: string[] = [];
  const services = a.two_fa.services;
  if (services.length > 0) {
    const names = new Map(head.two_fa.services.map((s) => [s.service_id, s.service_name]));
    parts.push(
      `2FA service${services.length === 1 ? "" : "s"} ${services.map((s) => (names.get(s.service_id) ? `${names.get(s.service_id)} (${s.service_id})` : s.service_id)).join(", ")}` +
        ` over ${a.window === "file" ? "their own from/to in the file" : a.window?.startsWith("last ") ? `the ${a.window} (--${a.window})` : `${a.window} (--from/--to)`}`,
    );
  }
  if (a.two_fa.sessions.length > 0) parts.push(`2FA session${a.two_fa.sessions.length === 1 ? "" : "s"} ${a.two_fa.sessions.join(", ")}`);
  if (a.two_fa.max_failure_ratio !== null) parts.push(`max_failure_ratio ${a.two_fa.max_failure_ratio}`);
  if (a.ten_dlc.brands === "all") parts.push("every 10DLC brand");
  else if (a.ten_dlc.brands.length > 0) parts.push(`10DLC brand${a.ten_dlc.brands.length === 1 ? "" : "s"} ${a.ten_dlc.brands.join(", ")}`);
  if (a.ten_dlc.min_vetting_score !== null) parts.push(`min_vetting_score ${a.ten_dlc.min_vetting_score}`);
  return parts.join("; ");
}

/** `0.333333 (33.3%)`, or `–` without sessions. */
export function ratioWithPercent(ratio: string | null): string {
  return ratio === null ? "–" : `${ratio} (${new Decimal(ratio).times(100).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1)}%)`;
}

/** A change with its sign: `+2`, `-0.0500`, `0`. */
export function signed(value: number | string | null): string {
  if (value === null) return "–";
  const text = String(value);
  return text.startsWith("-") || /^0(\.0*)?$/.test(text) ? text : `+${text}`;
}

/** One line of figures: `6 sessions, 2 not verified (failure ratio 0.333333 (33.3%)), charges 0.3000 USD`. */
export function figuresText(f: SessionFigures): string {
  return `${f.sessions} session${f.sessions === 1 ? "" : "s"}, ${f.not_verified} not verified (failure ratio ${ratioWithPercent(f.failure_ratio)}), charges ${f.charge_total} USD`;
}

export type VerdictKind = "error" | "warning" | "ok" | "empty";

/**
 * The report's verdict. "No findings" only when something was checked: a report with no session and
 * no brand says so instead (an empty period is a result to state, not a pass).
 */
export function verdict(head: AuditReportHead, sessionCount: number): { kind: VerdictKind; text: string; errors: number; warnings: number } {
  const errors = head.findings.filter((f) => f.severity === "error").length;
  const warnings = head.findings.length - errors;
  const brands = head.ten_dlc.brands.length;
  const checked = `${sessionCount} 2FA session${sessionCount === 1 ? "" : "s"} and ${brands} 10DLC brand${brands === 1 ? "" : "s"} checked`;
  if (errors > 0 || warnings > 0) {
    return { kind: errors > 0 ? "error" : "warning", errors, warnings, text: `${errors} error finding${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} (${checked}).` };
  }
  if (sessionCount === 0 && brands === 0) return { kind: "empty", errors, warnings, text: "Nothing to check: no 2FA session in the period and no 10DLC brand." };
  return { kind: "ok", errors, warnings, text: `No findings: ${checked}, all within the thresholds.` };
}

/** `complete`, or `NOT complete: 3 data gaps (2 session_events_not_found, 1 period_incomplete)`. */
export function completenessText(head: AuditReportHead): string {
  if (head.complete) return "complete: every session and brand the report covers was read";
  const codes = Object.entries(head.gaps.by_code)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, n]) => `${n} ${code}`)
    .join(", ");
  return `NOT complete: ${head.gaps.count} data gap${head.gaps.count === 1 ? "" : "s"} (${codes}); the figures lack what the gaps name`;
}

/** The API root, the key's fingerprint, the requests: where the data was read from. */
export function sourceText(head: AuditReportHead): string {
  const r = head.source.requests;
  return `${head.source.api_root}, key ${head.source.key_fingerprint ?? "not stated"}${r ? `; ${r.total} requests (${r.retries} retries, ${r.rate_limited} answered 429)` : ""}`;
}

/** Who made it: the CI job, else the host. */
export function runnerText(head: AuditReportHead): string {
  const ci = head.runner.ci ?? {};
  const job = ci.GITHUB_RUN_ID ?? ci.CI_JOB_ID ?? ci.BUILD_ID;
  const where = ci.GITHUB_REPOSITORY ?? ci.CI_PROJECT_PATH;
  return head.runner.kind === "local" ? `host ${head.runner.host}` : `${head.runner.kind}${where ? ` ${where}` : ""}${job ? ` job ${job}` : ""} on ${head.runner.host}`;
}

/** A session's outcome as a cell: yes, no, or unknown (a gap). */
export function verifiedText(v: boolean | null): string {
  return v === null ? "unknown" : v ? "yes" : "no";
}

/** A session's events as a cell: how many, or why there are none. */
export function eventsText(s: { events_read: "read" | "not_requested" | "not_found"; events: unknown[] }): string {
  return s.events_read === "read" ? String(s.events.length) : s.events_read === "not_found" ? "not found (404)" : "not read";
}
