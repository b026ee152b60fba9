/**
 * `audit --format html` and `audit.html`: one self-contained page for the people who read the audit
 * (compliance, support). First what it covers — account, period, what was compared, what was asked,
 * when and by which version — then the verdict and findings, then three charts drawn here as inline
 * SVG: the services' sessions per day of the period (zero days included) stacked verified / not
 * verified with each day's exact charges, the verification rate per service against its own
 * `max_failure_ratio` with the previous period beside it, and the vetting score per brand against
 * `min_vetting_score` (pending vettings hatched, a fall from the previous score said).
 *
 * Self-contained on purpose: a Content-Security-Policy of `default-src 'none'` (no script, no
 * network, no external asset), so the page opens the same from a CI artifact, an e-mail or a ticket.
 * Every number shown is taken from the report object itself (what `audit --format json` prints),
 * and carried in `data-*` attributes as well, so a test can check the page against the JSON.
 */
import Decimal from "decimal.js";
import { sampleOf, type SessionSample } from "../store";
import type { AuditReport, AuditReportHead, DailyFigures, SessionFigures } from "../types";
import { askedText, completenessText, eventsText, periodText, ratioWithPercent, runnerText, signed, sourceText, verdict, verifiedText } from "./summary";

/** Chart colours, each at least 3:1 against the chart (#fff) and the bar track (#f3f3f3). */
export const COLOUR = { verified: "#2e7d32", not_verified: "#c62828", pending: "#9a6200", neutral: "#767676" } as const;

/** Text for HTML content and attribute values. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "–" : `${new Decimal(part).times(100).div(whole).toDecimalPlaces(1).toFixed(1)}%`;
}

// ---------------------------------------------------------------------------------------------
// Charts
//
// Each chart is an inline SVG as wide as the page (`width: 100%`) with no viewBox: text keeps its
// CSS pixel size at any width (never scaled down on a phone), while bar positions and widths are
// percentages of the chart's width, so the bars scale with the viewport. Labels are placed where
// they cannot leave the chart (anchored at a side, or on a line of their own); notes that may be long
// are HTML under the chart, where they wrap.

/** Width (CSS px) the layout is checked against on a phone. */
const PHONE_CHART_PX = 340;
/** The narrowest chart (CSS px) that shows the `wide` labels: a 600 px window less the page's padding. */
const WIDE_CHART_PX = 560;
/** Width of one character of a charge label (11 px digits: DejaVu Sans and system fonts stay under 0.64 em), and the gap between labels. */
const MONEY_CHAR_PX = 7.1;
const MONEY_GAP_PX = 8;

function niceMax(n: number): number {
  if (n <= 5) return Math.max(1, n);
  const step = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= n) return m * step;
  return 10 * step;
}

const pct = (v: number): string => `${Number(v.toFixed(3))}%`;

