/**
 * The change model every kind speaks (docs/ARCHITECTURE.md, "The kit"): actions, owners and
 * results as plain data. The kind's name is any string down here; src/plan/types.ts narrows it to
 * the registered kinds' names (the registry sits above the kinds, so nothing here may name it).
 */

/**
 * What a change does to an item. `replace`: the item is deleted and created again (a kind whose API
 * has no update: a Sender ID), its own action so no summary or policy check can take it for an update.
 */
export type ChangeAction = "create" | "update" | "replace" | "delete";

/** Every action, in the order summaries show them. */
export const CHANGE_ACTIONS: readonly ChangeAction[] = ["create", "update", "replace", "delete"];

/** The owner of a planned item: another item, by kind and key (and its Wavix id). */
export interface ChangeOwner<Kind extends string = string> {
  kind: Kind;
  key: string;
  id?: number;
}

/**
 * `pending`: written, but an asynchronous part had not shown when `--wait` ran out (the API may
 * still be applying it); `not_started`: never sent, because the run was interrupted (Ctrl-C).
 */
export type ItemOutcome = "ok" | "failed" | "pending" | "not_started";

export interface ChangeResult<Kind extends string = string> {
  kind: Kind;
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
  /** Set when this run's create made a twin and removed it again: what was done (src/kit/twins.ts). */
  twin?: string;
  /** `false` when re-running cannot fix this failure (a twin, a name the API keeps otherwise): a person must. */
  rerunHelps?: false;
}
