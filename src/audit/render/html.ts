/**
 * `audit --format html` and `audit.html`: one self-contained page for the people who read the audit
 * (compliance, support). Findings first, then three charts drawn here as inline SVG:
 * 2FA events per day stacked by status (with each day's exact charge total), the verification rate
 * per service against `max_failure_ratio`, and the vetting score per brand against
 * `min_vetting_score` (pending vettings marked).
 *
 * Self-contained on purpose: a Content-Security-Policy of `default-src 'none'` (no script, no
 * network, no external asset), so the page opens the same from a CI artifact, an e-mail or a ticket.
 * Every number shown is derived from the report object itself (what `audit --format json` prints),
 * and carried in `data-*` attributes as well, so a test can check the page against the JSON.
 */
import Decimal from "decimal.js";
import { sumDecimals } from "../../util/decimal";
import type { AuditReport, AuditSession } from "../types";

/** Thresholds from the file's `audit` section, drawn as lines on the charts. */
export interface HtmlRenderOptions {
  /** `audit.two_fa.max_failure_ratio`; without it the rate chart has no line. @default undefined */
  maxFailureRatio?: number;
  /** `audit.ten_dlc.min_vetting_score`; without it the score chart has no line. @default undefined */
  minVettingScore?: number;
}

/** Money is decimal text (as in compute.ts): what the totals accept. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const STATUSES = ["success", "failed", "pending", "other"] as const;
type Status = (typeof STATUSES)[number];
/** Chart colours, each at least 3:1 against the chart (#fff) and the bar track (#f3f3f3). */
export const COLOUR: Record<Status, string> = { success: "#2e7d32", failed: "#c62828", pending: "#9a6200", other: "#767676" };
/** Label of events whose time could not be read (kept as sent by the audit). */
const UNKNOWN_DAY = "unknown";
/** Gaps between days are filled with empty days up to this span, so the axis reads as a calendar. */
const MAX_FILLED_DAYS = 62;

/** Text for HTML content and attribute values. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "–" : `${new Decimal(part).times(100).div(whole).toDecimalPlaces(1).toFixed(1)}%`;
}

// ---------------------------------------------------------------------------------------------
// Data derived from the report (exported for the tests that compare the page with the JSON)

export interface DayBucket {
  day: string;
  counts: Record<Status, number>;
  /** Exact sum of the day's valid charges, at the largest scale among them ("0" without any). */
  charge: string;
}

/** Events per UTC day (from the normalised `created_at`), ascending, unreadable times last. */
export function eventsPerDay(report: AuditReport): DayBucket[] {
  const byDay = new Map<string, { counts: Record<Status, number>; charges: string[] }>();
  const bucket = (day: string) => {
    let b = byDay.get(day);
    if (!b) byDay.set(day, (b = { counts: { success: 0, failed: 0, pending: 0, other: 0 }, charges: [] }));
    return b;
  };
  for (const s of report.two_fa.sessions) {
    for (const e of s.events) {
      // The audit writes readable times as ISO 8601 UTC; anything else was kept as sent.
      const day = /^\d{4}-\d{2}-\d{2}T/.test(e.created_at) ? e.created_at.slice(0, 10) : UNKNOWN_DAY;
      const b = bucket(day);
      const status: Status = e.status === "success" || e.status === "failed" || e.status === "pending" ? e.status : "other";
      b.counts[status] += 1;
      if (DECIMAL_TEXT.test(e.charge)) b.charges.push(e.charge);
    }
  }
  const days = [...byDay.keys()].filter((d) => d !== UNKNOWN_DAY).sort();
  if (days.length > 1) {
    const first = Date.parse(`${days[0]}T00:00:00Z`);
    const last = Date.parse(`${days[days.length - 1]}T00:00:00Z`);
    const span = Math.round((last - first) / 86_400_000);
    if (span < MAX_FILLED_DAYS) {
      for (let t = first; t <= last; t += 86_400_000) bucket(new Date(t).toISOString().slice(0, 10));
    }
  }
  const ordered = [...byDay.keys()].filter((d) => d !== UNKNOWN_DAY).sort();
  if (byDay.has(UNKNOWN_DAY)) ordered.push(UNKNOWN_DAY);
  return ordered.map((day) => {
    const b = byDay.get(day)!;
    return { day, counts: b.counts, charge: b.charges.length === 0 ? "0" : sumDecimals(b.charges) };
  });
}