function dailyChart(days: readonly DailyFigures[]): string {
  if (days.length === 0) return `<p class="empty">No period: no 2FA service is audited.</p>`;
  // Horizontal: percent of the chart's width. Vertical: CSS px.
  const left = 10; // % kept for the value axis
  const plotW = 100 - left - 1;
  const top = 40;
  const plotH = 170;
  const height = top + plotH + 44;
  const slot = plotW / days.length;
  const max = niceMax(Math.max(...days.map((d) => d.sessions)));
  const y = (v: number) => top + plotH - (v / max) * plotH;
  // Day labels: every `wide`-th day on a wide chart, every `narrow`-th (a multiple) on a phone;
  // the others carry class "wide" and are hidden on narrow screens (the stylesheet).
  const wide = Math.ceil(days.length / 14);
  const narrow = wide * Math.ceil(Math.ceil(days.length / 6) / wide);
  // Charge labels: as far apart as the longest one needs, on the narrowest chart of each kind.
  const moneyNeed = Math.max(...days.map((d) => d.charge_total.length)) * MONEY_CHAR_PX + MONEY_GAP_PX;
  const slotPx = (chartPx: number) => (slot * chartPx) / 100;
  const moneyWide = wide * Math.max(1, Math.ceil(moneyNeed / (slotPx(WIDE_CHART_PX) * wide)));
  const moneyNarrow = moneyWide * Math.max(1, Math.ceil(moneyNeed / (slotPx(PHONE_CHART_PX) * moneyWide)), Math.ceil(narrow / moneyWide));
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
    const title = `${d.date}: ${d.sessions} sessions (${d.verified} verified, ${d.not_verified} not verified), charges ${d.charge_total} USD`;
    parts.push(
      `<g class="day" data-day="${esc(d.date)}" data-sessions="${d.sessions}" data-verified="${d.verified}" data-not-verified="${d.not_verified}" data-charge="${esc(d.charge_total)}"><title>${esc(title)}</title>`,
    );
    let acc = 0;
    for (const [n, colour] of [
      [d.verified, COLOUR.verified],
      [d.not_verified, COLOUR.not_verified],
    ] as const) {
      if (n === 0) continue;
      parts.push(`<rect x="${pct(x)}" y="${y(acc + n).toFixed(1)}" width="${pct(barW)}" height="${(y(acc) - y(acc + n)).toFixed(1)}" fill="${colour}"/>`);
      acc += n;
    }
    if (i % wide === 0) {
      const cls = i % narrow === 0 ? "" : " wide";
      // The first and last labels of a crowded axis are anchored inside the chart, not centred.
      const crowded = (slot * PHONE_CHART_PX) / 100 < 56;
      const anchor = crowded && i === 0 ? "start" : crowded && i === days.length - 1 ? "end" : "middle";
      const ax = pct(anchor === "start" ? left + slot * i : anchor === "end" ? left + slot * (i + 1) : x + barW / 2);
      if (d.sessions > 0) parts.push(`<text x="${ax}" y="${y(d.sessions) - 4}" text-anchor="${anchor}" class="count${cls}">${d.sessions}</text>`);
      parts.push(`<text x="${ax}" y="${top + plotH + 16}" text-anchor="${anchor}" class="tick${cls}">${esc(d.date.slice(5))}</text>`);
    }
    if (d.sessions > 0 && i % moneyWide === 0) {
      // A charge label never overlaps the next one (they are spaced by the longest label) and is
      // never cut by the chart's edge (anchored inside it when half of it would stick out).
      const cls = i % moneyNarrow === 0 ? "" : " wide";
      const halfPct = ((moneyNeed / 2) * 100) / PHONE_CHART_PX;
      const centre = x + barW / 2;
      const anchor = centre - halfPct < 0 ? "start" : centre + halfPct > 100 ? "end" : "middle";
      const ax = pct(anchor === "start" ? left + slot * i : anchor === "end" ? left + slot * (i + 1) : centre);
      parts.push(`<text x="${ax}" y="${top + plotH + 32}" text-anchor="${anchor}" class="money${cls}">${esc(d.charge_total)}</text>`);
    }
    parts.push(`</g>`);
  });
  const legend = [
    [COLOUR.verified, "verified"],
    [COLOUR.not_verified, "not verified"],
  ]
    .map(([colour, label], i) => `<rect x="${4 + i * 90}" y="8" width="12" height="12" fill="${colour}"/><text x="${21 + i * 90}" y="18" class="tick">${label}</text>`)
    .join("");
  return (
    `<svg role="img" aria-label="2FA sessions per day, verified and not verified" class="chart" width="100%" height="${height}" xmlns="http://www.w3.org/2000/svg">${legend}${parts.join("")}</svg>` +
    `<p class="note">Every day of the period (UTC, year ${esc(days[0].date.slice(0, 4))}${days[0].date.slice(0, 4) !== days[days.length - 1].date.slice(0, 4) ? `–${esc(days[days.length - 1].date.slice(0, 4))}` : ""}), days without sessions included: the services' sessions by the day each was created; charges (USD) under each labelled day.</p>`
  );
}

