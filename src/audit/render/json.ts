/** `audit --format json` and `audit.json`: the report object, 2-space indented (docs/CONTRACT.md part 5). */
import type { AuditReport } from "../types";

export function renderJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
