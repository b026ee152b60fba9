/**
 * What makes a sub-account change destructive (src/kit/change/effects.ts): the API has no delete,
 * so a delete disables it; and an update that sets `status: disabled` disables it just the same,
 * whether `--prune` or the file asked for it.
 */
import { fieldChange, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

export function subAccountEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["disable"];
  if (change.action !== "update") return [];
  const status = fieldChange(change, "status");
  return status && status.after === "disabled" && status.before !== "disabled" ? ["disable"] : [];
}