interface HBar {
  label: string;
  /** The full name, for the tooltip. */
  title: string;
  /** 0..1 of the axis; null draws no bar. */
  fraction: number | null;
  text: string;
  /** A fourth line under the value (the previous period), optional. */
  note?: string;
  bad: boolean;
  pending?: boolean;
  /** This row's threshold, 0..1 of the axis. */
  threshold?: number;
  attrs: string;
}

/** Labels longer than this are shortened (the full text is in the tooltip and the tables). */
const MAX_LABEL = 40;

/**
 * Horizontal bars on a 0..1 axis (the chart's full width), each with its own threshold mark. Each
 * row is three or four lines: its label, its bar, its value, and a note.
 */
function hbarChart(rows: HBar[], aria: string, cls: string, legend: string | null): string {
  const withNotes = rows.some((r) => r.note !== undefined);
  const rowH = withNotes ? 80 : 64;
  const top = legend ? 30 : 6;
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
      const fill = r.pending ? `url(#hatch-${cls})` : r.bad ? COLOUR.not_verified : COLOUR.verified;
      parts.push(`<rect x="0" y="${y0 + 22}" width="${pct(100 * Math.max(0, Math.min(1, r.fraction)))}" height="18" fill="${fill}"/>`);
    } else if (r.pending) {
      parts.push(`<rect x="0" y="${y0 + 22}" width="100%" height="18" fill="url(#hatch-${cls})"/>`);
    }
    if (r.threshold !== undefined) {
      const x = pct(100 * Math.max(0, Math.min(1, r.threshold)));
      parts.push(`<line x1="${x}" x2="${x}" y1="${y0 + 18}" y2="${y0 + 44}" class="threshold"/>`);
    }
    parts.push(`<text x="4" y="${y0 + 56}" class="${r.bad ? "value bad" : "value"}">${esc(r.text)}</text>`);
    if (r.note !== undefined) parts.push(`<text x="4" y="${y0 + 72}" class="tick">${esc(r.note)}</text>`);
    parts.push(`</g>`);
  });
  if (legend) {
    parts.push(`<line x1="4" x2="26" y1="15" y2="15" class="threshold"/>`, `<text x="32" y="19" class="threshold-label">${esc(legend)}</text>`);
  }
  return `<svg role="img" aria-label="${esc(aria)}" class="chart" width="100%" height="${height}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

/** Long IDs shortened to fit the label column (the full ID is in the bar's tooltip and the tables). */
function shortId(id: string): string {
  return id.length > 24 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
}

function rateRow(id: string, label: string, title: string, f: SessionFigures, max: number | null, exceeded: boolean, previous?: SessionFigures): HBar {
  const minimum = max === null ? "" : ` · min ${percent(new Decimal(1).minus(max).toNumber(), 1)}`;
  return {
    label,
    title,
    fraction: f.sessions === 0 ? null : f.verified / f.sessions,
    text: f.sessions === 0 ? `no sessions in the period${minimum}` : `${f.verified} of ${f.sessions} verified (${percent(f.verified, f.sessions)})${minimum}`,
    ...(previous ? { note: previous.sessions === 0 ? "previous period: no sessions" : `previous period: ${previous.verified} of ${previous.sessions} (${percent(previous.verified, previous.sessions)})` } : {}),
    bad: exceeded,
    ...(max !== null ? { threshold: 1 - max } : {}),
    attrs: `data-service="${esc(id)}" data-sessions="${f.sessions}" data-verified="${f.verified}" data-max="${max ?? ""}" data-exceeded="${exceeded}"${previous ? ` data-previous-sessions="${previous.sessions}" data-previous-verified="${previous.verified}"` : ""}`,
  };
}

function ratesChart(head: AuditReportHead): string {
  const t = head.two_fa;
  const rows = t.services.map((s) =>
    rateRow(
      s.service_id,
      s.service_name !== undefined && s.service_name.trim() !== "" ? s.service_name : `service ${shortId(s.service_id)}`,
      s.service_name !== undefined ? `service ${s.service_name} (${s.service_id})` : `service ${s.service_id}`,
      s.current,
      s.max_failure_ratio,
      s.exceeded,
      s.previous,
    ),
  );
  if (t.named_sessions) {
    const n = t.named_sessions;
    rows.push(rateRow("", "Sessions named in the file", "sessions named in the file", n.current, n.max_failure_ratio, n.exceeded));
  }
  if (rows.length === 0) return `<p class="empty">No 2FA service or session is audited.</p>`;
  const anyThreshold = rows.some((r) => r.threshold !== undefined);
  return hbarChart(rows, "Verification rate per 2FA service", "rate", anyThreshold ? "each row's minimum rate (1 − max_failure_ratio)" : null);
}

function scoresChart(head: AuditReportHead): string {
  const brands = head.ten_dlc.brands;
  const minimum = head.asked.ten_dlc.min_vetting_score;
  if (brands.length === 0) return `<p class="empty">No 10DLC brands in the report.</p>`;
  const rows = brands.map((b): HBar => {
    const score = b.effective_score;
    const bad = minimum !== null && (score === null ? !b.pending : score < minimum);
    const trend = b.previous_score === null ? "" : b.score_fell ? `, down from ${b.previous_score}` : `, was ${b.previous_score}`;
    const text = `${score === null ? "no score" : `score ${score}${trend}`}${b.pending ? " · PENDING" : ""}`;
    return {
      label: shortId(b.brand_id),
      title: `brand ${b.brand_id}`,
      fraction: score === null ? null : score / 100,
      text,
      bad,
      pending: b.pending,
      ...(minimum !== null ? { threshold: minimum / 100 } : {}),
      attrs: `data-brand="${esc(b.brand_id)}" data-score="${score ?? ""}" data-previous="${b.previous_score ?? ""}" data-fell="${b.score_fell}" data-pending="${b.pending}"`,
    };
  });
  return hbarChart(rows, "Vetting score per 10DLC brand", "brand", minimum !== null ? `min_vetting_score ${minimum}` : null);
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
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
dl.covers{margin:0 0 12px;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
dl.covers dt{color:#595959}dl.covers dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.verdict{padding:10px 14px;border-radius:6px;font-weight:600;margin:12px 0}
.verdict.error{background:#fdecea;color:#8e1b1b}.verdict.warning{background:#fff6dd;color:#7a5400}.verdict.ok{background:#e8f5e9;color:#1b5e20}.verdict.empty{background:#eceff1;color:#263238}
.table{overflow-x:auto;margin:8px 0}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td code{overflow-wrap:anywhere}
@media (min-width:600px){table.findings td.code code{overflow-wrap:normal;white-space:nowrap}}
@media (max-width:599px){table.findings thead{display:none}table.findings tr{display:block;border:1px solid #ddd;border-top:none}table.findings tr:first-child{border-top:1px solid #ddd}table.findings td{display:block;border:none;padding:2px 8px}table.findings td.sev{padding-top:6px}}
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}
.sev{font-weight:600;text-transform:uppercase;font-size:12px}.sev.error{color:#c62828}.sev.warning{color:#8a5a00}
.figures{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0}.figures div{background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px 12px}
.figures b{display:block;font-size:18px;font-variant-numeric:tabular-nums}.figures small{display:block;color:#595959;font-size:12px}
svg.chart{display:block;background:#fff;border:1px solid #ddd;border-radius:6px;box-sizing:border-box}
svg text{font:12px system-ui,-apple-system,"DejaVu Sans",sans-serif;fill:#333}
svg .tick{fill:#595959}svg .money{fill:#595959;font-size:11px}svg .count{font-weight:600}svg .label{font-weight:600}
svg .grid{stroke:#eee}svg .track{fill:#f3f3f3}svg .value.bad{fill:#c62828;font-weight:600}
svg .threshold{stroke:#1d1d1f;stroke-width:2;stroke-dasharray:5 3}svg .threshold-label{font-weight:600}
@media (max-width:599px){svg .wide{display:none}}
.note{color:#595959;font-size:13px;margin:4px 0 8px}
.incomplete{color:#c62828;font-weight:600}
.empty{color:#595959;font-style:italic}details{margin:8px 0}summary{cursor:pointer;color:#333}
`;

