/**
 * Machine rendering: `plan --json` and `apply --json`, exactly as docs/CONTRACT.md part 5 shows.
 * Fields are picked explicitly so nothing internal (ids, current records, keys) can leak.
 */
import type { FieldDiff } from "../kit/change/diff";
import type { ApplyResult, Plan } from "./types";
import { maskDeep, maskText } from "./mask";
import { isDestructive } from "./engine";

function diffJson(f: FieldDiff) {
  // URL passwords masked as in the text plan (mask.ts): --json output lands in CI logs too.
  return f.sensitive
    ? { path: f.path, before: null, after: "(sensitive)" }
    : { path: f.path, before: maskDeep(f.before ?? null), after: maskDeep(f.after ?? null), ...(f.unreadable ? { unreadable: true } : {}) };
}

export function planJson(plan: Plan) {
  return {
    version: 1 as const,
    changes: plan.changes.map((c) => ({
      kind: c.kind,
      key: c.key,
      action: c.action,
      // What a policy check reads: destructive by what it does (src/kit/change/effects.ts), and which effects.
      destructive: isDestructive(c),
      ...(isDestructive(c) ? { effects: [...(c.effects ?? [c.action])] } : {}),
      ...(c.owner ? { owner: { kind: c.owner.kind, key: c.owner.key, ...(c.owner.id !== undefined ? { id: c.owner.id } : {}) } } : {}),
      diff: c.diff.map(diffJson),
    })),
    unmanaged: plan.unmanaged.map((u) => ({ kind: u.kind, key: u.key })),
    ...(plan.problems.length > 0 ? { errors: plan.problems.map((p) => ({ kind: p.kind, key: p.key, message: maskText(p.message), ...(p.at ? { at: { ...p.at } } : {}) })) } : {}),
    ...(plan.notes && plan.notes.length > 0 ? { notes: plan.notes.map((n) => ({ kind: n.kind, key: n.key, message: maskText(n.message) })) } : {}),
    summary: { ...plan.summary },
    // --target: what it narrowed the plan to, and what it left out.
    ...(plan.targeted ? { targeted: { targets: [...plan.targeted.targets], left_out: plan.targeted.leftOut, left_out_problems: plan.targeted.leftOutProblems, unmatched: [...plan.targeted.unmatched] } } : {}),
    // A saved plan (plan --save, apply --plan): its digest, to match a pull-request comment with an apply.
    ...(plan.saved ? { saved_plan: { digest: plan.saved.digest } } : {}),
  };
}

export function applyJson(plan: Plan, result: ApplyResult) {
  return {
    ...planJson(plan),
    results: result.results.map((r) => ({
      kind: r.kind,
      key: r.key,
      action: r.action,
      outcome: r.outcome,
      ...(r.id !== undefined ? { id: r.id } : {}),
      ...(r.error !== undefined ? { error: maskText(r.error) } : {}),
      ...(r.reconciled ? { reconciled: true } : {}),
      ...(r.adopted ? { adopted: true } : {}),
      ...(r.twin !== undefined ? { twin: r.twin } : {}),
    })),
    pending: [...result.pending],
    ok: result.ok && plan.problems.length === 0,
    ...(result.interrupted ? { interrupted: true } : {}),
  };
}
