/**
 * What makes a change destructive (docs/GUARD-RAILS.md, "What counts as destructive"): what it
 * does, whatever asked for it — `--prune`, a `status: disabled` in the file, an emptied list of
 * destinations, a lifted limit. Each kind decides it in one place, a function of the change
 * (`Kind.effects`, src/kit/contract.ts; the kind's own `effects.ts`), which the CLI's plan, saved
 * plans and the Pulumi providers all call, so the blast-radius limit counts the same effects on
 * every write path.
 */
import type Decimal from "decimal.js";
import { decimalJs } from "../../util/lazy-deps";
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
 * - `routing_narrowed`: a number keeps some of its destinations and loses others, gaining none;
 * - `routing_diverted`: a number that had destinations gains one it did not have (another PSTN
 *   number, SIP address or trunk): its calls may go somewhere new;
 * - `limit_lifted`: a SIP trunk's limit is switched off (`ip_restrict`, `cost_limit`,
 *   `call_restrict`, `channels_restrict`), removed, or raised (`max_call_cost`, `call_limit`,
 *   `max_channels`);
 * - `callback_cleared`: a callback URL that was set is cleared (a number's `sms_relay_url` or
 *   `call_status_url`, a sub-account's default destinations, the account's callbacks): the events
 *   it received go nowhere;
 * - `sms_disabled`: a number's SMS is turned off (`sms_enabled` true → false).
 */
export type DestructiveEffect =
  | "delete"
  | "disable"
  | "release"
  | "unlink"
  | "replace"
  | "routing_removed"
  | "routing_narrowed"
  | "routing_diverted"
  | "limit_lifted"
  | "callback_cleared"
  | "sms_disabled";

/** Every effect, in the order renderers list them. */
export const DESTRUCTIVE_EFFECTS: readonly DestructiveEffect[] = [
  "delete",
  "disable",
  "release",
  "unlink",
  "replace",
  "routing_removed",
  "routing_narrowed",
  "routing_diverted",
  "limit_lifted",
  "callback_cleared",
  "sms_disabled",
];

