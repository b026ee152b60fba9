/**
 * `audit --format json` and `audit.json`: the report object, 2-space indented (docs/AUDIT.md).
 * {@link writeJson} streams the same bytes from a report's head and its sessions read one at a time,
 * so a report of any size is written without holding it whole.
 */
import type { SessionSource } from "../store";
import type { AuditReport, AuditReportHead } from "../types";
import { buffered, type Write } from "./write";

export function renderJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Where the sessions array goes: a string no report value can hold (a NUL on both sides). */
const PLACEHOLDER = "\u0000sessions\u0000";
/** Indentation of the sessions' items: they sit at depth 3 (report → two_fa → sessions). */
const ITEM_INDENT = "      ";

/** Exactly `renderJson` of the report made of `head` and `sessions`, written in pieces. */
export async function writeJson(head: AuditReportHead, sessions: SessionSource, write: Write): Promise<void> {
  const text = JSON.stringify({ ...head, two_fa: { ...head.two_fa, sessions: PLACEHOLDER } }, null, 2);
  const marker = JSON.stringify(PLACEHOLDER);
  const at = text.indexOf(marker);
  const out = buffered(write);
  await out.write(text.slice(0, at));
  let first = true;
  for await (const s of sessions) {
    const item = JSON.stringify(s, null, 2).replace(/\n/g, `\n${ITEM_INDENT}`);
    await out.write(`${first ? "[\n" : ",\n"}${ITEM_INDENT}${item}`);
    first = false;
  }
  await out.write(first ? "[]" : `\n${ITEM_INDENT.slice(2)}]`);
  await out.write(`${text.slice(at + marker.length)}\n`);
  await out.flush();
}