function coversSection(head: AuditReportHead): string {
  const p = head.period;
  const attrs = `data-account="${head.account.id}" data-period-from="${esc(p?.from ?? "")}" data-period-to="${esc(p?.to ?? "")}" data-generated-at="${esc(head.generated_at)}" data-tool="${esc(head.tool.name)}" data-tool-version="${esc(head.tool.version)}"`;
  const row = (id: string, dt: string, dd: string) => `<dt>${dt}</dt><dd id="${id}">${dd}</dd>`;
  return (
    `<dl class="covers" ${attrs}>` +
    row("account", "Account", esc(head.account.id)) +
    row("period", "Period", `${esc(periodText(p))}${p ? ` <small>(${esc(p.from)} to ${esc(p.to)}, end excluded)</small>` : ""}`) +
    (head.previous_period
      ? row("previous-period", "Compared with", `${esc(periodText(head.previous_period))}, the previous period`)
      : head.two_fa.services.length > 0
        ? row("previous-period", "Compared with", "each service's own previous period (the services' periods differ)")
        : "") +
    row("asked", "Asked", esc(askedText(head) || "nothing")) +
    row("generated", "Generated", `<time datetime="${esc(head.generated_at)}">${esc(head.generated_at)}</time> by ${esc(head.tool.name)} ${esc(head.tool.version)} (report format ${head.format_version}), ${esc(runnerText(head))}`) +
    row("source", "Read from", esc(sourceText(head))) +
    row("completeness", "Completeness", `<span class="${head.complete ? "complete" : "incomplete"}" data-complete="${head.complete}" data-gaps="${head.gaps.count}">${esc(completenessText(head))}</span>`) +
    `</dl>`
  );
}

