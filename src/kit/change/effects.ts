/**
 * What makes a change destructive (docs/GUARD-RAILS.md, "What counts as destructive"): what it
 * does, whatever asked for it — `--prune`, a `status: disabled` in the file, an emptied list of
 * destinations, a lifted limit. Each kind decides it in one place, a function of the change
 * (`Kind.effects`, src/kit/contract.ts; the kind's own `effects.ts`), which the CLI's plan, saved
 * plans and the Pulumi providers all call, so the blast-radius limit counts the same effects on
 * every write path.
 */
import type { FieldDiff } from "./diff";
import type { ChangeAction } from "./types";

/**
 * A destructive effect:
 * - `delete`: the item is deleted (a call webhook, a SIP trunk, a Sender ID);
 * - `disable`: the item is disabled (a sub-account: pruned, or `status: disabled` in the file);
 * - `release`: a number is released (given back; Pulumi `on_delete: release` only);
 * - `unlink`: a number is unlinked from a 10DLC Campaign (Wavix deletes its Sender ID);
 * - `replace`: the item is deleted and created again (and approved again: a Sender ID);
 * - `routing_removed`: a number's calls are routed nowhere any more (its destinations emptied);
 * - `limit_lifted`: a SIP trunk's cost, duration or channel limit is switched off or removed.
 */
export type DestructiveEffect = "delete" | "disable" | "release" | "unlink" | "replace" | "routing_removed" | "limit_lifted";

/** Every effect, in the order renderers list them. */
export const DESTRUCTIVE_EFFECTS: readonly DestructiveEffect[] = ["delete", "disable", "release", "unlink", "replace", "routing_removed", "limit_lifted"];

/** What an effect is called in plans (`routing removed`). */
export const EFFECT_TEXT: Readonly<Record<DestructiveEffect, string>> = {
  delete: "delete",
  disable: "disable",
  release: "release",
  unlink: "unlink",
  replace: "replace",
  routing_removed: "routing removed",
  limit_lifted: "limit lifted",
};

/** A change as its kind's classification sees it: the action and the field diffs, in the file's field names. */
export interface ChangeShape {
  readonly action: ChangeAction;
  readonly diff: readonly FieldDiff[];
}

/** How a kind classifies its changes: the destructive effects of one (empty: not destructive). */
export type EffectsOf = (change: ChangeShape) => DestructiveEffect[];

/** The rule of a kind with nothing of its own: a delete deletes, a replace replaces. */
export function actionEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["delete"];
  if (change.action === "replace") return ["replace"];
  return [];
}

/** The diff entry of `path`, if the change has one. */
export function fieldChange(change: ChangeShape, path: string): FieldDiff | undefined {
  return change.diff.find((f) => f.path === path);
}

/** Effects in the order of {@link DESTRUCTIVE_EFFECTS}, each once. */
export function orderedEffects(effects: Iterable<DestructiveEffect>): DestructiveEffect[] {
  const set = new Set(effects);
  return DESTRUCTIVE_EFFECTS.filter((e) => set.has(e));
}

/** A change as a Pulumi provider's diff sees it (no create: a create destroys nothing). */
export type EffectAction = "update" | "replace" | "delete";

const LIMIT_SWITCHES = ["cost_limit", "call_restrict", "channels_restrict"];
const LIMIT_VALUES = ["max_call_cost", "call_limit", "max_channels"];
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== "";

/**
 * The effects of a change in words, for the Pulumi preview's warning (the engine shows only
 * `~ update` / `+- replace`): `classify` is the kind's own classification (the kind's
 * `effects.ts`, the one the CLI's plan counts), so both front ends name the same effects.
 */
export function effectPhrases(classify: EffectsOf, action: EffectAction, diff: readonly FieldDiff[]): string[] {
  return orderedEffects(classify({ action, diff })).map((e) => {
    switch (e) {
      case "delete":
        return "deletes it";
      case "disable":
        return "disables it";
      case "release":
        return "releases it";
      case "unlink":
        return "unlinks the number";
      case "replace":
        return "replaces it: the object is deleted (or left, by its onDelete rule), then another is created or adopted";
      case "routing_removed":
        return "removes its routing (no destination left)";
      case "limit_lifted": {
        const lifted = diff
          .filter((d) => (LIMIT_SWITCHES.includes(d.path) && d.before === true && d.after === false) || (LIMIT_VALUES.includes(d.path) && present(d.before) && !present(d.after)))
          .map((d) => (LIMIT_SWITCHES.includes(d.path) ? `${d.path}: true → false` : `${d.path} removed`));
        return `lifts a limit${lifted.length > 0 ? ` (${lifted.join(", ")})` : ""}`;
      }
    }
  });
}
