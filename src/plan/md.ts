/**
 * Markdown rendering of a plan and of apply results, made for a pull-request comment
 * (`plan --format md`, `apply --format md`): a hidden marker a bot finds to update its comment, a
 * heading naming the file, the account and the API root, problems first, a one-line verdict, the
 * destructive changes in their own section (never collapsed, never cut while they fit the whole
 * budget), a summary table per kind, each other change in a collapsible block with its field
 * diffs, then unmanaged items.
 *
 * Stable on purpose: same account + same file → same bytes (no time, no run ids; changes, problems
 * and unmanaged items sorted), so an unchanged plan never looks like news in a pull request.
 * Values go through {@link formatFieldValue}, the terminal's own formatting, so what the terminal
 * hides (secrets, masked URL parts) is hidden here too; then they are escaped for Markdown and HTML.
 */
import type { FieldDiff } from "../kit/change/diff";
import { HTML_ESCAPES, mdCode, mdText } from "../util/md-text";
import { actionNote, ACTION_SYMBOL, doneText, formatFieldValue, ownerNote, rerunNote, summaryText, targetedLines } from "./format";
import { formatCount } from "./count";
import { EFFECT_TEXT } from "../kit/change/effects";
import { isDestructive } from "./engine";
import { maskText } from "./mask";
import { shortDigest } from "./saved";
import { KINDS, kindNamed, kindRank } from "../kinds";
import type { ApplyResult, ChangeAction, ChangeKind, Plan, PlannedChange } from "./types";
import { STAGE_TEXT, type FailureReport } from "./failure";

export { mdCode, mdText };

/** The first line of a plan comment: what a bot searches for to update its comment instead of adding one. */
export const PLAN_MARKER = "<!-- wavix-sync plan -->";
/** The first line of an apply report. */
export const APPLY_MARKER = "<!-- wavix-sync apply -->";

const ACTIONS: readonly ChangeAction[] = ["create", "update", "replace", "delete"];