/** How the figures are made, and every data gap (the first 100; all are in audit.json). */
function methodSection(head: AuditReportHead): string {
  const gaps = head.gaps.items.slice(0, 100);
  return (
    `<section id="methodology"><h2>How the figures are made</h2><ul>${head.methodology.map((m) => `<li>${esc(m)}</li>`).join("")}</ul></section>` +
    (head.complete
      ? ""
      : `<section id="gaps"><h2>Data gaps</h2><div class="table"><table class="findings"><thead><tr><th>Code</th><th>Subject</th><th>What is missing</th></tr></thead><tbody>${gaps
          .map((g) => `<tr class="gap" data-code="${esc(g.code)}"><td class="code"><code>${esc(g.code)}</code></td><td><code>${esc(g.subject)}</code></td><td>${esc(g.message)}</td></tr>`)
          .join("")}</tbody></table></div>${head.gaps.count > gaps.length ? `<p class="note">… and ${head.gaps.count - gaps.length} more (every gap is in audit.json).</p>` : ""}</section>`)
  );
}

function findingsSection(head: AuditReportHead, sessionCount: number): string {
  const v = verdict(head, sessionCount);
  const rows = head.findings
    .map(
      (f) =>
        `<tr class="finding" data-severity="${esc(f.severity)}" data-code="${esc(f.code)}"><td class="sev ${esc(f.severity)}">${esc(f.severity)}</td><td class="code"><code>${esc(f.code)}</code></td><td><code>${esc(f.subject)}</code></td><td>${esc(f.message)}</td></tr>`,
    )
    .join("");
  return (
    `<section id="findings"><h2>Findings</h2><p class="verdict ${v.kind}" data-errors="${v.errors}" data-warnings="${v.warnings}">${esc(v.text)}</p>` +
    (rows ? `<div class="table"><table class="findings"><thead><tr><th>Severity</th><th>Code</th><th>Subject</th><th>Message</th></tr></thead><tbody>${rows}</tbody></table></div>` : "") +
    `</section>`
  );
}

