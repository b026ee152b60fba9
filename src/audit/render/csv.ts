/**
 * The audit as CSV data (docs/AUDIT.md, "CSV"): one table per file (`--out DIR` writes them all;
 * `--format csv` prints one, `--table T`). RFC 4180: CRLF after every record, and a field holding a
 * comma, a double quote, CR or LF is enclosed in double quotes with inner quotes doubled.
 *
 * Every table starts with the same five columns — account_id, period_from, period_to, generated_at,
 * tool_version — so a table read on its own (or appended to yesterday's) still says what it covers;
 * `report` is the one-row header table: the period, what was asked, and the totals.
 */
import { sessionBatches, type SessionSource } from "../store";
import type { AuditReport, AuditReportHead, AuditSession, SessionFigures } from "../types";
import { buffered, type Write } from "./write";

type Cell = string | number | boolean | null | undefined;

/** The tables, in the order `--out DIR` writes them (`<name>.csv`). */
export const CSV_TABLES = ["report", "sessions", "events", "daily", "services", "brands", "vettings", "findings"] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

/**
 * Text a spreadsheet would run as a formula (CSV injection): it starts with `=`, `+`, `-`, `@`, a
 * tab or a carriage return. Numbers written as text (`-0.0050`, a charge) are data, not formulas.
 */
function isFormulaLike(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text);
}

/**
 * One field, quoted only when RFC 4180 requires it. `null`/`undefined` are empty fields. Text from
 * the API that a spreadsheet would run as a formula is neutralised as OWASP recommends ("CSV
 * Injection"): a leading single quote makes it text, and the field is enclosed in double quotes.
 */
