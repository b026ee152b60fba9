/**
 * What makes a 10DLC Campaign link change destructive (src/kit/change/effects.ts): a delete unlinks
 * the number from the Campaign, and Wavix deletes the numeric Sender ID it made for it.
 */
import type { ChangeShape, DestructiveEffect } from "../../kit/change/effects";

export function tenDlcNumberEffects(change: ChangeShape): DestructiveEffect[] {
  return change.action === "delete" ? ["unlink"] : [];
}