export interface ServiceRate {
  /** The service ID, or `null` for sessions named directly in the file. */
  service_id: string | null;
  sessions: number;
  verified: number;
}

/** Sessions and verified sessions per service (file order of first appearance; direct sessions last). */
export function ratesPerService(sessions: readonly AuditSession[]): ServiceRate[] {
  const rows = new Map<string | null, ServiceRate>();
  for (const s of sessions) {
    const id = s.service_id ?? null;
    let r = rows.get(id);
    if (!r) rows.set(id, (r = { service_id: id, sessions: 0, verified: 0 }));
    r.sessions += 1;
    if (s.verified) r.verified += 1;
  }
  return [...rows.values()].sort((a, b) => Number(a.service_id === null) - Number(b.service_id === null));
}

/** Unverified > ratio × sessions, exactly (as compute.ts decides the finding). */
function exceeds(unverified: number, sessions: number, ratio: number): boolean {
  return new Decimal(unverified).gt(new Decimal(ratio).times(sessions));
}

// ---------------------------------------------------------------------------------------------
// Charts
//
// Each chart is an inline SVG as wide as the page (`width: 100%`) with no viewBox: text keeps its
// CSS pixel size at any width (never scaled down on a phone), while bar positions and widths are
// percentages of the chart's width, so the bars scale with the viewport. Labels are placed where
// they cannot leave the chart (anchored at a side, or on a line of their own); notes that may be long
// are HTML under the chart, where they wrap.

/** Widths (CSS px) the layout is checked against: a phone, and the page's widest chart. */
const PHONE_CHART_PX = 340;

function niceMax(n: number): number {
  if (n <= 5) return Math.max(1, n);
  const step = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= n) return m * step;
  return 10 * step;
}

const pct = (v: number): string => `${Number(v.toFixed(3))}%`;

