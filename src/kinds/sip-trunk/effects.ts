/**
 * What makes a SIP trunk change destructive (src/kit/change/effects.ts): a delete, and an update
 * that lifts one of its limits — `ip_restrict` switched off (calls from any address), the outbound
 * cost limit (`cost_limit` off, `max_call_cost` removed or raised), the call duration limit
 * (`call_restrict` off, `call_limit` removed or raised) or the channel limit (`channels_restrict`
 * off, `max_channels` removed or raised): a trunk that may then run up a larger bill.
 */
import { limitLifted, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

export function sipTrunkEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["delete"];
  if (change.action !== "update") return [];
  return change.diff.some(limitLifted) ? ["limit_lifted"] : [];
}
