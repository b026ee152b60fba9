/**
 * Destructive by effect (docs/GUARD-RAILS.md; issue #27): a change is destructive by what it does,
 * whatever asked for it — a delete, a disable, a release, an unlink, a replace, routing removed, a
 * limit lifted. The Pulumi providers name the effects of an update or a replacement in the preview
 * (a warning per resource: the engine shows them only as `~ update` / `+- replace`).
 *
 * ONE FUNCTION ON PURPOSE: the plan engine's per-kind classification (issue #27, the CLI half) is
 * meant to answer this question for every front end; until it is wired here, this body is an
 * interim classification by the file's field names. Re-point {@link destructiveEffects} and every
 * provider follows (src/kinds/<kind>/provider.ts call it from `diff`).
 */
import type { FieldDiff } from "./diff";

/** What a change is, as a provider's diff sees it: the action and the fields (file names, snake_case). */
export type EffectAction = "update" | "replace" | "delete";

/** Trunk limits: a limit on, then off (or a cap, then none). */
const LIMIT_SWITCHES = ["cost_limit", "call_restrict", "channels_restrict", "ip_restrict"];
const LIMIT_VALUES = ["max_call_cost", "call_limit", "max_channels"];

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== "";

/**
 * The destructive effects of one change of kind `kind` (`sub_account`, `number`, …), each a short
 * phrase ("disables it", "removes its routing (no destination left)"); empty when none.
 */
export function destructiveEffects(kind: string, action: EffectAction, diff: readonly FieldDiff[]): string[] {
  if (action === "delete") {
    return [kind === "sub_account" ? "disables it" : kind === "number" ? "releases it" : kind === "ten_dlc_number" ? "unlinks the number" : "deletes it"];
  }
  if (action === "replace") {
    if (kind === "sender_id") return ["replaces it: the Sender ID is deleted, then created again (it must be approved again)"];
    if (kind === "ten_dlc_number") return ["replaces the link: the number is unlinked from its Campaign"];
    return ["replaces it: the object the resource held is left or deleted by its onDelete rule, and another is created or adopted"];
  }
  const out: string[] = [];
  for (const d of diff) {
    if (d.path === "status" && d.before === "enabled" && d.after === "disabled") out.push("disables it");
    if (d.path === "destinations" && Array.isArray(d.before) && d.before.length > 0 && (!Array.isArray(d.after) || d.after.length === 0)) {
      out.push("removes its routing (no destination left)");
    }
    if (LIMIT_SWITCHES.includes(d.path) && d.before === true && d.after === false) out.push(`lifts a limit (${d.path}: true → false)`);
    if (LIMIT_VALUES.includes(d.path) && present(d.before) && !present(d.after)) out.push(`lifts a limit (${d.path} removed)`);
  }
  return out;
}