function eventsChart(days: DayBucket[]): string {
  if (days.length === 0) return `<p class="empty">No 2FA events in the report.</p>`;
  // Horizontal: percent of the chart's width. Vertical: CSS px.
  const left = 10; // % kept for the value axis
  const plotW = 100 - left - 1;
  const top = 40;
  const plotH = 170;
  const height = top + plotH + 44;
  const slot = plotW / days.length;
  const max = niceMax(Math.max(...days.map((d) => STATUSES.reduce((n, s) => n + d.counts[s], 0))));
  const y = (v: number) => top + plotH - (v / max) * plotH;
  // Day labels: every `wide`-th day on a wide chart, every `narrow`-th (a multiple) on a phone;
  // the others carry class "wide" and are hidden on narrow screens (the stylesheet).
  const wide = Math.ceil(days.length / 14);
  const narrow = wide * Math.ceil(Math.ceil(days.length / 6) / wide);
  const parts: string[] = [];
  const steps = max <= 5 ? max : 5;
  for (let i = 0; i <= steps; i++) {
    const v = (max / steps) * i;
    parts.push(
      `<line x1="${pct(left)}" x2="100%" y1="${y(v)}" y2="${y(v)}" class="grid"/>`,
      `<text x="2" y="${y(v) + 4}" class="tick">${esc(Number.isInteger(v) ? v : v.toFixed(1))}</text>`,
    );
  }
  days.forEach((d, i) => {
    const x = left + slot * i + slot * 0.18;
    const barW = slot * 0.64;
    const total = STATUSES.reduce((n, s) => n + d.counts[s], 0);
    const attrs = STATUSES.map((s) => `data-${s}="${d.counts[s]}"`).join(" ");
    const title = `${d.day}: ${total} events (${STATUSES.filter((s) => d.counts[s] > 0)
      .map((s) => `${d.counts[s]} ${s}`)
      .join(", ")}), charges ${d.charge} USD`;
    parts.push(`<g class="day" data-day="${esc(d.day)}" ${attrs} data-total="${total}" data-charge="${esc(d.charge)}"><title>${esc(title)}</title>`);
    let acc = 0;
    for (const s of STATUSES) {
      const n = d.counts[s];
      if (n === 0) continue;
      parts.push(`<rect x="${pct(x)}" y="${y(acc + n).toFixed(1)}" width="${pct(barW)}" height="${(y(acc) - y(acc + n)).toFixed(1)}" fill="${COLOUR[s]}"/>`);
      acc += n;
    }
    if (i % wide === 0) {
      const cls = i % narrow === 0 ? "" : " wide";
      // The first and last labels of a crowded axis are anchored inside the chart, not centred.
      const crowded = slot * PHONE_CHART_PX / 100 < 56;
      const anchor = crowded && i === 0 ? "start" : crowded && i === days.length - 1 ? "end" : "middle";
      const ax = pct(anchor === "start" ? left + slot * i : anchor === "end" ? left + slot * (i + 1) : x + barW / 2);
      const label = d.day === UNKNOWN_DAY ? "unknown" : d.day.slice(5);
      if (total > 0) parts.push(`<text x="${ax}" y="${y(total) - 4}" text-anchor="${anchor}" class="count${cls}">${total}</text>`);
      parts.push(`<text x="${ax}" y="${top + plotH + 16}" text-anchor="${anchor}" class="tick${cls}">${esc(label)}</text>`);
      if (total > 0) parts.push(`<text x="${ax}" y="${top + plotH + 32}" text-anchor="${anchor}" class="money${cls}">${esc(d.charge)}</text>`);
    }
    parts.push(`</g>`);
  });
  const legend = STATUSES.map(
    (s, i) => `<rect x="${4 + i * 80}" y="8" width="12" height="12" fill="${COLOUR[s]}"/><text x="${21 + i * 80}" y="18" class="tick">${s}</text>`,
  ).join("");
  const year = days.find((d) => d.day !== UNKNOWN_DAY)?.day.slice(0, 4) ?? "";
  return (
    `<svg role="img" aria-label="2FA events per day stacked by status" class="chart" width="100%" height="${height}" xmlns="http://www.w3.org/2000/svg">${legend}${parts.join("")}</svg>` +
    `<p class="note">Day (UTC; year ${esc(year)}), events stacked by status; charge total (USD) under each day.</p>`
  );
}

interface HBar {
  label: string;
  /** The full name, for the tooltip. */
  title: string;
  /** 0..1 of the axis; null draws no bar. */
  fraction: number | null;
  text: string;
  bad: boolean;
  pending?: boolean;
  attrs: string;
}

/** Labels longer than this are shortened (the full text is in the tooltip and the tables). */
const MAX_LABEL = 40;

/**
 * Horizontal bars on a 0..1 axis (the chart's full width) with an optional threshold line. Each row
 * is three lines: its label, its bar, its value; the threshold's label is a line of its own on top.
 */
