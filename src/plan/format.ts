/**
 * Human rendering of a plan and of apply results, in the manner of `terraform plan`:
 * `+ create`, `~ update`, `-/+ replace`, `- delete`, each changed field `before → after`, secrets
 * `(sensitive)`, and what makes a change destructive said on its line.
 */
import { UNREADABLE, type FieldDiff } from "../kit/change/diff";
import { EFFECT_TEXT } from "../kit/change/effects";
import type { CanonicalDestination } from "../kinds/number/public";
import type { ApplyResult, ChangeAction, ChangeResult, Plan, PlannedChange, PlanProblem } from "./types";
import { maskDeep, maskText } from "./mask";
import { kindNamed } from "../kinds";
import { formatCount } from "./count";

export const ACTION_SYMBOL: Readonly<Record<ChangeAction, string>> = { create: "+", update: "~", replace: "-/+", delete: "-" };
const VERB: Readonly<Record<ChangeAction, string>> = { create: "will be created", update: "will be updated in place", replace: "will be replaced", delete: "will be deleted" };
const TRANSPORT_NAME: Record<number, string> = { 1: "sip", 4: "pstn", 5: "trunk" };

function isDestinationList(v: unknown): v is CanonicalDestination[] {
  return Array.isArray(v) && v.every((d) => d && typeof d === "object" && "transport" in d && "destination" in d);
}

/** One route in words: `trunk acme-pbx (id 144), priority 1`, `sip sip.acme.example, priority 2`. */
export function routeText(d: CanonicalDestination): string {
  const transport = TRANSPORT_NAME[d.transport] ?? `transport ${d.transport}`;
  const id = d.trunk_id !== null ? ` (id ${d.trunk_id})` : "";
  return `${transport} ${d.destination || "(not resolved yet)"}${id}, priority ${d.priority}`;
}

/** One value as a person reads it; a URL's password shows as `***` (see mask.ts); routes in words. */
export function formatValue(value: unknown): string {
  const v = maskDeep(value);
  if (v === null || v === undefined) return "null";
  if (isDestinationList(v)) {
    if (v.length === 0) return "(no destination)";
    return v.map(routeText).join("; ");
  }
  if (typeof v === "string") return JSON.stringify(v);
  return JSON.stringify(v);
}

/** What the plan says a change does, and what a kind's delete or replace really is. */
function verb(c: PlannedChange): string {
  return `${VERB[c.action]}${actionNote(c)}`;
}

/** A kind whose delete or replace is something else says what really happens (a sub-account is disabled). */
export function actionNote(c: Pick<PlannedChange, "kind" | "action">): string {
  if (c.action === "delete") return kindNamed(c.kind)?.deleteNote ?? "";
  if (c.action === "replace") return kindNamed(c.kind)?.replaceNote ?? "";
  return "";
}

/** ` (destructive: disable)`: what makes a change destructive, or "" when nothing does. */
export function destructiveNote(c: Pick<PlannedChange, "effects">): string {
  return c.effects && c.effects.length > 0 ? ` (destructive: ${c.effects.map((e) => EFFECT_TEXT[e]).join(", ")})` : "";
}

/** `Plan: 1 to create, 2 to update, 1 to replace, 0 to delete, 5 unchanged; 2 destructive`: replace and destructive only when any. */
export function summaryText(s: Plan["summary"], count: (n: number) => string = formatCount): string {
  return (
    `${count(s.create)} to create, ${count(s.update)} to update, ` +
    (s.replace > 0 ? `${count(s.replace)} to replace, ` : "") +
    `${count(s.delete)} to delete, ${count(s.unchanged)} unchanged` +
    (s.destructive > 0 ? `; ${count(s.destructive)} destructive` : "")
  );
}

/**
 * One side of a field diff as every renderer shows it (text, Markdown): secrets `(sensitive)`,
 * everything else through {@link formatValue}. The one place value display is decided, so what
 * is hidden in the terminal is hidden in a pull-request comment too.
 */
export function formatFieldValue(f: FieldDiff, side: "before" | "after"): string {
  if (f.unreadable && side === "before") return UNREADABLE;
  return f.sensitive ? "(sensitive)" : formatValue(f[side]);
}

function fieldLine(c: PlannedChange, f: FieldDiff, width: number): string {
  const name = f.path.padEnd(width);
  const after = formatFieldValue(f, "after");
  if (c.action === "create") return `      + ${name} = ${after}`;
  const before = formatFieldValue(f, "before");
  return `      ~ ${name} = ${before} → ${after}`;
}

