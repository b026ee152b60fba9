/**
 * `audit --format md` (the default) and `audit.md`: what the report covers first (account, period,
 * what was asked, when and by which version), the verdict and findings (what a reviewer acts on),
 * then the 2FA figures against the previous period, per service and per day, and the 10DLC brands.
 * Sessions are listed when there are at most 100 (else the first 100 not verified; all of them are
 * in audit.json and sessions.csv), so the page stays readable at any scale.
 */
import { mdCode, mdText } from "../../util/md-text";
import { sampleOf, type SessionSample } from "../store";
import type { AuditReport, AuditReportHead } from "../types";
import { askedText, completenessText, eventsText, figuresText, periodText, ratioWithPercent, runnerText, signed, sourceText, verdict, verifiedText } from "./summary";

/**
 * A table cell, inert like plan.md's values (`mdText`): HTML special characters as entities (a
 * server's `</td><script>` stays text), Markdown punctuation escaped, no mentions, `|` escaped so the
 * row stays one row; line breaks kept as `<br>`.
 */
export function mdCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  return String(value)
    .split(/\r\n|\r|\n/)
    .map(mdText)
    .join("<br>");
}

/** A cell rendered already (our own identifiers as inline code). */
interface Rendered {
  md: string;
}

type Cell = string | number | boolean | null | Rendered;

function table(header: readonly string[], rows: readonly (readonly Cell[])[]): string[] {
  const cell = (v: Cell): string => (v !== null && typeof v === "object" ? v.md : mdCell(v));
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)];
}

export function renderMarkdown(report: AuditReport): string {
  return renderMarkdownHead(report, sampleOf(report.two_fa.sessions));
}

