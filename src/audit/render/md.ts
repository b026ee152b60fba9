/**
 * `audit --format md` (the default) and `audit.md`: findings first (what a reviewer acts on), then
 * totals, then one table per area.
 */
import { mdCode, mdText } from "../../plan/md";
import type { AuditReport } from "../types";

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

function table(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | Rendered)[])[]): string[] {
  const cell = (v: string | number | boolean | null | Rendered): string => (v !== null && typeof v === "object" ? v.md : mdCell(v));
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

export function renderMarkdown(report: AuditReport): string {
  const lines: string[] = ["# Wavix audit", "", `Generated at ${report.generated_at}.`, ""];

  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  lines.push("## Findings", "");
  if (report.findings.length === 0) {
    lines.push("No findings.");
  } else {
    lines.push(`${errors} error(s), ${warnings} warning(s).`, "");
    lines.push(...table(["Severity", "Code", "Subject", "Message"], report.findings.map((f) => [f.severity, { md: mdCode(f.code) }, f.subject, f.message])));
  }
  lines.push("");

  const { two_fa: twoFa } = report;
  const verified = twoFa.sessions.filter((s) => s.verified).length;
  lines.push("## 2FA verifications", "");
  lines.push(`- Sessions: ${twoFa.sessions.length} (${verified} verified, ${twoFa.sessions.length - verified} not verified)`);
  lines.push(
    `- Events: ${twoFa.events_by_status.success} success, ${twoFa.events_by_status.failed} failed, ${twoFa.events_by_status.pending} pending`,
  );
  lines.push(`- Charges: ${twoFa.charge_total} USD`, "");
  if (twoFa.sessions.length > 0) {
    lines.push(
      ...table(
        ["Session", "Verified", "Events", "Charge (USD)", "Last event"],
        twoFa.sessions.map((s) => {
          const last = s.events[s.events.length - 1];
          return [
            s.session_id,
            s.verified ? "yes" : "no",
            s.events.length,
            s.charge_total,
            last ? `${last.event} (${last.status}) at ${last.created_at}` : null,
          ];
        }),
      ),
      "",
    );
  }

  const brands = report.ten_dlc.brands;
  lines.push("## 10DLC brand vettings", "");
  lines.push(`- Brands: ${brands.length} (${brands.filter((b) => b.pending).length} with a pending vetting)`, "");
  if (brands.length > 0) {
    lines.push(
      ...table(
        ["Brand", "Effective score", "Pending", "Vettings", "Latest status", "Latest reasons"],
        brands.map((b) => {
          const last = b.vettings[b.vettings.length - 1];
          return [
            b.brand_id,
            b.effective_score,
            b.pending ? "yes" : "no",
            b.vettings.length,
            last ? last.vetting_status : null,
            last ? last.reasons.join("; ") : null,
          ];
        }),
      ),
      "",
    );
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
