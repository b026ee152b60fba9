/**
 * Account callbacks in saved plans (docs/SAVED-PLANS.md). A plan holds their change only when it
 * was made with `--send-callbacks`, and the saved op records that (`send_callbacks: true`), so
 * `apply --plan` sends exactly them, whatever flags it is given. The API cannot show them back
 * (the profile answer does not return them): the read records that (`readable: false`), and the
 * recheck has nothing to compare. It sends the one `GET /v1/profile` the plan's read sent, so a key
 * that may not use the profile is refused before anything is written.
 */
import type { SavedPlanSupport } from "../../kit/contract";
import type { AccountProfile } from "../../client/types";
import { actionOf, httpUrl, record, SavedDataError } from "../../kit/file/saved-data";
import { CALLBACK_FIELDS } from "./file";
import { PROFILE_KEY, type AccountCallbacksOp, type DesiredAccountCallbacks } from "./types";

export const accountCallbacksSaved: SavedPlanSupport<AccountCallbacksOp, DesiredAccountCallbacks, { profile?: AccountProfile }> = {
  save(op) {
    const desired: Record<string, string> = {};
    for (const k of CALLBACK_FIELDS) if (op.desired[k] !== undefined) desired[k] = op.desired[k]!;
    return { read: { readable: false }, op: { send_callbacks: true, desired } };
  },

  load(key, action, saved) {
    if (key !== PROFILE_KEY) throw new SavedDataError(`"${key}" is not the account callbacks' item "${PROFILE_KEY}"`);
    actionOf(action, ["update"] as const, "account callbacks' item");
    if (record(saved.read, "read").readable !== false) throw new SavedDataError("read.readable is not false (the API cannot show them back)");
    const o = record(saved.op, "op");
    if (o.send_callbacks !== true) throw new SavedDataError("op.send_callbacks is not true (they are in a plan only when it was made with --send-callbacks)");
    const d = record(o.desired, "op.desired");
    const desired: DesiredAccountCallbacks = {};
    for (const k of Object.keys(d)) {
      if (!(CALLBACK_FIELDS as readonly string[]).includes(k)) throw new SavedDataError(`op.desired.${k} is not an account callback`);
    }
    for (const k of CALLBACK_FIELDS) if (d[k] !== undefined) desired[k] = httpUrl(d[k], `op.desired.${k}`);
    if (Object.keys(desired).length === 0) throw new SavedDataError("op.desired sets no account callback");
    return { key, action: "update", desired };
  },

  // Nothing to rebuild: they cannot be read (write-only). The profile the plan checked is not
  // recorded: the write reads it again and refuses a PUT it cannot build whole (handler.ts).
  replay: (declared) => ({ declared, current: {} }),

  // Nothing can be compared (write-only); the plan's read was this one request.
  async recheck(ctx, ops) {
    if (ops.length > 0) await ctx.client.getAccountProfile();
    return [];
  },
};