function hbarChart(rows: HBar[], threshold: { fraction: number; label: string } | null, aria: string, cls: string): string {
  const rowH = 64;
  const top = threshold ? 30 : 6;
  const height = top + rows.length * rowH + 2;
  const parts: string[] = [
    `<defs><pattern id="hatch-${cls}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${COLOUR.pending}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#fff" stroke-width="2"/></pattern></defs>`,
  ];
  rows.forEach((r, i) => {
    const y0 = top + i * rowH;
    const label = r.label.length > MAX_LABEL ? `${r.label.slice(0, MAX_LABEL - 1)}…` : r.label;
    parts.push(`<g class="${cls}" ${r.attrs}><title>${esc(`${r.title}: ${r.text}`)}</title>`);
    parts.push(`<text x="4" y="${y0 + 16}" class="label">${esc(label)}</text>`);
    parts.push(`<rect x="0" y="${y0 + 22}" width="100%" height="18" class="track"/>`);
    if (r.fraction !== null) {
      const fill = r.pending ? `url(#hatch-${cls})` : r.bad ? COLOUR.failed : COLOUR.success;
      parts.push(`<rect x="0" y="${y0 + 22}" width="${pct(100 * Math.max(0, Math.min(1, r.fraction)))}" height="18" fill="${fill}"/>`);
    } else if (r.pending) {
      parts.push(`<rect x="0" y="${y0 + 22}" width="100%" height="18" fill="url(#hatch-${cls})"/>`);
    }
    parts.push(`<text x="4" y="${y0 + 56}" class="${r.bad ? "value bad" : "value"}">${esc(r.text)}</text>`);
    parts.push(`</g>`);
  });
  if (threshold) {
    const x = pct(100 * threshold.fraction);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${top}" y2="${height}" class="threshold"/>`,
      `<line x1="4" x2="26" y1="15" y2="15" class="threshold"/>`,
      `<text x="32" y="19" class="threshold-label">${esc(threshold.label)}</text>`,
    );
  }
  return `<svg role="img" aria-label="${esc(aria)}" class="chart" width="100%" height="${height}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

/** Long IDs shortened to fit the label column (the full ID is in the bar's tooltip and the tables). */
function shortId(id: string): string {
  return id.length > 24 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
}

/** A service as people know it: its `service_name` when the API gave one, else its (shortened) ID. */
function serviceLabel(id: string, name: string | undefined): string {
  return name !== undefined && name.trim() !== "" ? name : `service ${shortId(id)}`;
}

function ratesChart(report: AuditReport, maxFailureRatio: number | undefined): string {
  const sessions = report.two_fa.sessions;
  if (sessions.length === 0) return `<p class="empty">No 2FA sessions in the report.</p>`;
  const names = serviceNames(sessions);
  const all: ServiceRate = { service_id: "all", sessions: sessions.length, verified: sessions.filter((s) => s.verified).length };
  const rows = [...ratesPerService(sessions), all].map((r): HBar => {
    const bad = maxFailureRatio !== undefined && exceeds(r.sessions - r.verified, r.sessions, maxFailureRatio);
    const name = r.service_id === null ? undefined : names.get(r.service_id);
    const label =
      r.service_id === "all"
        ? "All sessions (the finding's basis)"
        : r.service_id === null
          ? "Sessions named in the file"
          : serviceLabel(r.service_id, name);
    return {
      label,
      title: r.service_id === "all" || r.service_id === null ? label : name !== undefined ? `service ${name} (${r.service_id})` : `service ${r.service_id}`,
      fraction: r.verified / r.sessions,
      text: `${r.verified} of ${r.sessions} verified (${percent(r.verified, r.sessions)})`,
      bad,
      attrs: `data-service="${esc(r.service_id ?? "")}"${name !== undefined ? ` data-service-name="${esc(name)}"` : ""} data-sessions="${r.sessions}" data-verified="${r.verified}"`,
    };
  });
  const threshold =
    maxFailureRatio === undefined
      ? null
      : { fraction: 1 - maxFailureRatio, label: `minimum ${percent(new Decimal(1).minus(maxFailureRatio).toNumber(), 1)} (max_failure_ratio ${maxFailureRatio})` };
  return hbarChart(rows, threshold, "Verification rate per 2FA service", "rate");
}

/** Each service's name, from its sessions (the first one naming it). */
function serviceNames(sessions: readonly AuditSession[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of sessions) {
    if (s.service_id !== undefined && s.service_name !== undefined && !names.has(s.service_id)) names.set(s.service_id, s.service_name);
  }
  return names;
}

function scoresChart(report: AuditReport, minVettingScore: number | undefined): string {
  const brands = report.ten_dlc.brands;
  if (brands.length === 0) return `<p class="empty">No 10DLC brands in the report.</p>`;
  const rows = brands.map((b): HBar => {
    const score = b.effective_score;
    const bad = minVettingScore !== undefined && (score === null ? !b.pending : score < minVettingScore);
    const text = `${score === null ? "no score" : `score ${score}`}${b.pending ? " · PENDING" : ""}`;
    return {
      label: shortId(b.brand_id),
      title: `brand ${b.brand_id}`,
      fraction: score === null ? null : score / 100,
      text,
      bad,
      pending: b.pending,
      attrs: `data-brand="${esc(b.brand_id)}" data-score="${score ?? ""}" data-pending="${b.pending}"`,
    };
  });
  const threshold = minVettingScore === undefined ? null : { fraction: minVettingScore / 100, label: `min_vetting_score ${minVettingScore}` };
  return hbarChart(rows, threshold, "Vetting score per 10DLC brand", "brand");
}

// ---------------------------------------------------------------------------------------------
// The page

/**
 * Colours (WCAG 2.1 AA, checked by test/gitops/audit-html.test.ts): text at least 4.5:1 against its
 * background, chart marks at least 3:1 against the chart and the bar track.
 */
const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d1d1f;margin:0;background:#fafafa}
main{max-width:800px;margin:0 auto;padding:24px 20px 48px}
@media (max-width:480px){main{padding:16px 10px 32px}}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#595959;margin:0 0 16px}
.verdict{padding:10px 14px;border-radius:6px;font-weight:600;margin:12px 0}
.verdict.error{background:#fdecea;color:#8e1b1b}.verdict.warning{background:#fff6dd;color:#7a5400}.verdict.ok{background:#e8f5e9;color:#1b5e20}
.table{overflow-x:auto;margin:8px 0}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td code{overflow-wrap:anywhere}
@media (max-width:599px){table.findings thead{display:none}table.findings tr{display:block;border:1px solid #ddd;border-top:none}table.findings tr:first-child{border-top:1px solid #ddd}table.findings td{display:block;border:none;padding:2px 8px}table.findings td.sev{padding-top:6px}}
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}
.sev{font-weight:600;text-transform:uppercase;font-size:12px}.sev.error{color:#c62828}.sev.warning{color:#8a5a00}
.figures{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0}.figures div{background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px 12px}
.figures b{display:block;font-size:18px;font-variant-numeric:tabular-nums}
svg.chart{display:block;background:#fff;border:1px solid #ddd;border-radius:6px;box-sizing:border-box}
svg text{font:12px system-ui,-apple-system,"DejaVu Sans",sans-serif;fill:#333}
svg .tick{fill:#595959}svg .money{fill:#595959;font-size:11px}svg .count{font-weight:600}svg .label{font-weight:600}
svg .grid{stroke:#eee}svg .track{fill:#f3f3f3}svg .value.bad{fill:#c62828;font-weight:600}
svg .threshold{stroke:#1d1d1f;stroke-width:2;stroke-dasharray:5 3}svg .threshold-label{font-weight:600}
@media (max-width:599px){svg .wide{display:none}}
.note{color:#595959;font-size:13px;margin:4px 0 8px}
.empty{color:#595959;font-style:italic}details{margin:8px 0}summary{cursor:pointer;color:#333}
`;

