/**
 * The blast-radius limits (docs/GUARD-RAILS.md): an apply whose destructive changes — by what they
 * do (each change's `effects`, src/kit/change/effects.ts: deletes, disables, releases, unlinks,
 * replaces, routing removed, limits lifted), whatever asked for them — reach more than a share of a
 * kind's items in the account, or more than a number in total across kinds, is refused unless
 * `--force` is given. Generic over the registry: it counts per kind name and never names one.
 *
 * A kind's items in the account are what its plan saw there: unchanged, updated, replaced, deleted
 * and unmanaged items (creates do not exist yet).
 */
import type { DesiredState, SafetySettings } from "../config/types";
import { existingItems, type PreparedPlan } from "./engine";
import { countBlast } from "../kit/gate/blast";
import type { ChangeKind } from "./types";
import { formatCount } from "./count";

/** Defaults of the file's `safety:` section. */
export const SAFETY_DEFAULTS: Required<SafetySettings> = { max_destructive_percent: 30, min_items: 10, max_destructive_total: 20 };

/** One kind over the limit. */
export interface SafetyViolation {
  kind: ChangeKind;
  /** Destructive changes of that kind in the plan. */
  destructive: number;
  /** Its items in the account, as the plan saw them. */
  existing: number;
  /** `destructive / existing`, in percent (rounded to one decimal). */
  percent: number;
}

export interface SafetyVerdict {
  limits: Required<SafetySettings>;
  /** Where the limits come from: the file's `safety:` section or the defaults. */
  source: "file" | "defaults";
  /** Kinds over the per-kind limit, in plan order. */
  violations: SafetyViolation[];
  /** Set when the destructive changes of all kinds together are more than `max_destructive_total`. */
  total?: { destructive: number; limit: number };
}

/** Whether a verdict refuses the apply (without `--force`). */
export function overLimit(verdict: SafetyVerdict | undefined): verdict is SafetyVerdict {
  return verdict !== undefined && (verdict.violations.length > 0 || verdict.total !== undefined);
}

/** The limits in force for a file. */
export function safetyLimits(desired: Pick<DesiredState, "safety">): Required<SafetySettings> {
  return { ...SAFETY_DEFAULTS, ...(desired.safety ?? {}) };
}

/** Checks a prepared plan against the limits (pure: no request). */
export function checkBlastRadius(prepared: PreparedPlan, desired: Pick<DesiredState, "safety">): SafetyVerdict {
  // Counted by the write gate's own rule (src/kit/gate/blast.ts), which applyPlan holds every run to.
  const verdict = countBlast(prepared.ops, safetyLimits(desired), existingItems(prepared.plan));
  return {
    limits: safetyLimits(desired),
    source: desired.safety === undefined ? "defaults" : "file",
    violations: verdict.violations.map((v) => ({ ...v, kind: v.kind as ChangeKind })),
    ...(verdict.total ? { total: verdict.total } : {}),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** One sentence per limit exceeded: how many, of which kind (or in total), which limit. */
export function safetyLines(verdict: SafetyVerdict): string[] {
  const { limits } = verdict;
  const defaults = verdict.source === "defaults" ? "; the defaults" : "";
  const lines = verdict.violations.map(
    (v) =>
      `${plural(v.destructive, "destructive change")} of ${v.kind} (${v.percent}% of the ${formatCount(v.existing)} in the account) ` +
      `exceed${v.destructive === 1 ? "s" : ""} the limit of safety.max_destructive_percent ${limits.max_destructive_percent}% ` +
      `(for a kind with at least safety.min_items ${formatCount(limits.min_items)}${defaults})`,
  );
  if (verdict.total) {
    lines.push(
      `${plural(verdict.total.destructive, "destructive change")} in all, across kinds, exceed the limit of safety.max_destructive_total ${formatCount(verdict.total.limit)}${defaults ? " (the default)" : ""}`,
    );
  }
  return lines;
}

/** What `plan` says when apply would be refused, and what a refused apply says: text lines. */
export function formatSafetyRefusal(verdict: SafetyVerdict, command: "plan" | "apply"): string {
  if (!overLimit(verdict)) return "";
  const head = command === "plan" ? "Apply would be refused without --force:" : "Apply refused (nothing was written):";
  return [head, ...safetyLines(verdict).map((l) => `  - ${l}`), "Review the plan; to apply it anyway, run apply with --force (or raise the limits in the file's safety: section)."].join("\n") + "\n";
}

/** The JSON form, added to `plan --json`/`apply --json` only when a limit is exceeded. */
export function safetyJson(verdict: SafetyVerdict, forced = false) {
  if (!overLimit(verdict)) return {};
  return {
    safety: {
      refused: !forced,
      ...(forced ? { forced: true } : {}),
      limits: { ...verdict.limits },
      violations: verdict.violations.map((v) => ({ ...v })),
      ...(verdict.total ? { total: { ...verdict.total } } : {}),
    },
  };
}