/** The page from a report's head and the sessions it lists ({@link SessionSample}). */
export function renderMarkdownHead(head: AuditReportHead, sample: SessionSample): string {
  const t = head.two_fa;
  const v = verdict(head, sample.total);
  const lines: string[] = [
    "# Wavix audit",
    "",
    `- **Account:** ${mdCell(head.account.id)}`,
    `- **Period:** ${mdCell(periodText(head.period))}${head.period ? ` — from ${mdCell(head.period.from)} to ${mdCell(head.period.to)} (end excluded)` : ""}`,
    ...(head.previous_period
      ? [`- **Compared with:** ${mdCell(periodText(head.previous_period))}, the previous period of the same length`]
      : t.services.length > 0
        ? ["- **Compared with:** each service's own previous period (the services' periods differ; see Per service)"]
        : []),
    `- **Asked:** ${mdCell(askedText(head)) || "nothing"}`,
    `- **Generated:** ${mdCell(head.generated_at)} by ${mdCell(head.tool.name)} ${mdCell(head.tool.version)} (report format ${head.format_version}), ${mdCell(runnerText(head))}`,
    `- **Read from:** ${mdCell(sourceText(head))}`,
    `- **Completeness:** ${mdCell(completenessText(head))}`,
    "",
    `**Result:** ${mdCell(v.text)}`,
    "",
    "## Findings",
    "",
  ];
  if (head.findings.length === 0) lines.push(v.kind === "empty" ? "No findings, and nothing was checked." : "No findings.");
  else lines.push(...table(["Severity", "Code", "Subject", "Message"], head.findings.map((f) => [f.severity, { md: mdCode(f.code) }, f.subject, f.message])));
  lines.push("");

  lines.push("## 2FA verifications", "");
  if (t.services.length > 0) {
    lines.push(
      `- **In the period** (the services' sessions): ${mdCell(figuresText(t.current))}`,
      `- **Previous period:** ${mdCell(figuresText(t.previous))}`,
      `- **Change:** ${mdCell(`${signed(t.change.sessions)} sessions, failure ratio ${signed(t.change.failure_ratio)}, charges ${signed(t.change.charge_total)} USD`)}`,
    );
  }
  if (t.named_sessions) lines.push(`- **Sessions named in the file:** ${mdCell(figuresText(t.named_sessions.current))}`);
  lines.push(
    `- **Every session in the report** (${sample.total}): events ${t.events_by_status.success} success, ${t.events_by_status.failed} failed, ${t.events_by_status.pending} pending; charges ${mdCell(t.charge_total)} USD`,
    "",
  );

  if (t.services.length > 0) {
    lines.push("### Per service", "");
    lines.push(
      ...table(
        ["Service", "Period", "Sessions", "Not verified", "Unknown", "Failure ratio", "Max", "Previous period", "Previous sessions", "Previous ratio", "Change in ratio", "Charges (USD)", "Change (USD)"],
        t.services.map((s) => [
          s.service_name !== undefined ? `${s.service_name} (${s.service_id})` : s.service_id,
          periodText(s.period),
          s.current.sessions,
          s.current.not_verified,
          s.current.unknown,
          `${ratioWithPercent(s.current.failure_ratio)}${s.exceeded ? " — above max" : ""}`,
          s.max_failure_ratio === null ? "–" : `${s.max_failure_ratio}${s.max_failure_ratio_source === "two_fa" ? " (default)" : ""}`,
          periodText(s.previous_period),
          s.previous.sessions,
          ratioWithPercent(s.previous.failure_ratio),
          signed(s.change.failure_ratio),
          s.current.charge_total,
          signed(s.change.charge_total),
        ]),
      ),
      "",
    );
    lines.push("### Per day", "");
    lines.push(
      ...table(
        ["Day (UTC)", "Sessions", "Verified", "Not verified", "Failure ratio", "Charges (USD)"],
        t.daily.map((d) => [d.date, d.sessions, d.verified, d.not_verified, ratioWithPercent(d.failure_ratio), d.charge_total]),
      ),
      "",
    );
  }

  if (sample.total > 0) {
    const title =
      sample.kind === "all"
        ? `### Sessions (${sample.total})`
        : `### Sessions not verified (${sample.sessions.length === 0 ? "none" : `the first ${sample.sessions.length}`} of ${sample.total} sessions; every session is in audit.json and sessions.csv)`;
    lines.push(title, "");
    if (sample.sessions.length > 0) {
      lines.push(
        ...table(
          ["Session", "Service", "Verified", "Events", "Charge (USD)", "Last event"],
          sample.sessions.map((s) => {
            const last = s.events[s.events.length - 1];
            return [
              s.session_id,
              s.service_name ?? s.service_id ?? "named in the file",
              verifiedText(s.verified),
              eventsText(s),
              s.charge_total,
              last ? `${last.event} (${last.status}) at ${last.created_at}` : null,
            ];
          }),
        ),
      );
    }
    lines.push("");
  }

  const brands = head.ten_dlc.brands;
  lines.push("## 10DLC brand vettings", "");
  lines.push(
    `- Brands: ${brands.length} (${brands.filter((b) => b.pending).length} with a pending vetting, ${brands.filter((b) => b.score_fell).length} whose score fell at the newest vetting), as of ${mdCell(head.generated_at)}`,
    "",
  );
  if (brands.length > 0) {
    lines.push(
      ...table(
        ["Brand", "Score", "Previous score", "Change", "Newest vetting", "Age (days)", "Pending", "Latest status", "Latest reasons"],
        brands.map((b) => {
          const last = b.vettings[b.vettings.length - 1];
          return [
            b.brand_id,
            b.effective_score,
            b.previous_score,
            b.score_change === null ? null : `${signed(b.score_change)}${b.score_fell ? " (fell)" : ""}`,
            b.newest_vetting_at,
            b.vetting_age_days,
            b.pending ? "yes" : "no",
            last ? last.vetting_status : null,
            last ? last.reasons.join("; ") : null,
          ];
        }),
      ),
      "",
    );
  }
  lines.push("## How the figures are made", "", ...head.methodology.map((m) => `- ${mdCell(m)}`), "");
  if (!head.complete) {
    lines.push("## Data gaps", "");
    const shown = head.gaps.items.slice(0, 100);
    lines.push(...table(["Code", "Subject", "What is missing"], shown.map((g) => [{ md: mdCode(g.code) }, g.subject, g.message])));
    if (head.gaps.count > shown.length) lines.push("", `… and ${head.gaps.count - shown.length} more (every gap is in audit.json).`);
    lines.push("");
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