/** Code-point order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byKindThenKey<T extends { kind: ChangeKind; key: string }>(a: T, b: T): number {
  return kindRank(a.kind) - kindRank(b.kind) || compareText(a.key, b.key);
}

/** Text for inside an HTML element (a `<summary>`): entities only; Markdown is not parsed there. */
function htmlText(value: string): string {
  return value.replace(/\r\n|[\r\n&<>@#]/g, (c) => HTML_ESCAPES[c]);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function verdict(plan: Plan, file: string): string {
  const s = plan.summary;
  const problems = plan.problems.length > 0 ? ` ${plural(plan.problems.length, "problem")} to fix first (above).` : "";
  if (plan.changes.length === 0 && plan.targeted) return `**No changes to the targeted items.**${problems}`;
  if (plan.changes.length === 0) {
    return `**No changes.** The account matches ${mdText(file)} (${formatCount(s.unchanged)} unchanged).${problems}`;
  }
  return `**Plan: ${summaryText(s)}.**${problems}`;
}

/**
 * The summary table: a row for each kind with a change (a kind whose row would read 0 changes is
 * left out: it is noise in a review), the totals, then one line naming what is unchanged per kind.
 * A plan without changes has no table, only that line.
 */
function summaryTable(plan: Plan): string[] {
  const count = (kind: ChangeKind, action: ChangeAction) => plan.changes.filter((c) => c.kind === kind && c.action === action).length;
  const unchangedLine = unchangedKinds(plan);
  if (plan.changes.length === 0) return unchangedLine;
  const lines = ["| Kind | Create | Update | Replace | Delete | Unchanged | Destructive |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"];
  for (const { name: kind } of KINDS) {
    const unchanged = plan.unchangedByKind?.[kind];
    const counts = ACTIONS.map((a) => count(kind, a));
    if (counts.every((n) => n === 0)) continue;
    const destructive = plan.changes.filter((c) => c.kind === kind && isDestructive(c)).length;
    lines.push(`| ${kind} | ${counts.map(formatCount).join(" | ")} | ${unchanged === undefined ? "" : formatCount(unchanged)} | ${formatCount(destructive)} |`);
  }
  const s = plan.summary;
  const total = [s.create, s.update, s.replace, s.delete, s.unchanged, s.destructive].map(formatCount);
  lines.push(`| **Total** | ${total.join(" | ")} |`);
  return unchangedLine.length > 0 ? [...lines, "", ...unchangedLine] : lines;
}

/** `Unchanged: 12 numbers, 1 call webhook.`: the kinds' unchanged items, in the registry's order; none when nothing is unchanged or not known. */
function unchangedKinds(plan: Plan): string[] {
  const by = plan.unchangedByKind;
  if (!by) return [];
  const parts = KINDS.filter((k) => (by[k.name] ?? 0) > 0).map((k) => `${formatCount(by[k.name])} ${by[k.name] === 1 ? k.label.one : k.label.many}`);
  return parts.length > 0 ? [`Unchanged: ${parts.join(", ")}.`] : [];
}

function diffRow(c: PlannedChange, f: FieldDiff): string {
  const after = mdCode(formatFieldValue(f, "after"));
  const before = c.action === "create" ? "" : mdCode(formatFieldValue(f, "before"));
  return `| ${mdCode(f.path)} | ${before} | ${after} |`;
}

/** Up to this many changes in collapsible blocks, the blocks are shown open: a small plan reads at a glance. */
export const OPEN_BLOCKS_UP_TO = 5;

function changeBlock(c: PlannedChange, open: boolean): string[] {
  const note = actionNote(c);
  return [
    open ? "<details open>" : "<details>",
    `<summary><code>${ACTION_SYMBOL[c.action]}</code> ${c.action} ${c.kind} <code>${htmlText(c.key)}</code>${htmlText(ownerNote(c))}${htmlText(note)} — ${plural(c.diff.length, "field")}</summary>`,
    "",
    "| Field | Before | After |",
    "| --- | --- | --- |",
    ...c.diff.map((f) => diffRow(c, f)),
    "",
    "</details>",
  ];
}

/** Largest Markdown document plan and apply write: GitHub refuses a comment or issue body past 65,536 characters. */
export const MD_MAX_CHARS = 60_000;

export interface MarkdownOptions {
  /** Largest document, in characters. @default MD_MAX_CHARS */
  maxChars?: number;
  /** Markdown lines placed right after the verdict (the safety refusal). */
  notes?: string[];
  /**
   * What the run talked to, named in the heading: the API root and the account (`null`: the key may
   * not say which). @default not named (a plan rendered without a run)
   */
  target?: { readonly baseUrl: string; readonly account: string | null };
  /**
   * The saved plan's path (`plan --save`, `apply --plan`), which a shortened document points to for
   * every change. @default the JSON report is pointed to
   */
  savedPlan?: string;
}

/** Part of a document: fixed lines, or a list of items that is cut to its share of the budget. */
type Block =
  | { fixed: string[] }
  | {
      /** Lines before the items (none when the list is empty). */
      head: string[];
      /** Each item's lines, in order. */
      items: string[][];
      /** The line saying how many were left out. */
      more: (left: number) => string;
      /** A shorter form of the same items to try when they do not all fit (identical changes grouped). */
      condensed?: () => string[][];
      /** The line after the items. @default "" */
      tail?: string[];
      /**
       * Served before every other list, from the whole budget (the destructive changes): cut only
       * when even grouped they do not fit what is left once the others have room for a line each.
       */
      first?: boolean;
    };

const count = formatCount;
const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * The pointer to everything, said when something was grouped or left out: the saved plan the run
 * wrote or carried out (the example pipelines keep it as an artifact, examples/ci/), else the JSON report.
 */
function pointer(command: "plan" | "apply", savedPlan: string | undefined): string {
  const where =
    savedPlan !== undefined
      ? `Every change is in the saved plan ${mdCode(savedPlan)}, kept with this run's artifacts: ${mdCode(`wavix-sync show ${savedPlan}`)} prints it whole`
      : `Every change is in the JSON report: \`wavix-sync ${command} --format json\` (or \`--out ${command}.json\`, kept with the run's artifacts)`;
  return `_This summary is shortened to stay within ${count(MD_MAX_CHARS)} characters. ${where}._`;
}

/** The items of a list that fit in `budget` characters, and the line saying how many were left out. */
function take(items: readonly string[][], budget: number, more: (left: number) => string): { lines: string[]; used: number; cut: boolean } {
  const lines: string[] = [];
  let used = 0;
  for (const [i, item] of items.entries()) {
    const n = size(item);
    const left = items.length - i;
    // Room for this item and, unless it is the last one, the "… and N more" line after it.
    const reserve = left > 1 ? more(left - 1).length + 1 : 0;
    if (used + n + reserve > budget) {
      const line = more(left);
      return { lines: [...lines, line], used: used + line.length + 1, cut: true };
    }
    lines.push(...item);
    used += n;
  }
  return { lines, used, cut: false };
}

/**
 * The blocks as one document within `max` characters: fixed lines whole, then each list its share
 * of what is left (a list that needs less gives the rest to those after it); a list that does not
 * fit is condensed when it can be, then cut with "… and N more", and the pointer is added.
 */
function assemble(blocks: readonly Block[], command: "plan" | "apply", max: number, savedPlan?: string): string {
  const fixed = blocks.reduce((n, b) => n + ("fixed" in b ? size(b.fixed) : size(b.items.length > 0 ? [...b.head, ...(b.tail ?? [""])] : [])), 0);
  const note = pointer(command, savedPlan);
  let budget = max - fixed - note.length - 64;
  const lists = blocks.filter((b) => !("fixed" in b) && b.items.length > 0);
  let listsLeft = lists.filter((b) => !("fixed" in b) && !b.first).length;
  let shortened = false;
  const parts = new Map<Block, string[]>();
  const serve = (b: Exclude<Block, { fixed: string[] }>, share: number): void => {
    let part = take(b.items, share, b.more);
    if (part.cut && b.condensed) {
      shortened = true;
      part = take(b.condensed(), share, b.more);
    }
    if (part.cut) shortened = true;
    budget -= part.used;
    parts.set(b, part.lines);
  };
  // First claim (the destructive changes): all of the budget but a line's room for each other list.
  for (const b of lists) if (!("fixed" in b) && b.first) serve(b, Math.max(0, budget - listsLeft * 200));
  for (const b of lists) {
    if ("fixed" in b || b.first) continue;
    serve(b, Math.max(0, Math.floor(budget / listsLeft)));
    listsLeft--;
  }
  const out: string[] = [];
  for (const b of blocks) {
    if ("fixed" in b) out.push(...b.fixed);
    else if (b.items.length > 0) out.push(...b.head, ...parts.get(b)!, ...(b.tail ?? [""]));
  }
  if (shortened) out.push(note, "");
  let text = finish(out);
  // Only a fixed part past the bound (a file name of thousands of characters) gets here: cut at a line.
  if (text.length > max) text = finish([text.slice(0, text.lastIndexOf("\n", max - note.length - 8)), "", note]);
  return text;
}

/** A value cut for a grouped line (the full one is in the JSON report). */
function short(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What one change does, on one line: `sms_enabled` `false` → `true`; … */
function changeSummary(c: PlannedChange): string {
  return c.diff
    .map((f) => (c.action === "create" ? `${mdCode(f.path)} = ${mdCode(short(formatFieldValue(f, "after")))}` : `${mdCode(f.path)} ${mdCode(short(formatFieldValue(f, "before")))} → ${mdCode(short(formatFieldValue(f, "after")))}`))
    .join("; ");
}

/** Identical changes (same kind, action and field changes) as one item each: `10,000 numbers: …`, the first keys, how many more. */
function groupedChanges(changes: readonly PlannedChange[]): string[][] {
  const groups = new Map<string, PlannedChange[]>();
  for (const c of changes) {
    const sig = `${c.kind}\u0000${c.action}\u0000${JSON.stringify(c.diff.map((f) => [f.path, formatFieldValue(f, "before"), formatFieldValue(f, "after")]))}`;
    const list = groups.get(sig) ?? [];
    list.push(c);
    groups.set(sig, list);
  }
  const ordered = [...groups.values()].sort((a, b) => kindRank(a[0].kind) - kindRank(b[0].kind) || b.length - a.length || compareText(a[0].key, b[0].key));
  return ordered.map((g) => {
    const c = g[0];
    const label = kindNamed(c.kind)?.label;
    const what = g.length === 1 ? `${c.kind} ${mdCode(c.key)}` : `**${count(g.length)} ${label?.many ?? c.kind}**`;
    const note = actionNote(c);
    const head = `- ${what} ${c.action}${note}: ${changeSummary(c) || "(no field)"}`;
    if (g.length === 1) return [head];
    const first = g.slice(0, 10).map((x) => mdCode(x.key));
    return [head, `  - ${first.join(", ")}${g.length > first.length ? ` … and ${count(g.length - first.length)} more` : ""}`];
  });
}

/** The line naming a saved plan's digest, so a pull-request comment and an apply can be matched. */
function savedLine(plan: Plan): string[] {
  if (!plan.saved) return [];
  return [`Saved plan \`${shortDigest(plan.saved.digest)}\` (${mdText(plan.saved.digest)}): \`wavix-sync apply --plan\` carries out exactly these changes, or refuses if the account changed since.`, ""];
}

/** What makes a change destructive, in words: `**disable**`, `**routing removed**`. */
function effectWords(c: PlannedChange): string {
  const effects = c.effects ?? [c.action === "replace" ? "replace" : "delete"];
  return effects.map((e) => `**${EFFECT_TEXT[e]}**`).join(", ");
}

/** One destructive change on one line, never collapsed: its effects, the item, what changes. */
function destructiveLine(c: PlannedChange): string[] {
  return [`- :warning: ${effectWords(c)}: ${c.kind} ${mdCode(c.key)}${mdText(ownerNote(c))}${mdText(actionNote(c))} (${c.action}): ${changeSummary(c) || "(no field)"}`];
}

/** Identical destructive changes as one line each (the same effects, action and field changes), every key named while they fit. */
function groupedDestructive(changes: readonly PlannedChange[]): string[][] {
  return groupedChanges(changes).map((lines) => lines.map((l, i) => (i === 0 ? l.replace(/^- /, "- :warning: ") : l)));
}

function planBlocks(plan: Plan, file: string, options: MarkdownOptions): Block[] {
  const blocks: Block[] = [{ fixed: savedLine(plan) }];
  blocks.push({
    head: [`**${plural(plan.problems.length, "problem")}** (these items cannot be planned; the run exits 1):`, ""],
    items: [...plan.problems].sort(byKindThenKey).map((p) => [`- :x: ${p.kind} ${mdText(p.key)}: ${mdText(maskText(p.message))}`]),
    more: (n) => `- … and ${count(n)} more problems`,
  });
  const targeted = targetedLines(plan).map((l) => `:warning: ${mdText(l.replace(/^Warning: /, ""))}`);
  blocks.push({ fixed: [verdict(plan, file), "", ...(targeted.length > 0 ? [...targeted.flatMap((l) => [l, ""])] : []), ...(options.notes && options.notes.length > 0 ? [...options.notes, ""] : [])] });
  const destructive = plan.changes.filter(isDestructive).sort(byKindThenKey);
  blocks.push({
    head: [`**${plural(destructive.length, "destructive change")}** (deletes, disables, releases, unlinks, replacements, routing removed, limits lifted: review these first):`, ""],
    items: destructive.map(destructiveLine),
    condensed: () => groupedDestructive(destructive),
    more: (n) => `- :warning: … and ${count(n)} more destructive changes (every one is in the JSON report)`,
    first: true,
  });
  blocks.push({ fixed: [...summaryTable(plan), ""] });
  const changes = plan.changes.filter((c) => !isDestructive(c)).sort(byKindThenKey);
  blocks.push({
    head: [],
    items: changes.map((c) => [...changeBlock(c, changes.length <= OPEN_BLOCKS_UP_TO), ""]),
    condensed: () => groupedChanges(changes),
    more: (n) => `- … and ${count(n)} more (every change is in the JSON report)`,
  });
  blocks.push({
    head: ["**Notes:**", ""],
    items: [...(plan.notes ?? [])].sort(byKindThenKey).map((n) => [`- ${n.kind} ${mdText(n.key)}: ${mdText(maskText(n.message))}`]),
    more: (n) => `- … and ${count(n)} more notes`,
  });
  blocks.push({
    head: [`**Unmanaged** (in the account, not in ${mdText(file)}; left alone — declare them, or use \`--prune\`):`, ""],
    items: [...plan.unmanaged].sort(byKindThenKey).map((u) => [`- ${u.kind} ${mdText(u.key)}`]),
    more: (n) => `- … and ${count(n)} more`,
  });
  return blocks;
}

function finish(lines: string[]): string {
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}

/** `plan --format md`: the pull-request comment, at most `maxChars` (60,000) characters whatever the plan. */
/** `### wavix-sync plan for wavix.yaml — account 1000 at https://api.wavix.com`: what the run talked to, in the heading. */
function heading(command: "plan" | "apply", file: string, options: MarkdownOptions): string {
  const t = options.target;
  const target = t === undefined ? "" : ` — account ${t.account === null ? "(not known: the key may not read /v1/profile)" : mdText(t.account)} at ${mdText(t.baseUrl)}`;
  return `### wavix-sync ${command} for ${mdText(file)}${target}`;
}

export function formatPlanMarkdown(plan: Plan, file: string, options: MarkdownOptions = {}): string {
  const blocks: Block[] = [{ fixed: [PLAN_MARKER, heading("plan", file, options), ""] }, ...planBlocks(plan, file, options)];
  return assemble(blocks, "plan", options.maxChars ?? MD_MAX_CHARS, options.savedPlan);
}

/** `apply --format md`: the plan as applied, then the outcome, what was created (ids) and every item that failed or is pending. */
export function formatApplyMarkdown(plan: Plan, result: ApplyResult, file: string, options: MarkdownOptions = {}): string {
  const max = options.maxChars ?? MD_MAX_CHARS;
  const ok = result.results.filter((r) => r.outcome === "ok");
  const failed = [...result.results.filter((r) => r.outcome === "failed")].sort(byKindThenKey);
  const blocks: Block[] = [{ fixed: [APPLY_MARKER, heading("apply", file, options), ""] }, ...planBlocks(plan, file, options)];
  if (plan.changes.length === 0) return assemble(blocks, "apply", max, options.savedPlan);
  const notStarted = [...result.results.filter((r) => r.outcome === "not_started")].sort(byKindThenKey);
  const done = failed.length === 0 && notStarted.length === 0 && result.pending.length === 0;
  const complete = done && plan.problems.length === 0;
  blocks.push({
    fixed: [
      `**Apply ${done ? "complete" : result.interrupted ? "interrupted" : "incomplete"}:** ${doneText(ok)}` +
        (failed.length > 0 ? `, ${count(failed.length)} failed` : "") +
        (notStarted.length > 0 ? `, ${count(notStarted.length)} not started` : "") +
        (failed.length > 0 || notStarted.length > 0 ? ` ${rerunNote(failed, notStarted.length)}.` : ".") +
        (complete ? "" : " :x:"),
      "",
    ],
  });
  const created = ok.filter((r) => r.action === "create").sort(byKindThenKey);
  blocks.push({
    head: ["**Created:**", ""],
    items: created.map((r) => [`- ${r.kind} ${mdText(r.key)}${r.id !== undefined ? ` (id ${mdText(String(r.id))})` : ""}`]),
    more: (n) => `- … and ${count(n)} more`,
  });
  blocks.push({
    head: ["| Failed | Action | Error |", "| --- | --- | --- |"],
    items: failed.map((r) => [`| ${r.kind} ${mdText(r.key)} | ${r.action} | ${mdText(maskText(r.error ?? ""))} |`]),
    more: (n) => `| … and ${count(n)} more | | |`,
  });
  blocks.push({
    head: ["- Not started (the run was interrupted before sending them):"],
    items: notStarted.map((r) => [`  - ${r.kind} ${mdText(r.key)}`]),
    more: (n) => `  - … and ${count(n)} more`,
  });
  blocks.push({
    head: [],
    items: ok
      .filter((r) => r.reconciled)
      .sort(byKindThenKey)
      .map((r) => [`- Note: ${r.kind} ${mdText(r.key)}: the create's outcome was unknown; found it created and adopted it (no duplicate).`]),
    more: (n) => `- … and ${count(n)} more notes`,
  });
  blocks.push({
    head: ["- Still applying when the wait ran out (asynchronous bulk change; a later plan shows them):"],
    items: [...result.pending].sort(compareText).map((k) => [`  - ${mdText(k)}`]),
    more: (n) => `  - … and ${count(n)} more`,
  });
  return assemble(blocks, "apply", max, options.savedPlan);
}

/** The report of a run that failed (src/plan/failure.ts) as Markdown, with its marker so a bot replaces the last comment. */
export function formatFailureMarkdown(r: FailureReport, options: MarkdownOptions = {}): string {
  const blocks: Block[] = [
    { fixed: [r.command === "plan" ? PLAN_MARKER : APPLY_MARKER, heading(r.command, r.file, options), "", `**Failed** (${r.stage}): ${mdText(STAGE_TEXT[r.stage])}. :x:`, ""] },
    { head: [], items: r.problems.map((p) => [`- :x: ${mdText(maskText(p))}`]), more: (n) => `- … and ${count(n)} more problems` },
  ];
  if (r.plan) blocks.push(...planBlocks(r.plan, r.file, options));
  return assemble(blocks, r.command, options.maxChars ?? MD_MAX_CHARS, options.savedPlan);
}
