/**
 * Markdown rendering of a plan and of apply results, made for a pull-request comment
 * (`plan --format md`, `apply --format md`): a hidden marker a bot finds to update its comment,
 * problems first, a one-line verdict, a summary table per kind, each change in a collapsible block
 * with its field diffs, then unmanaged items.
 *
 * Stable on purpose: same account + same file → same bytes (no time, no run ids; changes, problems
 * and unmanaged items sorted), so an unchanged plan never looks like news in a pull request.
 * Values go through {@link formatFieldValue}, the terminal's own formatting, so what the terminal
 * hides (secrets, masked URL parts) is hidden here too; then they are escaped for Markdown and HTML.
 */
import type { FieldDiff } from "../resources/diff";
import { formatFieldValue, rerunNote } from "./format";
import { maskText } from "./mask";
import { shortDigest } from "./saved";
import { KINDS, kindNamed, kindRank } from "../kinds";
import type { ApplyResult, ChangeAction, ChangeKind, Plan, PlannedChange } from "./types";

/** The first line of a plan comment: what a bot searches for to update its comment instead of adding one. */
export const PLAN_MARKER = "<!-- wavix-sync plan -->";
/** The first line of an apply report. */
export const APPLY_MARKER = "<!-- wavix-sync apply -->";

const ACTIONS: readonly ChangeAction[] = ["create", "update", "delete"];
const SYMBOL: Record<ChangeAction, string> = { create: "+", update: "~", delete: "-" };

/** Code-point order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byKindThenKey<T extends { kind: ChangeKind; key: string }>(a: T, b: T): number {
  return kindRank(a.kind) - kindRank(b.kind) || compareText(a.key, b.key);
}

/**
 * Text made inert for GitHub/GitLab Markdown, inside or outside HTML blocks: HTML special characters
 * as entities; the inline Markdown punctuation backslash-escaped (values sit mid-line, in table
 * cells or after a list marker, so block syntax such as a leading `-` cannot start there); `@` and
 * `#` as entities so a value never mentions a person or links an issue; `|` escaped so a table row
 * stays one row; line breaks flattened.
 */
