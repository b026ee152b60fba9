/**
 * What makes a number change destructive (src/kit/change/effects.ts): a delete releases the number
 * (Pulumi's `on_delete: release`; the CLI never releases), and an update that leaves it no
 * destination removes its routing (its calls reach nobody), whatever the file or a flag asked.
 */
import { fieldChange, type ChangeShape, type DestructiveEffect } from "../../kit/change/effects";

const routes = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

export function numberEffects(change: ChangeShape): DestructiveEffect[] {
  if (change.action === "delete") return ["release"];
  if (change.action !== "update") return [];
  const destinations = fieldChange(change, "destinations");
  // Emptied: it had somewhere to send calls, and will have nowhere.
  return destinations && routes(destinations.before) > 0 && routes(destinations.after) === 0 ? ["routing_removed"] : [];
}
