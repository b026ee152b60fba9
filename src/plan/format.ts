/**
 * Human rendering of a plan and of apply results, in the manner of `terraform plan`:
 * `+ create`, `~ update`, `- delete`, each changed field `before → after`, secrets `(sensitive)`.
 */
import type { CanonicalDestination, FieldDiff } from "../resources/diff";
import type { ApplyResult, Plan, PlannedChange } from "./types";
import { maskDeep, maskText } from "./mask";

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

function deleteNote(c: PlannedChange): string {
  // A sub-account has no delete operation: say what really happens.
  return c.kind === "sub_account" ? " (disabled: the API has no delete)" : "";
}

function fieldLine(c: PlannedChange, f: FieldDiff, width: number): string {
  const name = f.path.padEnd(width);
  const after = f.sensitive ? "(sensitive)" : formatValue(f.after);
  if (c.action === "create") return `      + ${name} = ${after}`;
  const before = f.sensitive ? "(sensitive)" : formatValue(f.before);
  return `      ~ ${name} = ${before} → ${after}`;
}

export function formatPlan(plan: Plan, file: string): string {
  const lines: string[] = [];
  for (const p of plan.problems) lines.push(`Error: ${p.kind} "${p.key}": ${maskText(p.message)}`);
  if (plan.problems.length > 0) lines.push("");
  if (plan.changes.length === 0) {
    lines.push(`No changes. The account matches ${file} (${plan.summary.unchanged} unchanged).`);
  } else {
    lines.push("wavix-sync will perform the following actions:", "");
    for (const c of plan.changes) {
      lines.push(`  # ${c.kind} "${c.key}" ${VERB[c.action]}${c.action === "delete" ? deleteNote(c) : ""}`);
      lines.push(`  ${SYMBOL[c.action]} ${c.kind} "${c.key}"`);
      const width = Math.max(...c.diff.map((f) => f.path.length));
      for (const f of c.diff) lines.push(fieldLine(c, f, width));
      lines.push("");
    }
    const s = plan.summary;
    lines.push(`Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged.`);
  }
  if (plan.unmanaged.length > 0) {
    lines.push("");
    lines.push(
      `Unmanaged (in the account, not in ${file}; left alone — declare them, or use --prune): ` +
        plan.unmanaged.map((u) => `${u.kind} "${u.key}"`).join(", "),
    );
  }
  return lines.join("\n") + "\n";
}

export function formatApplyResult(result: ApplyResult): string {
  const ok = result.results.filter((r) => r.outcome === "ok");
  const failed = result.results.filter((r) => r.outcome === "failed");
  const lines: string[] = [];
  for (const r of failed) lines.push(`Failed: ${r.kind} "${r.key}" (${r.action}): ${maskText(r.error ?? "")}`);
  const reconciled = ok.filter((r) => r.reconciled);
  for (const r of reconciled) lines.push(`Note: ${r.kind} "${r.key}": the create's outcome was unknown; found it created and adopted it (no duplicate).`);
  const counts = { create: 0, update: 0, delete: 0 };
  for (const r of ok) counts[r.action]++;
  lines.push(
    `Apply ${failed.length === 0 ? "complete" : "incomplete"}: ${counts.create} created, ${counts.update} updated, ${counts.delete} deleted` +
      (failed.length > 0 ? `, ${failed.length} failed (a re-run finishes the rest).` : "."),
  );
  return lines.join("\n") + "\n";
}