function figure(label: string, value: string, change?: string): string {
  return `<div>${esc(label)}<b>${esc(value)}</b>${change !== undefined ? `<small>${esc(change)}</small>` : ""}</div>`;
}

function twoFaSection(head: AuditReportHead, sample: SessionSample): string {
  const t = head.two_fa;
  const c = t.current;
  const attrs = [
    `data-sessions="${c.sessions}"`,
    `data-verified="${c.verified}"`,
    `data-not-verified="${c.not_verified}"`,
    `data-failure-ratio="${esc(c.failure_ratio ?? "")}"`,
    `data-charge="${esc(c.charge_total)}"`,
    `data-previous-sessions="${t.previous.sessions}"`,
    `data-previous-failure-ratio="${esc(t.previous.failure_ratio ?? "")}"`,
    `data-previous-charge="${esc(t.previous.charge_total)}"`,
    `data-change-sessions="${t.change.sessions}"`,
    `data-change-failure-ratio="${esc(t.change.failure_ratio ?? "")}"`,
    `data-change-charge="${esc(t.change.charge_total)}"`,
    `data-report-sessions="${sample.total}"`,
    `data-report-charge="${esc(t.charge_total)}"`,
  ].join(" ");
  const vs = (x: string) => `${x} vs the previous period`;
  const figures =
    t.services.length > 0
      ? `<div class="figures" id="two-fa-totals" ${attrs}>` +
        figure("Sessions", String(c.sessions), vs(signed(t.change.sessions))) +
        figure("Not verified", String(c.not_verified), `previous ${t.previous.not_verified}`) +
        figure(
          "Failure ratio",
          c.failure_ratio === null ? "–" : percent(c.not_verified, c.sessions),
          // In percentage points, like the figure; the exact change is in data-change-failure-ratio.
          t.change.failure_ratio === null ? "no previous ratio" : vs(`${signed(new Decimal(t.change.failure_ratio).times(100).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1))} points`),
        ) +
        figure("Charges (USD)", c.charge_total, vs(signed(t.change.charge_total))) +
        `</div>` +
        `<p class="note">The services' sessions created in the period; the previous period had ${esc(t.previous.sessions)} (failure ratio ${esc(ratioWithPercent(t.previous.failure_ratio))}, charges ${esc(t.previous.charge_total)} USD). Every session in the report${t.named_sessions ? " (with those named in the file)" : ""}: ${sample.total}, charges ${esc(t.charge_total)} USD; events ${t.events_by_status.success} succeeded, ${t.events_by_status.failed} failed, ${t.events_by_status.pending} pending.</p>`
      : `<div class="figures" id="two-fa-totals" ${attrs}>` +
        figure("Sessions", String(sample.total)) +
        figure("Charges (USD)", t.charge_total) +
        `</div>`;
  const dayRows = t.daily
    .map((d) => `<tr><td>${esc(d.date)}</td><td class="num">${d.sessions}</td><td class="num">${d.verified}</td><td class="num">${d.not_verified}</td><td class="num">${esc(d.charge_total)}</td></tr>`)
    .join("");
  const serviceRows = t.services
    .map(
      (s) =>
        `<tr><td>${s.service_name !== undefined ? `${esc(s.service_name)} ` : ""}<code>${esc(s.service_id)}</code></td><td class="num">${s.current.sessions}</td><td class="num">${s.current.not_verified}</td><td>${esc(ratioWithPercent(s.current.failure_ratio))}</td><td>${s.max_failure_ratio ?? "–"}</td><td class="num">${s.previous.sessions}</td><td>${esc(ratioWithPercent(s.previous.failure_ratio))}</td><td class="num">${esc(s.current.charge_total)}</td><td class="num">${esc(signed(s.change.charge_total))}</td></tr>`,
    )
    .join("");
  const sessionRows = sample.sessions
    .map(
      (s) =>
        `<tr><td><code>${esc(s.session_id)}</code></td><td>${s.service_name !== undefined ? `${esc(s.service_name)} ` : ""}${s.service_id !== undefined ? `<code>${esc(s.service_id)}</code>` : "named in the file"}</td><td>${verifiedText(s.verified)}</td><td class="num">${esc(eventsText(s))}</td><td class="num">${esc(s.charge_total ?? "unknown")}</td></tr>`,
    )
    .join("");
  const sessionsTitle =
    sample.kind === "all" ? `Sessions (${sample.total})` : `Sessions not verified (the first ${sample.sessions.length} of ${sample.total} sessions; all are in audit.json and sessions.csv)`;
  return (
    `<section id="two-fa"><h2>2FA verifications</h2>${figures}` +
    (t.services.length > 0
      ? `<h3>Sessions per day</h3>${dailyChart(t.daily)}` +
        `<details><summary>Sessions per day as a table</summary><div class="table"><table><thead><tr><th>Day (UTC)</th><th>Sessions</th><th>Verified</th><th>Not verified</th><th>Charges (USD)</th></tr></thead><tbody>${dayRows}</tbody></table></div></details>`
      : "") +
    `<h3>Verification rate per service</h3>${ratesChart(head)}` +
    (serviceRows
      ? `<details><summary>Services as a table</summary><div class="table"><table><thead><tr><th>Service</th><th>Sessions</th><th>Not verified</th><th>Failure ratio</th><th>Max</th><th>Previous sessions</th><th>Previous ratio</th><th>Charges (USD)</th><th>Change (USD)</th></tr></thead><tbody>${serviceRows}</tbody></table></div></details>`
      : "") +
    (sessionRows
      ? `<details><summary>${esc(sessionsTitle)}</summary><div class="table"><table><thead><tr><th>Session</th><th>Service</th><th>Verified</th><th>Events</th><th>Charge (USD)</th></tr></thead><tbody>${sessionRows}</tbody></table></div></details>`
      : "") +
    `</section>`
  );
}

