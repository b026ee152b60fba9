/**
 * The plan is plain data; rendering is separate (`format.ts` for people, `json.ts` for machines).
 */
import type { FieldDiff } from "../resources/diff";

/** A resource kind's name as plans show it (`sub_account`): one per kind of the registry (src/kinds/index.ts). */
export type ChangeKind = import("../kinds").RegisteredKind["name"];
export type ChangeAction = "create" | "update" | "delete";

export interface PlannedChange {
  kind: ChangeKind;
  /** The name, the digits or the event type. */
  key: string;
  action: ChangeAction;
  diff: FieldDiff[];
  /** Who owns the item when not the account itself (a tenant's number: its sub-account). */
  owner?: ChangeOwner;
}

/** The owner of a planned item: another item, by kind and key (and its Wavix id). */
export interface ChangeOwner {
  kind: ChangeKind;
  key: string;
  id?: number;
}

/** Something declared that cannot be planned (a number the account does not own, an ambiguous name). */
export interface PlanProblem {
  kind: ChangeKind;
  key: string;
  message: string;
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
  delete: number;
  unchanged: number;
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
}

/**
 * `pending`: written, but an asynchronous part had not shown when `--wait` ran out (the API may
 * still be applying it); `not_started`: never sent, because the run was interrupted (Ctrl-C).
 */
export type ItemOutcome = "ok" | "failed" | "pending" | "not_started";

export interface ChangeResult {
  kind: ChangeKind;
  key: string;
  action: ChangeAction;
  outcome: ItemOutcome;
  /** Why it failed: the API's message, with the field it named. Never a secret. */
  error?: string;
  /** The Wavix id of what a create made (or adopted), when the kind has one (a sub-account's). */
  id?: string | number;
  /** Set when a create whose outcome was unknown was found by re-reading instead of sent again. */
  reconciled?: boolean;
  /** Set when a sub-account to create already existed by name right before the POST, and was adopted. */
  adopted?: boolean;
  /** `false` when re-running cannot fix this failure (a twin, a name the API keeps otherwise): a person must. */
  rerunHelps?: false;
}

export interface ApplyResult {
  results: ChangeResult[];
  /** Numbers whose asynchronous change had not shown when `--wait` ran out. */
  pending: string[];
  ok: boolean;
  /** Set when the run was interrupted: items not yet sent were left alone (`not_started`). */
  interrupted?: boolean;
}