function findingsSection(report: AuditReport): string {
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  const cls = errors > 0 ? "error" : warnings > 0 ? "warning" : "ok";
  const verdict =
    report.findings.length === 0
      ? "No findings: every check passed."
      : `${errors} error finding${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`;
  const rows = report.findings
    .map(
      (f) =>
        `<tr class="finding" data-severity="${esc(f.severity)}" data-code="${esc(f.code)}"><td class="sev ${esc(f.severity)}">${esc(f.severity)}</td><td><code>${esc(f.code)}</code></td><td>${esc(f.subject)}</td><td>${esc(f.message)}</td></tr>`,
    )
    .join("");
  return (
    `<section id="findings"><h2>Findings</h2><p class="verdict ${cls}" data-errors="${errors}" data-warnings="${warnings}">${esc(verdict)}</p>` +
    (rows ? `<div class="table"><table class="findings"><thead><tr><th>Severity</th><th>Code</th><th>Subject</th><th>Message</th></tr></thead><tbody>${rows}</tbody></table></div>` : "") +
    `</section>`
  );
}

function twoFaSection(report: AuditReport, options: HtmlRenderOptions): string {
  const t = report.two_fa;
  const verified = t.sessions.filter((s) => s.verified).length;
  const days = eventsPerDay(report);
  const figures =
    `<div class="figures" id="two-fa-totals" data-sessions="${t.sessions.length}" data-verified="${verified}" data-success="${t.events_by_status.success}" data-failed="${t.events_by_status.failed}" data-pending="${t.events_by_status.pending}" data-charge="${esc(t.charge_total)}">` +
    `<div>Sessions<b>${t.sessions.length}</b></div><div>Verified<b>${verified}</b></div>` +
    `<div>Events succeeded<b>${t.events_by_status.success}</b></div><div>Events failed<b>${t.events_by_status.failed}</b></div>` +
    `<div>Events pending<b>${t.events_by_status.pending}</b></div>` +
    `<div>Charges (USD)<b>${esc(t.charge_total)}</b></div></div>`;
  const dayRows = days
    .filter((d) => STATUSES.some((s) => d.counts[s] > 0))
    .map((d) => `<tr><td>${esc(d.day)}</td>${STATUSES.map((s) => `<td class="num">${d.counts[s]}</td>`).join("")}<td class="num">${esc(d.charge)}</td></tr>`)
    .join("");
  const sessionRows = t.sessions
    .map(
      (s) =>
        `<tr><td><code>${esc(s.session_id)}</code></td><td>${s.service_name !== undefined ? `${esc(s.service_name)} ` : ""}${s.service_id !== undefined ? `<code>${esc(s.service_id)}</code>` : ""}</td><td>${s.verified ? "yes" : "no"}</td><td class="num">${s.events.length}</td><td class="num">${esc(s.charge_total)}</td></tr>`,
    )
    .join("");
  return (
    `<section id="two-fa"><h2>2FA verifications</h2>${figures}` +
    `<h3>Events per day</h3>${eventsChart(days)}` +
    (dayRows
      ? `<details><summary>Events per day as a table</summary><div class="table"><table><thead><tr><th>Day (UTC)</th>${STATUSES.map((s) => `<th>${s}</th>`).join("")}<th>Charges (USD)</th></tr></thead><tbody>${dayRows}</tbody></table></div></details>`
      : "") +
    `<h3>Verification rate per service</h3>${ratesChart(report, options.maxFailureRatio)}` +
    (sessionRows
      ? `<details><summary>Sessions (${t.sessions.length})</summary><div class="table"><table><thead><tr><th>Session</th><th>Service</th><th>Verified</th><th>Events</th><th>Charge (USD)</th></tr></thead><tbody>${sessionRows}</tbody></table></div></details>`
      : "") +
    `</section>`
  );
}

