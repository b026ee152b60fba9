/**
 * The plan is plain data; rendering is separate (`format.ts` for people, `json.ts` for machines).
 */
import type { FieldDiff } from "../kit/change/diff";
import type * as change from "../kit/change/types";
import type { ChangeAction } from "../kit/change/types";
import type { DestructiveEffect } from "../kit/change/effects";
import type { RegisteredKind } from "../kinds";

/** A resource kind's name as plans show it (`sub_account`): one per kind of the registry (src/kinds/index.ts). */
export type ChangeKind = RegisteredKind["name"];
export type { ChangeAction, ItemOutcome } from "../kit/change/types";
export type { DestructiveEffect } from "../kit/change/effects";

export interface PlannedChange {
  kind: ChangeKind;
  /** The name, the digits or the event type. */
  key: string;
  action: ChangeAction;
  diff: FieldDiff[];
  /**
   * What makes it destructive (its kind's `effects`, src/kit/change/effects.ts): a delete, a disable,
   * a release, an unlink, a replace, routing removed, a limit lifted; empty when it is none of these.
   * Absent on plans built by hand: then only a delete or a replace is destructive.
   */
  effects?: DestructiveEffect[];
  /** Who owns the item when not the account itself (a tenant's number: its sub-account). */
  owner?: ChangeOwner;
}

/** The owner of a planned item: another item, by kind and key (and its Wavix id). */
export type ChangeOwner = change.ChangeOwner<ChangeKind>;

/** Something declared that cannot be planned (a number the account does not own, an ambiguous name). */
export interface PlanProblem {
  kind: ChangeKind;
  key: string;
  message: string;
  /** Where the item is declared (path, and position when known): rendered `FILE:LINE:COL: … (at path)`. */
  at?: { path: string; file?: string; line?: number; col?: number };
}

/** Something a person should know about a declared item that is neither a change nor a problem. */
export interface PlanNote {
  kind: ChangeKind;
  key: string;
  message: string;
}

export interface Unmanaged {
  kind: ChangeKind;
  key: string;
}

export interface PlanSummary {
  create: number;
  update: number;
  /** Deleted and created again (a Sender ID: the API has no update). */
  replace: number;
  delete: number;
  unchanged: number;
  /** Changes with a destructive effect, whatever their action (counted by the safety limits). */
  destructive: number;
}

export interface Plan {
  changes: PlannedChange[];
  unmanaged: Unmanaged[];
  problems: PlanProblem[];
  /** Neither changes nor problems (a link still pending, a value the API cannot show back); absent when none. */
  notes?: PlanNote[];
  summary: PlanSummary;
  /** `summary.unchanged` split by kind (the Markdown summary table); absent on plans built by hand. */
  unchangedByKind?: Record<ChangeKind, number>;
  /** Set when the plan is a saved one (`plan --save`, `apply --plan`): its digest, which every rendering names. */
  saved?: { digest: string };
  /**
   * Set when `--target` narrowed the plan (engine.ts `PlanOptions.targets`): the targets as given,
   * how many changes and problems of other items were left out, and the targets that matched no
   * change or problem (already as the file says, or not declared).
   */
  targeted?: { targets: string[]; leftOut: number; leftOutProblems: number; unmatched: string[] };
}

/** The result of one planned change once carried out (src/kit/change/types.ts), of a registered kind. */
export type ChangeResult = change.ChangeResult<ChangeKind>;

export interface ApplyResult {
  results: ChangeResult[];
  /** Numbers whose asynchronous change had not shown when `--wait` ran out. */
  pending: string[];
  ok: boolean;
  /** Set when the run was interrupted: items not yet sent were left alone (`not_started`). */
  interrupted?: boolean;
}