/** What an effect is called in plans (`routing removed`). */
export const EFFECT_TEXT: Readonly<Record<DestructiveEffect, string>> = {
  delete: "delete",
  disable: "disable",
  release: "release",
  unlink: "unlink",
  replace: "replace",
  routing_removed: "routing removed",
  routing_narrowed: "routing narrowed",
  routing_diverted: "routing diverted",
  limit_lifted: "limit lifted",
  callback_cleared: "callback cleared",
  sms_disabled: "SMS turned off",
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

// ---- the classes, as the kinds' effects.ts test a field's change ----------------------------------

/** A value that says something: not absent, null, or blank text (an unset URL reads so, docs/CONTRACT.md part 4). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/** A switch that was on and is off (or unset) after: `ip_restrict`, `cost_limit`, `sms_enabled`. */
export function switchedOff(f: FieldDiff | undefined): boolean {
  return f !== undefined && f.before === true && f.after !== true;
}

/** A value that was set and is not after: a URL cleared, a limit removed. */
export function cleared(f: FieldDiff | undefined): boolean {
  return f !== undefined && isSet(f.before) && !isSet(f.after);
}

/** A decimal (money as text, or a count) parsed exactly; undefined when it is not one. */
function decimalOf(v: unknown): Decimal | undefined {
  if (typeof v !== "number" && typeof v !== "string") return undefined;
  try {
    const d = new (decimalJs())(v);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

/** A limit set before and higher after, compared as decimals (`"0.18"` → `"0.25"`, 4 → 8). */
export function raised(f: FieldDiff | undefined): boolean {
  if (f === undefined) return false;
  const a = decimalOf(f.before);
  const b = decimalOf(f.after);
  return a !== undefined && b !== undefined && b.greaterThan(a);
}

/** Where a destination sends calls (its priority aside): transport, destination and trunk. */
export function routeTarget(d: unknown): string {
  const o = (d ?? {}) as { transport?: unknown; destination?: unknown; trunk_id?: unknown; trunk?: unknown };
  return [Number(o.transport), String(o.destination ?? ""), o.trunk_id ?? o.trunk ?? ""].join("\u0000");
}

/** The targets of a list of destinations (none when it is not a list). */
export function routeTargets(v: unknown): Set<string> {
  return new Set(Array.isArray(v) ? v.map(routeTarget) : []);
}

/**
 * How a change of destinations changes where calls go: `removed` (none left), `narrowed` (some
 * kept, some lost, none new), `diverted` (a target it did not have, when it had any), or nothing
 * (the same targets, perhaps in another order or priority; or a first route).
 */
export function routingChange(f: FieldDiff | undefined): "removed" | "narrowed" | "diverted" | undefined {
  if (f === undefined) return undefined;
  const before = routeTargets(f.before);
  const after = routeTargets(f.after);
  if (before.size === 0) return undefined;
  if (after.size === 0) return "removed";
  if ([...after].some((t) => !before.has(t))) return "diverted";
  if ([...before].some((t) => !after.has(t))) return "narrowed";
  return undefined;
}

// ---- in words ------------------------------------------------------------------------------------

const show = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The limits a kind may lift, by the names its file gives them (a SIP trunk's, src/kinds/sip-trunk/effects.ts):
 * switches that hold a limit while on, and the limits' values.
 */
export const LIMIT_SWITCHES: readonly string[] = ["ip_restrict", "cost_limit", "call_restrict", "channels_restrict"];
export const LIMIT_VALUES: readonly string[] = ["max_call_cost", "call_limit", "max_channels"];

/** A limit switched off, removed or raised by this field's change. */
export function limitLifted(f: FieldDiff | undefined): boolean {
  if (f === undefined) return false;
  if (LIMIT_SWITCHES.includes(f.path)) return switchedOff(f);
  return LIMIT_VALUES.includes(f.path) && (cleared(f) || raised(f));
}

/** What the change does to the limits it touches: `ip_restrict: true → false`, `max_channels 4 → 100000`, `call_limit removed`. */
function limitDetail(diff: readonly FieldDiff[]): string[] {
  return diff
    .filter(limitLifted)
    .map((d) => (LIMIT_SWITCHES.includes(d.path) ? `${d.path}: true → false` : cleared(d) ? `${d.path} removed` : `${d.path} ${show(d.before)} → ${show(d.after)}`));
}

/**
 * The effects of a change in words, for the Pulumi preview's warning (the engine shows only
 * `~ update` / `+- replace`): `classify` is the kind's own classification (the kind's
 * `effects.ts`, the one the CLI's plan counts), so both front ends name the same effects.
 */
export function effectPhrases(classify: EffectsOf, action: EffectAction, diff: readonly FieldDiff[]): string[] {
  const routes = diff.find((d) => routingChange(d) !== undefined);
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
      case "routing_narrowed":
        return `narrows its routing (${routeTargets(routes?.before).size} → ${routeTargets(routes?.after).size} destinations)`;
      case "routing_diverted": {
        const before = routeTargets(routes?.before);
        const added = (Array.isArray(routes?.after) ? routes.after : []).filter((d) => !before.has(routeTarget(d))).map((d) => show((d as { destination?: unknown }).destination));
        return `diverts its routing (to ${added.join(", ")}, which it did not route to)`;
      }
      case "limit_lifted": {
        const lifted = limitDetail(diff);
        return `lifts a limit${lifted.length > 0 ? ` (${lifted.join(", ")})` : ""}`;
      }
      case "callback_cleared": {
        const gone = diff.filter((d) => typeof d.before === "string" && cleared(d)).map((d) => d.path);
        return `clears a callback URL${gone.length > 0 ? ` (${gone.join(", ")})` : ""}`;
      }
      case "sms_disabled":
        return "turns SMS off (sms_enabled: true → false)";
    }
  });
}