export function csvField(value: Cell): string {
  if (value === null || value === undefined) return "";
  // A number or a boolean never needs quoting nor neutralising (this runs for every cell of every row).
  if (typeof value !== "string") return String(value);
  const text = value;
  // Only text starting with one of the formula characters is looked at as a formula.
  const first = text.charCodeAt(0);
  if ((first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) && isFormulaLike(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function record(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

const META = ["account_id", "period_from", "period_to", "generated_at", "tool_version"] as const;

/** What the five shared columns come from: known before the collection ends (a run's sessions' tables are written then). */
export type CsvMeta = Pick<AuditReportHead, "account" | "period" | "generated_at" | "tool">;

/** True when two heads give the same five shared columns. */
export function sameCsvMeta(a: CsvMeta, b: CsvMeta): boolean {
  const x = meta(a);
  const y = meta(b);
  return x.every((v, i) => v === y[i]);
}

function meta(head: CsvMeta): Cell[] {
  return [head.account.id, head.period?.from ?? null, head.period?.to ?? null, head.generated_at, head.tool.version];
}

const figures = (f: SessionFigures): Cell[] => [f.sessions, f.verified, f.not_verified, f.unknown, f.failure_ratio, f.charge_total];

/** Each table's own columns (after the five shared ones). */
export const CSV_COLUMNS: Record<CsvTable, readonly string[]> = {
  report: [
    "previous_from",
    "previous_to",
    "tool",
    "window",
    "asked_sessions",
    "asked_services",
    "asked_brands",
    "max_failure_ratio",
    "min_vetting_score",
    "sessions",
    "verified",
    "not_verified",
    "unknown",
    "failure_ratio",
    "charge_total",
    "previous_sessions",
    "previous_verified",
    "previous_not_verified",
    "previous_unknown",
    "previous_failure_ratio",
    "previous_charge_total",
    "change_sessions",
    "change_failure_ratio",
    "change_charge_total",
    "sessions_in_report",
    "report_charge_total",
    "brands",
    "errors",
    "warnings",
    "complete",
    "gap_count",
    "gap_codes",
    "format_version",
    "api_root",
    "key_fingerprint",
    "requests",
    "retries",
    "rate_limited",
    "runner",
    "events_read",
    "max_vetting_age_days",
  ],
  sessions: [
    "session_id",
    "service_id",
    "service_name",
    "created_at",
    "verified",
    "charge_total",
    "figures_from",
    "events_read",
    "events",
    "first_event_at",
    "last_event_at",
    "last_event",
    "last_event_status",
  ],
  events: ["session_id", "service_id", "created_at", "event", "status", "charge", "error"],
  daily: ["date", "sessions", "verified", "not_verified", "unknown", "failure_ratio", "charge_total", "events_success", "events_failed", "events_pending"],
  services: [
    "service_id",
    "service_name",
    "service_period_from",
    "service_period_to",
    "service_previous_from",
    "service_previous_to",
    "listed_from",
    "listed_to",
    "max_failure_ratio",
    "max_failure_ratio_source",
    "sessions",
    "verified",
    "not_verified",
    "unknown",
    "failure_ratio",
    "charge_total",
    "previous_sessions",
    "previous_verified",
    "previous_not_verified",
    "previous_unknown",
    "previous_failure_ratio",
    "previous_charge_total",
    "change_sessions",
    "change_failure_ratio",
    "change_charge_total",
    "exceeded",
  ],
  brands: ["brand_id", "effective_score", "previous_score", "score_change", "score_fell", "newest_vetting_at", "vetting_age_days", "pending", "vettings", "latest_status", "latest_reasons"],
  vettings: ["brand_id", "vetting_id", "evp_id", "create_date", "vetted_date", "vetting_status", "vetting_class", "vetting_score", "reasons"],
  findings: ["severity", "code", "subject", "message"],
};

/** The rows of a table that the head alone holds (every table but sessions and events). */
function headRows(table: Exclude<CsvTable, "sessions" | "events">, head: AuditReportHead, sessionCount: number): Cell[][] {
  const t = head.two_fa;
  switch (table) {
    case "report": {
      const errors = head.findings.filter((f) => f.severity === "error").length;
      return [
        [
          head.previous_period?.from ?? null,
          head.previous_period?.to ?? null,
          head.tool.name,
          head.asked.window,
          head.asked.two_fa.sessions.join(" "),
          head.asked.two_fa.services.map((s) => s.service_id).join(" "),
          head.asked.ten_dlc.brands === "all" ? "all" : head.asked.ten_dlc.brands.join(" "),
          head.asked.two_fa.max_failure_ratio,
          head.asked.ten_dlc.min_vetting_score,
          ...figures(t.current),
          ...figures(t.previous),
          t.change.sessions,
          t.change.failure_ratio,
          t.change.charge_total,
          sessionCount,
          t.charge_total,
          head.ten_dlc.brands.length,
          errors,
          head.findings.length - errors,
          head.complete,
          head.gaps.count,
          Object.keys(head.gaps.by_code).sort().join(" "),
          head.format_version,
          head.source.api_root,
          head.source.key_fingerprint,
          head.source.requests?.total ?? null,
          head.source.requests?.retries ?? null,
          head.source.requests?.rate_limited ?? null,
          head.runner.kind,
          head.asked.events,
          head.asked.ten_dlc.max_vetting_age_days,
        ],
      ];
    }
    case "daily":
      return t.daily.map((d) => [d.date, ...figures(d), d.events_by_status.success, d.events_by_status.failed, d.events_by_status.pending]);
    case "services":
      return t.services.map((s) => [
        s.service_id,
        s.service_name,
        s.period.from,
        s.period.to,
        s.previous_period.from,
        s.previous_period.to,
        s.listed_days.current.from,
        s.listed_days.current.to,
        s.max_failure_ratio,
        s.max_failure_ratio_source,
        ...figures(s.current),
        ...figures(s.previous),
        s.change.sessions,
        s.change.failure_ratio,
        s.change.charge_total,
        s.exceeded,
      ]);
    case "brands":
      return head.ten_dlc.brands.map((b) => {
        const last = b.vettings[b.vettings.length - 1];
        return [
          b.brand_id,
          b.effective_score,
          b.previous_score,
          b.score_change,
          b.score_fell,
          b.newest_vetting_at,
          b.vetting_age_days,
          b.pending,
          b.vettings.length,
          last?.vetting_status,
          last?.reasons.join("; "),
        ];
      });
    case "vettings":
      return head.ten_dlc.brands.flatMap((b) =>
        b.vettings.map((v) => [b.brand_id, v.vetting_id, v.evp_id, v.create_date, v.vetted_date, v.vetting_status, v.vetting_class, v.vetting_score, v.reasons.join("; ")]),
      );
    case "findings":
      return head.findings.map((f) => [f.severity, f.code, f.subject, f.message]);
  }
}

function sessionRows(table: "sessions" | "events", s: AuditSession): Cell[][] {
  if (table === "events") return s.events.map((e) => [s.session_id, s.service_id, e.created_at, e.event, e.status, e.charge, e.error]);
  const first = s.events[0];
  const last = s.events[s.events.length - 1];
  return [
    [
      s.session_id,
      s.service_id,
      s.service_name,
      s.created_at,
      s.verified,
      s.charge_total,
      s.figures_from,
      s.events_read,
      s.events_read === "read" ? s.events.length : null,
      first?.created_at,
      last?.created_at,
      last?.event,
      last?.status,
    ],
  ];
}

/** One table of a report held in memory. */
export function renderCsvTable(table: CsvTable, report: AuditReport): string {
  const m = meta(report);
  const lines = [record([...META, ...CSV_COLUMNS[table]])];
  if (table === "sessions" || table === "events") {
    for (const s of report.two_fa.sessions) for (const r of sessionRows(table, s)) lines.push(record([...m, ...r]));
  } else {
    for (const r of headRows(table, report, report.two_fa.sessions.length)) lines.push(record([...m, ...r]));
  }
  return lines.join("");
}

/** The same table streamed from a report's head and its sessions. */
export async function writeCsvTable(table: CsvTable, head: AuditReportHead, sessions: SessionSource, write: Write): Promise<void> {
  if (table === "sessions" || table === "events") return writeCsvSessionsTable(table, head, sessions, write);
  const out = buffered(write);
  const m = meta(head);
  await out.write(record([...META, ...CSV_COLUMNS[table]]));
  for (const r of headRows(table, head, sessions.count)) await out.write(record([...m, ...r]));
  await out.flush();
}

/**
 * sessions.csv or events.csv: the sessions and the five shared columns ({@link CsvMeta}) make it
 * whole, so `audit --out` writes it before the rest of the head is known.
 */
export async function writeCsvSessionsTable(table: "sessions" | "events", head: CsvMeta, sessions: SessionSource, write: Write): Promise<void> {
  const out = buffered(write);
  await out.write(record([...META, ...CSV_COLUMNS[table]]));
  // The five shared fields are the same on every row: written once, as `record` writes them.
  const shared = `${meta(head).map(csvField).join(",")},`;
  for await (const batch of sessionBatches(sessions)) {
    for (const s of batch) {
      for (const r of sessionRows(table, s)) {
        const wait = out.write(shared + record(r));
        if (wait) await wait;
      }
    }
  }
  await out.flush();
}