function tenDlcSection(report: AuditReport, options: HtmlRenderOptions): string {
  const brands = report.ten_dlc.brands;
  const rows = brands
    .map((b) => {
      const last = b.vettings[b.vettings.length - 1];
      return `<tr><td><code>${esc(b.brand_id)}</code></td><td class="num">${b.effective_score ?? ""}</td><td>${b.pending ? "yes" : "no"}</td><td class="num">${b.vettings.length}</td><td>${esc(last?.vetting_status ?? "")}</td><td>${esc(last?.reasons.join("; ") ?? "")}</td></tr>`;
    })
    .join("");
  return (
    `<section id="ten-dlc"><h2>10DLC brand vettings</h2>` +
    `<p>${brands.length} brand${brands.length === 1 ? "" : "s"}, ${brands.filter((b) => b.pending).length} with a pending vetting (hatched).</p>` +
    scoresChart(report, options.minVettingScore) +
    (rows
      ? `<details><summary>Brands as a table</summary><div class="table"><table><thead><tr><th>Brand</th><th>Effective score</th><th>Pending</th><th>Vettings</th><th>Latest status</th><th>Latest reasons</th></tr></thead><tbody>${rows}</tbody></table></div></details>`
      : "") +
    `</section>`
  );
}

/** The whole page. Deterministic: the same report and options give the same bytes. */
export function renderHtml(report: AuditReport, options: HtmlRenderOptions = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wavix audit ${esc(report.generated_at)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Wavix audit</h1>
<p class="meta">Generated at <time datetime="${esc(report.generated_at)}">${esc(report.generated_at)}</time> by wavix-sync.</p>
${findingsSection(report)}
${twoFaSection(report, options)}
${tenDlcSection(report, options)}
</main>
</body>
</html>
`;
}
