/**
 * What makes a number change destructive (src/kit/change/effects.ts): a delete releases the number
 * (Pulumi's `on_delete: release`; the CLI never releases); an update removes its routing (no
 * destination left), narrows it (destinations lost, none new) or diverts it (a destination it did
 * not have: another PSTN number, SIP address or trunk), clears a callback URL (`sms_relay_url`,
 * `call_status_url`) or turns SMS off — whatever the file or a flag asked.
 */
import { cleared, fieldChange, routingChange, switchedOff, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

/** The number's callback URLs: cleared, the events they received go nowhere. */
const CALLBACKS = ["sms_relay_url", "call_status_url"] as const;

export function numberEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["release"];
  if (change.action !== "update") return [];
  const out: DestructiveEffect[] = [];
  const routing = routingChange(fieldChange(change, "destinations"));
  if (routing !== undefined) out.push(`routing_${routing}`);
  if (CALLBACKS.some((k) => cleared(fieldChange(change, k)))) out.push("callback_cleared");
  if (switchedOff(fieldChange(change, "sms_enabled"))) out.push("sms_disabled");
  return out;
}