/**
 * The plan's problems (a declared number not owned, an ambiguous name), one `Error:` line each,
 * for standard error: a pipeline reading the plan on standard output never mistakes one for it.
 */
export function formatPlanProblems(plan: Plan): string {
  return plan.problems.map((p) => `${p.at?.line ? "" : "Error: "}${problemText(p)}\n`).join("");
}

/**
 * One problem as one line: `FILE:LINE:COL: kind "key": message (at path)` when the item's place in
 * the file is known, as the file's own errors read (src/config/load.ts `formatProblem`); else
 * `kind "key": message`, with `(at path)` when the path is known.
 */
export function problemText(p: PlanProblem): string {
  const where = p.at?.line ? `${p.at.file}:${p.at.line}:${p.at.col}: ` : "";
  return `${where}${p.kind} "${p.key}": ${maskText(p.message)}${p.at ? ` (at ${p.at.path})` : ""}`;
}

/** `1 declared item could not be planned (see the errors)`: said wherever a summary would claim success. */
function unplannedNote(plan: Plan): string {
  const n = plan.problems.length;
  return `${formatCount(n)} declared ${n === 1 ? "item" : "items"} could not be planned (see the errors)`;
}

/**
 * The plan for standard output. Problems are not in it (see `formatPlanProblems`), but its
 * summary never claims the account matches the file when there were any.
 */
/** ` of sub_account "Tenant Alpha" (id 2001)` for an item an owner holds (a tenant's number); "" otherwise. */
export function ownerNote(c: PlannedChange): string {
  if (!c.owner) return "";
  return ` of ${c.owner.kind} ${JSON.stringify(c.owner.key)}${c.owner.id !== undefined ? ` (id ${c.owner.id})` : ""}`;
}

/**
 * What `--target` did to a plan, said first as Terraform says it: which items, how many changes and
 * problems of other items were left out (the account then still differs from the file), and the
 * targets that matched nothing. Empty when the plan is not narrowed.
 */
export function targetedLines(plan: Plan): string[] {
  const t = plan.targeted;
  if (!t) return [];
  const out = [
    `Warning: --target in effect (${t.targets.join(", ")}): only the changes of these items are planned and applied; ` +
      `${formatCount(t.leftOut)} change${t.leftOut === 1 ? "" : "s"}` +
      (t.leftOutProblems > 0 ? ` and ${formatCount(t.leftOutProblems)} problem${t.leftOutProblems === 1 ? "" : "s"}` : "") +
      ` of other items left out. Use --target for exceptions (a fix that cannot wait), not routinely: run a plan without it afterwards.`,
  ];
  if (t.unmatched.length > 0) out.push(`Warning: --target ${t.unmatched.join(", ")}: no change or problem (already as the file says, or not declared in it).`);
  return out;
}

export function formatPlan(plan: Plan, file: string): string {
  const lines: string[] = targetedLines(plan);
  if (lines.length > 0) lines.push("");
  if (plan.changes.length === 0 && plan.problems.length > 0) {
    lines.push(`No changes can be planned, but the account does not match ${file}: ${unplannedNote(plan)}; ${formatCount(plan.summary.unchanged)} unchanged.`);
  } else if (plan.changes.length === 0 && plan.targeted) {
    lines.push(`No changes to the targeted items.`);
  } else if (plan.changes.length === 0) {
    lines.push(`No changes. The account matches ${file} (${formatCount(plan.summary.unchanged)} unchanged).`);
  } else {
    lines.push("wavix-sync will perform the following actions:", "");
    for (const c of plan.changes) {
      lines.push(`  # ${c.kind} "${c.key}"${ownerNote(c)} ${verb(c)}${destructiveNote(c)}`);
      lines.push(`  ${ACTION_SYMBOL[c.action]} ${c.kind} "${c.key}"`);
      const width = Math.max(...c.diff.map((f) => f.path.length));
      for (const f of c.diff) lines.push(fieldLine(c, f, width));
      lines.push("");
    }
    const s = plan.summary;
    lines.push(`Plan: ${summaryText(s)}` + (plan.problems.length > 0 ? `; ${unplannedNote(plan)}.` : "."));
  }
  if (plan.notes && plan.notes.length > 0) {
    lines.push("");
    for (const n of plan.notes) lines.push(`Note: ${n.kind} "${n.key}": ${maskText(n.message)}`);
  }
  if (plan.unmanaged.length > 0) {
    lines.push("");
    lines.push(
      `Unmanaged (in the account, not in ${file}; left alone — declare them, or use --prune): ` +
        plan.unmanaged.map((u) => `${u.kind} "${u.key}"`).join(", "),
    );
  }
  if (plan.saved) lines.push("", `Saved plan ${plan.saved.digest}`);
  return lines.join("\n") + "\n";
}