function tenDlcSection(head: AuditReportHead): string {
  const brands = head.ten_dlc.brands;
  const rows = brands
    .map((b) => {
      const last = b.vettings[b.vettings.length - 1];
      return `<tr><td><code>${esc(b.brand_id)}</code></td><td class="num">${b.effective_score ?? ""}</td><td class="num">${b.previous_score ?? ""}</td><td>${esc(b.newest_vetting_at ?? "")}</td><td class="num">${b.vetting_age_days ?? ""}</td><td>${b.pending ? "yes" : "no"}</td><td>${esc(last?.vetting_status ?? "")}</td><td>${esc(last?.reasons.join("; ") ?? "")}</td></tr>`;
    })
    .join("");
  return (
    `<section id="ten-dlc"><h2>10DLC brand vettings</h2>` +
    `<p>${brands.length} brand${brands.length === 1 ? "" : "s"} as of ${esc(head.generated_at)}: ${brands.filter((b) => b.pending).length} with a pending vetting (hatched), ${brands.filter((b) => b.score_fell).length} whose score fell at the newest vetting.</p>` +
    scoresChart(head) +
    (rows
      ? `<details><summary>Brands as a table</summary><div class="table"><table><thead><tr><th>Brand</th><th>Score</th><th>Previous score</th><th>Newest vetting</th><th>Age (days)</th><th>Pending</th><th>Latest status</th><th>Latest reasons</th></tr></thead><tbody>${rows}</tbody></table></div></details>`
      : "") +
    `</section>`
  );
}

export function renderHtml(report: AuditReport): string {
  return renderHtmlHead(report, sampleOf(report.two_fa.sessions));
}

/** The whole page from a report's head and the sessions it lists. Deterministic: the same input gives the same bytes. */
export function renderHtmlHead(head: AuditReportHead, sample: SessionSample): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wavix audit of account ${esc(head.account.id)}, ${esc(periodText(head.period))}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Wavix audit</h1>
${coversSection(head)}
${findingsSection(head, sample.total)}
${twoFaSection(head, sample)}
${tenDlcSection(head)}
${methodSection(head)}
</main>
</body>
</html>
`;
}