export function mdText(value: string): string {
  // One pass, so an entity made here is never escaped again.
  return value.replace(/\r\n|[\r\n&<>@#\\`*_[\]~|]/g, (c) => MD_ESCAPES[c] ?? `\\${c}`);
}

/**
 * A value as inline code, which GitHub and GitLab show literally (no entities, no emphasis, no
 * mentions): the fence is one backtick longer than the longest run inside, `|` is escaped because
 * GFM splits table cells before it sees code spans, and line breaks are flattened.
 */
export function mdCode(value: string): string {
  if (value === "") return "";
  const text = value.replace(/\r\n|\r|\n/g, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // A space inside the fence when the text starts or ends with a backtick (CommonMark strips one).
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;", "#": "&#35;", "\r\n": " ", "\r": " ", "\n": " " };
const MD_ESCAPES: Record<string, string> = { ...HTML_ESCAPES };

/** Text for inside an HTML element (a `<summary>`): entities only; Markdown is not parsed there. */
function htmlText(value: string): string {
  return value.replace(/\r\n|[\r\n&<>@#]/g, (c) => HTML_ESCAPES[c]);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function verdict(plan: Plan, file: string): string {
  const s = plan.summary;
  const problems = plan.problems.length > 0 ? ` ${plural(plan.problems.length, "problem")} to fix first (above).` : "";
  if (plan.changes.length === 0) {
    return `**No changes.** The account matches ${mdText(file)} (${s.unchanged} unchanged).${problems}`;
  }
  return `**Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged.**${problems}`;
}

function summaryTable(plan: Plan): string[] {
  const count = (kind: ChangeKind, action: ChangeAction) => plan.changes.filter((c) => c.kind === kind && c.action === action).length;
  const lines = ["| Kind | Create | Update | Delete | Unchanged |", "| --- | ---: | ---: | ---: | ---: |"];
  for (const { name: kind } of KINDS) {
    const unchanged = plan.unchangedByKind?.[kind];
    const counts = ACTIONS.map((a) => count(kind, a));
    // A kind with nothing at all is one the file does not manage: no row.
    if (counts.every((n) => n === 0) && !unchanged) continue;
    lines.push(`| ${kind} | ${counts.join(" | ")} | ${unchanged ?? ""} |`);
  }
  const s = plan.summary;
  lines.push(`| **Total** | ${s.create} | ${s.update} | ${s.delete} | ${s.unchanged} |`);
  return lines;
}

function diffRow(c: PlannedChange, f: FieldDiff): string {
  const after = mdCode(formatFieldValue(f, "after"));
  const before = c.action === "create" ? "" : mdCode(formatFieldValue(f, "before"));
  return `| ${mdCode(f.path)} | ${before} | ${after} |`;
}

function changeBlock(c: PlannedChange): string[] {
  // A sub-account has no delete operation: say what really happens (as the terminal does).
  const note = c.action === "delete" ? (kindNamed(c.kind)?.deleteNote ?? "") : "";
  return [
    "<details>",
    `<summary><code>${SYMBOL[c.action]}</code> ${c.action} ${c.kind} <code>${htmlText(c.key)}</code>${note} — ${plural(c.diff.length, "field")}</summary>`,
    "",
    "| Field | Before | After |",
    "| --- | --- | --- |",
    ...c.diff.map((f) => diffRow(c, f)),
    "",
    "</details>",
  ];
}

/** The line naming a saved plan's digest, so a pull-request comment and an apply can be matched. */
function savedLine(plan: Plan): string[] {
  if (!plan.saved) return [];
  return [`Saved plan \`${shortDigest(plan.saved.digest)}\` (${mdText(plan.saved.digest)}): \`wavix-sync apply --plan\` carries out exactly these changes, or refuses if the account changed since.`, ""];
}

function planBody(plan: Plan, file: string): string[] {
  const lines: string[] = [...savedLine(plan)];
  if (plan.problems.length > 0) {
    lines.push(`**${plural(plan.problems.length, "problem")}** (these items cannot be planned; the run exits 1):`, "");
    for (const p of [...plan.problems].sort(byKindThenKey)) {
      lines.push(`- :x: ${p.kind} ${mdText(p.key)}: ${mdText(maskText(p.message))}`);
    }
    lines.push("");
  }
  lines.push(verdict(plan, file), "");
  lines.push(...summaryTable(plan), "");
  if (plan.changes.length > 0) {
    for (const c of [...plan.changes].sort(byKindThenKey)) lines.push(...changeBlock(c), "");
  }
  if (plan.unmanaged.length > 0) {
    lines.push(
      `**Unmanaged** (in the account, not in ${mdText(file)}; left alone — declare them, or use \`--prune\`):`,
      "",
      ...[...plan.unmanaged].sort(byKindThenKey).map((u) => `- ${u.kind} ${mdText(u.key)}`),
      "",
    );
  }
  return lines;
}

function finish(lines: string[]): string {
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}

/** `plan --format md`: the pull-request comment. */
export function formatPlanMarkdown(plan: Plan, file: string): string {
  return finish([PLAN_MARKER, `### wavix-sync plan for ${mdText(file)}`, "", ...planBody(plan, file)]);
}

/** `apply --format md`: the plan as applied, then the outcome and every item that failed or is pending. */
export function formatApplyMarkdown(plan: Plan, result: ApplyResult, file: string): string {
  const ok = result.results.filter((r) => r.outcome === "ok");
  const failed = [...result.results.filter((r) => r.outcome === "failed")].sort(byKindThenKey);
  const counts = { create: 0, update: 0, delete: 0 };
  for (const r of ok) counts[r.action]++;
  const lines = [APPLY_MARKER, `### wavix-sync apply for ${mdText(file)}`, "", ...planBody(plan, file)];
  if (plan.changes.length === 0) return finish(lines);
  const notStarted = [...result.results.filter((r) => r.outcome === "not_started")].sort(byKindThenKey);
  const done = failed.length === 0 && notStarted.length === 0 && result.pending.length === 0;
  const complete = done && plan.problems.length === 0;
  lines.push(
    `**Apply ${done ? "complete" : result.interrupted ? "interrupted" : "incomplete"}:** ${counts.create} created, ${counts.update} updated, ${counts.delete} deleted` +
      (failed.length > 0 ? `, ${failed.length} failed` : "") +
      (notStarted.length > 0 ? `, ${notStarted.length} not started` : "") +
      (failed.length > 0 || notStarted.length > 0 ? ` ${rerunNote(failed, notStarted.length)}.` : ".") +
      (complete ? "" : " :x:"),
    "",
  );
  if (failed.length > 0) {
    lines.push("| Failed | Action | Error |", "| --- | --- | --- |");
    for (const r of failed) lines.push(`| ${r.kind} ${mdText(r.key)} | ${r.action} | ${mdText(maskText(r.error ?? ""))} |`);
    lines.push("");
  }
  if (notStarted.length > 0) {
    lines.push(`- Not started (the run was interrupted before sending them): ${notStarted.map((r) => `${r.kind} ${mdText(r.key)}`).join(", ")}`, "");
  }
  const reconciled = ok.filter((r) => r.reconciled).sort(byKindThenKey);
  for (const r of reconciled) {
    lines.push(`- Note: ${r.kind} ${mdText(r.key)}: the create's outcome was unknown; found it created and adopted it (no duplicate).`);
  }
  if (result.pending.length > 0) {
    lines.push(
      `- Still applying when the wait ran out (asynchronous bulk change; a later plan shows them): ${[...result.pending].sort(compareText).map(mdText).join(", ")}`,
    );
  }
  return finish(lines);
}