/**
 * What apply did, item by item where it matters: failures, pending asynchronous changes, what an
 * interruption left unsent; then one summary line that says "complete" only when everything is.
 */
export function formatApplyResult(result: ApplyResult): string {
  const by = (o: ChangeResult["outcome"]) => result.results.filter((r) => r.outcome === o);
  const ok = by("ok");
  const failed = by("failed");
  const pending = by("pending");
  const notStarted = by("not_started");
  const lines: string[] = [];
  for (const r of failed) lines.push(`Failed: ${r.kind} "${r.key}" (${r.action}): ${maskText(r.error ?? "")}`);
  for (const r of pending) lines.push(`Pending: ${r.kind} "${r.key}" (${r.action}): ${maskText(r.error ?? "")}`);
  const list = (rs: ChangeResult[]) => {
    const shown = rs.slice(0, 10).map((r) => `${r.kind} "${r.key}" (${r.action})`);
    return shown.join(", ") + (rs.length > shown.length ? `, and ${formatCount(rs.length - shown.length)} more` : "");
  };
  // After Ctrl-C a person wants both halves named: what landed and what was never sent.
  if (result.interrupted && ok.length > 0) lines.push(`Done before the interruption: ${list(ok)}`);
  if (notStarted.length > 0) {
    lines.push(`Not started (interrupted before they were sent; the account was not changed for them): ${list(notStarted)}`);
  }
  const created = ok.filter((r) => r.action === "create");
  if (created.length > 0) lines.push(`Created: ${createdList(created)}`);
  const reconciled = ok.filter((r) => r.reconciled);
  for (const r of reconciled) lines.push(`Note: ${r.kind} "${r.key}": the create's outcome was unknown; found it created and adopted it (no duplicate).`);
  for (const r of ok.filter((x) => x.twin !== undefined)) lines.push(`Note: ${r.kind} "${r.key}": ${r.twin}.`);
  for (const r of ok.filter((x) => x.adopted && x.twin === undefined)) lines.push(`Note: ${r.kind} "${r.key}": it was created by someone else after the plan was read; adopted it (no duplicate).`);
  const rest: string[] = [];
  if (failed.length > 0) rest.push(`${formatCount(failed.length)} failed`);
  if (pending.length > 0) rest.push(`${formatCount(pending.length)} pending (the API is still applying them; plan later to confirm)`);
  if (notStarted.length > 0) rest.push(`${formatCount(notStarted.length)} not started`);
  const head = result.interrupted ? "Apply interrupted" : rest.length === 0 ? "Apply complete" : "Apply incomplete";
  lines.push(
    `${head}: ${doneText(ok)}` +
      (rest.length > 0 ? `, ${rest.join(", ")} ${rerunNote(failed, notStarted.length + pending.length)}.` : "."),
  );
  return lines.join("\n") + "\n";
}

/** `2 created, 1 updated, 1 replaced, 0 deleted` (replaced only when any) of the results that went through. */
export function doneText(ok: readonly ChangeResult[], count: (n: number) => string = formatCount): string {
  const n = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const r of ok) n[r.action]++;
  return `${count(n.create)} created, ${count(n.update)} updated, ${n.replace > 0 ? `${count(n.replace)} replaced, ` : ""}${count(n.delete)} deleted`;
}

/** What apply created, with ids where the kind has them: `sub_account "Acme" (id 2004)`; the first 20, then how many more. */
export function createdList(created: readonly ChangeResult[], show = 20): string {
  const shown = created.slice(0, show).map((r) => `${r.kind} "${r.key}"${r.id !== undefined ? ` (id ${r.id})` : ""}`);
  return shown.join(", ") + (created.length > shown.length ? `, and ${formatCount(created.length - shown.length)} more` : "");
}

/**
 * What a re-run does for the failures: it finishes what failed for a reason that can pass, but not
 * a twin or a name the API keeps otherwise (issue #22: never promise a re-run that would create a
 * sub-account again).
 */
export function rerunNote(failed: readonly ChangeResult[], otherPending: number): string {
  const stuck = failed.filter((r) => r.rerunHelps === false).length;
  if (stuck === 0) return "(a re-run finishes the rest)";
  if (stuck === failed.length && otherPending === 0) return `(a re-run will not fix ${stuck === 1 ? "it" : "them"}: see each message)`;
  return `(a re-run finishes the rest, except ${stuck} that need a person: see each message)`;
}
