/**
 * Human rendering of a plan and of apply results, in the manner of `terraform plan`:
 * `+ create`, `~ update`, `- delete`, each changed field `before → after`, secrets `(sensitive)`.
 */
import { UNREADABLE, type FieldDiff } from "../kit/change/diff";
import type { CanonicalDestination } from "../kinds/number/public";
import type { ApplyResult, ChangeResult, Plan, PlannedChange } from "./types";
import { maskDeep, maskText } from "./mask";
import { kindNamed } from "../kinds";
import { formatCount } from "./count";

const SYMBOL = { create: "+", update: "~", delete: "-" } as const;
const VERB = { create: "will be created", update: "will be updated in place", delete: "will be deleted" } as const;
const TRANSPORT_NAME: Record<number, string> = { 1: "sip", 4: "pstn", 5: "trunk" };

function isDestinationList(v: unknown): v is CanonicalDestination[] {
  return Array.isArray(v) && v.every((d) => d && typeof d === "object" && "transport" in d && "destination" in d);
}

/** One value as a person reads it; a URL's password shows as `***` (see mask.ts). */
export function formatValue(value: unknown): string {
  const v = maskDeep(value);
  if (v === null || v === undefined) return "null";
  if (isDestinationList(v)) {
    if (v.length === 0) return "[]";
    return `[${v
      .map((d) => `${d.priority}:${TRANSPORT_NAME[d.transport] ?? d.transport}:${d.destination}${d.trunk_id !== null ? `#${d.trunk_id}` : ""}`)
      .join(", ")}]`;
  }
  if (typeof v === "string") return JSON.stringify(v);
  return JSON.stringify(v);
}

/** What the plan says a change does: a kind without an update says its update is a replace. */
function verb(c: PlannedChange): string {
  const updateNote = c.action === "update" ? kindNamed(c.kind)?.updateNote : undefined;
  if (updateNote !== undefined) return `will be ${updateNote}`;
  return `${VERB[c.action]}${c.action === "delete" ? deleteNote(c) : ""}`;
}

function deleteNote(c: PlannedChange): string {
  // A kind whose "delete" is something else (a sub-account is disabled) says what really happens.
  return kindNamed(c.kind)?.deleteNote ?? "";
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
  return plan.problems.map((p) => `Error: ${p.kind} "${p.key}": ${maskText(p.message)}\n`).join("");
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

export function formatPlan(plan: Plan, file: string): string {
  const lines: string[] = [];
  if (plan.changes.length === 0 && plan.problems.length > 0) {
    lines.push(`No changes can be planned, but the account does not match ${file}: ${unplannedNote(plan)}; ${formatCount(plan.summary.unchanged)} unchanged.`);
  } else if (plan.changes.length === 0) {
    lines.push(`No changes. The account matches ${file} (${formatCount(plan.summary.unchanged)} unchanged).`);
  } else {
    lines.push("wavix-sync will perform the following actions:", "");
    for (const c of plan.changes) {
      lines.push(`  # ${c.kind} "${c.key}"${ownerNote(c)} ${verb(c)}`);
      lines.push(`  ${SYMBOL[c.action]} ${c.kind} "${c.key}"`);
      const width = Math.max(...c.diff.map((f) => f.path.length));
      for (const f of c.diff) lines.push(fieldLine(c, f, width));
      lines.push("");
    }
    const s = plan.summary;
    lines.push(
      `Plan: ${formatCount(s.create)} to create, ${formatCount(s.update)} to update, ${formatCount(s.delete)} to delete, ${formatCount(s.unchanged)} unchanged` +
        (plan.problems.length > 0 ? `; ${unplannedNote(plan)}.` : "."),
    );
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
  for (const r of ok.filter((x) => x.adopted)) lines.push(`Note: ${r.kind} "${r.key}": it was created by someone else after the plan was read; adopted it (no duplicate).`);
  const counts = { create: 0, update: 0, delete: 0 };
  for (const r of ok) counts[r.action]++;
  const rest: string[] = [];
  if (failed.length > 0) rest.push(`${formatCount(failed.length)} failed`);
  if (pending.length > 0) rest.push(`${formatCount(pending.length)} pending (the API is still applying them; plan later to confirm)`);
  if (notStarted.length > 0) rest.push(`${formatCount(notStarted.length)} not started`);
  const head = result.interrupted ? "Apply interrupted" : rest.length === 0 ? "Apply complete" : "Apply incomplete";
  lines.push(
    `${head}: ${formatCount(counts.create)} created, ${formatCount(counts.update)} updated, ${formatCount(counts.delete)} deleted` +
      (rest.length > 0 ? `, ${rest.join(", ")} ${rerunNote(failed, notStarted.length + pending.length)}.` : "."),
  );
  return lines.join("\n") + "\n";
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
