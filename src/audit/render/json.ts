/**
 * `audit --format json` and `audit.json`: the report object, 2-space indented (docs/AUDIT.md).
 * {@link writeJson} streams the same bytes from a report's head and its sessions read one at a time,
 * so a report of any size is written without holding it whole.
 */
import { sessionBatches, type SessionSource } from "../store";
import type { AuditReport, AuditReportHead, AuditSession } from "../types";
import { buffered, type Write } from "./write";

export function renderJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Where the sessions array goes: a string no report value can hold (a NUL on both sides). */
const PLACEHOLDER = "\u0000sessions\u0000";
/** Indentation of the sessions' items: they sit at depth 3 (report → two_fa → sessions). */
const ITEM_INDENT = "      ";
/** Sessions stringified together (memory: a few hundred KB of text at a time). */
const BATCH = 256;
/** What `JSON.stringify({ two_fa: { sessions: [...] } }, null, 2)` puts around the items. */
const BATCH_OPEN = `{\n  "two_fa": {\n    "sessions": [\n`;
const BATCH_CLOSE = `\n    ]\n  }\n}`;

/** Exactly `renderJson` of the report made of `head` and `sessions`, written in pieces. */
export async function writeJson(head: AuditReportHead, sessions: SessionSource, write: Write): Promise<void> {
  await writeJsonAround(head, () => writeJsonSessions(sessions, write), write);
}

/**
 * `renderJson` of the report made of `head` and a sessions array that `sessionsArray` writes in
 * between (from its `[` to its `]`, as {@link writeJsonSessions} writes it).
 */
export async function writeJsonAround(head: AuditReportHead, sessionsArray: () => Promise<void>, write: Write): Promise<void> {
  const text = JSON.stringify({ ...head, two_fa: { ...head.two_fa, sessions: PLACEHOLDER } }, null, 2);
  const marker = JSON.stringify(PLACEHOLDER);
  const at = text.indexOf(marker);
  await write(text.slice(0, at));
  await sessionsArray();
  await write(`${text.slice(at + marker.length)}\n`);
}

/**
 * The report's sessions array as `renderJson` indents it (the items at depth 3), from `[` to `]`:
 * it needs the sessions alone, so `audit --out` writes it before the head is known.
 */
export async function writeJsonSessions(sessions: SessionSource, write: Write): Promise<void> {
  const out = buffered(write);
  let first = true;
  let batch: AuditSession[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    // The batch stringified at the depth the sessions have in the report (report → two_fa →
    // sessions): its items come out indented exactly as in the whole report, in one native call.
    const nested = JSON.stringify({ two_fa: { sessions: batch } }, null, 2);
    const items = nested.slice(BATCH_OPEN.length, nested.length - BATCH_CLOSE.length);
    batch = [];
    await out.write(`${first ? "[\n" : ",\n"}${items}`);
    first = false;
  };
  for await (const some of sessionBatches(sessions)) {
    for (const s of some) {
      batch.push(s);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  await out.write(first ? "[]" : `\n${ITEM_INDENT.slice(2)}]`);
  await out.flush();
}
