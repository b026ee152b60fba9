/**
 * What makes a change of the account's callback defaults destructive (src/kit/change/effects.ts):
 * one that clears `sms_relay_url` or `dlr_relay_url` (set before, unset after). The API never shows
 * them back, so the CLI's plan cannot see a clear (its `before` is unknown); a Pulumi diff can,
 * from what state says was last sent. A delete or a replace counts as any kind's (`actionEffects`).
 */
import { actionEffects, cleared, fieldChange, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

const CALLBACKS = ["sms_relay_url", "dlr_relay_url"] as const;

export function accountCallbacksEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action !== "update") return actionEffects(change);
  return CALLBACKS.some((k) => cleared(fieldChange(change, k))) ? ["callback_cleared"] : [];
}
