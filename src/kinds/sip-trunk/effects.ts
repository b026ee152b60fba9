/**
 * What makes a SIP trunk change destructive (src/kit/change/effects.ts): a delete, and an update
 * that lifts one of its limits — the outbound cost limit (`cost_limit` switched off, `max_call_cost`
 * removed), the call duration limit (`call_restrict` off, `call_limit` removed) or the channel limit
 * (`channels_restrict` off, `max_channels` removed): a trunk that may then run up any bill.
 */
import { fieldChange, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

/** The switches of the trunk's limits: on before, off (or unset) after lifts the limit. */
const SWITCHES = ["cost_limit", "call_restrict", "channels_restrict"] as const;
/** The limits' values: set before, removed after lifts the limit. */
const VALUES = ["max_call_cost", "call_limit", "max_channels"] as const;

const isSet = (v: unknown): boolean => v !== null && v !== undefined && v !== "";

export function sipTrunkEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["delete"];
  if (change.action !== "update") return [];
  const lifted =
    SWITCHES.some((k) => {
      const f = fieldChange(change, k);
      return f !== undefined && f.before === true && f.after !== true;
    }) ||
    VALUES.some((k) => {
      const f = fieldChange(change, k);
      return f !== undefined && isSet(f.before) && !isSet(f.after);
    });
  return lifted ? ["limit_lifted"] : [];
}
