/**
 * CSV renderers: `two_fa_events.csv` and `vettings.csv`. RFC 4180: CRLF between records, and a
 * field holding a comma, a double quote, CR or LF is enclosed in double quotes with inner quotes
 * doubled.
 */
import type { AuditReport } from "../types";

type Cell = string | number | boolean | null | undefined;

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
  const text = String(value);
  if (typeof value === "string" && isFormulaLike(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text, header first; every record (the last too) ends with CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => `${r.map(csvField).join(",")}\r\n`).join("");
}

export const TWO_FA_EVENTS_COLUMNS = ["session_id", "created_at", "event", "status", "charge", "error"] as const;

/** One line per 2FA event, sessions in report order, events in time order. */
export function renderTwoFaEventsCsv(report: AuditReport): string {
  const rows = report.two_fa.sessions.flatMap((s) =>
    s.events.map((e) => [s.session_id, e.created_at, e.event, e.status, e.charge, e.error]),
  );
  return toCsv(TWO_FA_EVENTS_COLUMNS, rows);
}

export const VETTINGS_COLUMNS = [
  "brand_id",
  "vetting_id",
  "evp_id",
  "create_date",
  "vetted_date",
  "vetting_status",
  "vetting_class",
  "vetting_score",
  "reasons",
] as const;

/** One line per vetting; `reasons` joined with "; ". */
export function renderVettingsCsv(report: AuditReport): string {
  const rows = report.ten_dlc.brands.flatMap((b) =>
    b.vettings.map((v) => [
      b.brand_id,
      v.vetting_id,
      v.evp_id,
      v.create_date,
      v.vetted_date,
      v.vetting_status,
      v.vetting_class,
      v.vetting_score,
      v.reasons.join("; "),
    ]),
  );
  return toCsv(VETTINGS_COLUMNS, rows);
}

/**
 * `audit --format csv` on stdout: the events CSV, one empty line, then the vettings CSV (two
 * tables in one stream; `--out DIR` writes them as separate files).
 */
export function renderCsv(report: AuditReport): string {
  return `${renderTwoFaEventsCsv(report)}\r\n${renderVettingsCsv(report)}`;
}
