/**
 * What makes a sub-account change destructive (src/kit/change/effects.ts): the API has no delete,
 * so a delete disables it; an update that sets `status: disabled` disables it just the same,
 * whether `--prune` or the file asked for it; and one that clears a default destination
 * (`default_destinations.sms_endpoint` or `.dlr_endpoint`) clears a callback.
 */
import { cleared, fieldChange, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

const CALLBACKS = ["default_destinations.sms_endpoint", "default_destinations.dlr_endpoint"] as const;

export function subAccountEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["disable"];
  if (change.action !== "update") return [];
  const out: DestructiveEffect[] = [];
  const status = fieldChange(change, "status");
  if (status && status.after === "disabled" && status.before !== "disabled") out.push("disable");
  if (CALLBACKS.some((k) => cleared(fieldChange(change, k)))) out.push("callback_cleared");
  return out;
}
