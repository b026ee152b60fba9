/**
 * The account callback defaults (`account_callbacks:`): the profile's `sms_relay_url` and
 * `dlr_relay_url`, set with `PUT /v1/profile`. The official profile answer does not return them,
 * so no plan can tell whether they differ, and a rule that sent them whenever declared would show a
 * change on every plan. The rule: they are sent only when a run is given `--send-callbacks` (the
 * engine's `send-callbacks` flag), as one PUT holding only the declared keys; without it the plan
 * sends nothing and says, as a note, that they cannot be read back. A GitOps pipeline passes the
 * flag when the file's `account_callbacks` changed (README, "Account callback defaults").
 *
 * The PUT may replace the whole profile, so it carries the whole profile from a fresh read, and
 * both callbacks (handler.ts): a plan that would send them reads the profile and names, as a
 * problem, what such a PUT would reset that it cannot carry (issue #27).
 */
import { PROFILE_KEY, type AccountCallbacksOp, type AccountCallbacksPart, type DesiredAccountCallbacks } from "./types";
import type { Kind, KindPlan, Write } from "../../kit/contract";
import { reportedResult } from "../../kit/contract";
import { CALLBACK_FIELDS, accountCallbacksFileForm } from "./file";
import { accountCallbacksFragment } from "./schema";
import { accountCallbacksSaved } from "./saved";
import { accountCallbacksEffects } from "./effects";
import { profileProblem, writeCallbacks } from "./handler";
import type { AccountProfile } from "../../client/types";
import { accountCallbacksSchema } from "./pulumi-schema";

/** The opt-in that sends them (CLI `--send-callbacks`). */
export const SEND_CALLBACKS = "send-callbacks";
export { PROFILE_KEY, type AccountCallbacksOp } from "./types";

const declaredFields = (d: DesiredAccountCallbacks) => CALLBACK_FIELDS.filter((k) => d[k] !== undefined);

export const accountCallbacksKind: Kind<"account_callbacks", DesiredAccountCallbacks, { profile?: AccountProfile }, AccountCallbacksOp, "AccountCallbacks", AccountCallbacksPart> = {
  name: "account_callbacks",
  label: { one: "account callback", many: "account callbacks" },
  file: accountCallbacksFragment,
  fileForm: accountCallbacksFileForm,
  saved: accountCallbacksSaved,
  effects: accountCallbacksEffects,
  // Nothing to export: the API cannot show them (the export leaves the key out).
  export: {
    text: async () => ({ form: "value", value: undefined }),
    state: async () => undefined,
  },
  pulumi: {
    type: "AccountCallbacks",
    collection: "accountCallbacks",
    program: () => (require("./pulumi") as typeof import("./pulumi")).accountCallbacksProgram,
    schema: () => accountCallbacksSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).accountCallbacksProvider,
  declared: (state) => state.account_callbacks,
  count: (declared) => declaredFields(declared).length,

  // Only when they will be sent: one GET checks the key may use the profile, and what a PUT must carry.
  async read(ctx, declared) {
    if (ctx.flags.has(SEND_CALLBACKS) && declaredFields(declared).length > 0) return { profile: await ctx.client.getAccountProfile() };
    return {};
  },

  plan(ctx, declared, { profile }) {
    const out: KindPlan<AccountCallbacksOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0, notes: [] };
    const fields = declaredFields(declared);
    if (fields.length === 0) return out;
    if (!ctx.flags.has(SEND_CALLBACKS)) {
      out.notes!.push({
        key: PROFILE_KEY,
        message: `${fields.join(", ")} cannot be read back (the API's profile answer does not return them), so the plan cannot tell whether they differ; they are sent only with --send-callbacks`,
      });
      return out;
    }
    const unsafe = profile === undefined ? undefined : profileProblem(profile, declared);
    if (unsafe) {
      out.problems.push({ key: PROFILE_KEY, message: unsafe });
      return out;
    }
    out.changes.push({
      diff: fields.map((k) => ({ path: k, before: null, after: declared[k], unreadable: true })),
      op: { key: PROFILE_KEY, action: "update", desired: declared },
    });
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => declaredFields(op.desired),
      // From a fresh read (the plan may be minutes old): the whole profile, or nothing.
      send: (client) => writeCallbacks(client, op.desired),
    })),

  // No read-back is possible: the PUT's success is the result.
  async confirm(_ctx, ops, report) {
    return { results: ops.map((op) => reportedResult(op, declaredFields(op.desired), report)) };
  },
};
