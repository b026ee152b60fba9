/**
 * The blast-radius rail of the write gate (docs/GUARD-RAILS.md, "The blast radius"): destructive
 * changes — by what they do, each kind's `effects` (src/kit/change/effects.ts, the kinds'
 * `effects.ts`) — counted per kind and in total. A whole run (the CLI, the library) is counted at
 * once before its first write; a deployment driven one resource at a time (Pulumi, Terraform) is
 * counted as it goes, and the change past the limit is refused.
 */
import type { DestructiveEffect } from "../change/effects";

/** The limits (the file's `safety:` section uses the same names). */
export interface BlastLimits {
  /** Of a kind's existing items (when it has at least `min_items`), in percent. */
  readonly max_destructive_percent: number;
  readonly min_items: number;
  /** Across kinds, in one run or deployment. */
  readonly max_destructive_total: number;
}

/** Defaults of the file's `safety:` section. */
export const BLAST_DEFAULTS: BlastLimits = { max_destructive_percent: 30, min_items: 10, max_destructive_total: 20 };

/** A change as the gate counts it: its kind, its identity, its destructive effects (empty: none). */
export interface GateChange {
  readonly kind: string;
  readonly key: string;
  readonly effects: readonly DestructiveEffect[];
  /** How messages name it, when not `kind "key"` (a Pulumi resource: `SubAccount "Acme" (id 501)`). */
  readonly what?: string;
}

/** One kind over the per-kind limit. */
export interface BlastViolation {
  kind: string;
  destructive: number;
  existing: number;
  /** `destructive / existing`, in percent (rounded to one decimal). */
  percent: number;
}

export interface BlastVerdict {
  limits: BlastLimits;
  violations: BlastViolation[];
  /** Set when the destructive changes of all kinds together are more than `max_destructive_total`. */
  total?: { destructive: number; limit: number };
}

/**
 * Counts `changes` against `limits`. `existing(kind)` is how many items of the kind the account
 * holds (the per-kind share applies only where it is known).
 */
export function countBlast(changes: Iterable<GateChange>, limits: BlastLimits, existing?: (kind: string) => number): BlastVerdict {
  const byKind = new Map<string, number>();
  let all = 0;
  for (const c of changes) {
    if (c.effects.length === 0) continue;
    byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    all++;
  }
  const violations: BlastViolation[] = [];
  if (existing) {
    for (const [kind, count] of byKind) {
      const n = existing(kind);
      if (n < limits.min_items) continue;
      const share = (count / n) * 100;
      if (share > limits.max_destructive_percent) violations.push({ kind, destructive: count, existing: n, percent: Math.round(share * 10) / 10 });
    }
  }
  return { limits, violations, ...(all > limits.max_destructive_total ? { total: { destructive: all, limit: limits.max_destructive_total } } : {}) };
}

/** Whether a verdict refuses (without the override). */
export function overBlastLimit(v: BlastVerdict | undefined): v is BlastVerdict {
  return v !== undefined && (v.violations.length > 0 || v.total !== undefined);
}

/** The gate refused a destructive change past the limit. Nothing of it was sent. */
export class BlastRadiusError extends Error {
  constructor(
    message: string,
    readonly verdict: BlastVerdict,
  ) {
    super(message);
    this.name = "BlastRadiusError";
  }
}
