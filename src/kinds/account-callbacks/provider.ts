/**
 * The account callback defaults' provider (src/kit/provider/contract.ts; served as
 * `AccountCallbacks` by src/pulumi/provider-impl.ts). Pulumi keeps state, so here the
 * rule is the natural one: a change of the inputs against what state says was last sent is sent
 * (`PUT /v1/profile` carrying the whole profile from a fresh read and both callbacks, handler.ts:
 * the PUT may replace the profile); `read` cannot see them and gives state back
 * unchanged (a refresh never shows a diff); deleting the resource leaves the account as it is.
 * The outputs record the account (`accountId`): an update to another account's profile is refused.
 */
import type { AccountCallbacksInputs, AccountCallbacksOutputs, AccountCallbacksPart } from "./types";
import { compact, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { writeCallbacks } from "./handler";
import { checkAccount } from "../../kit/provider/guards";

const KEYS = ["smsRelayUrl", "dlrRelayUrl"];
const CAMEL: Record<string, string> = { sms_relay_url: "smsRelayUrl", dlr_relay_url: "dlrRelayUrl" };
const ID = "profile";

async function send(ctx: ProviderContext, i: AccountCallbacksInputs, stored?: object): Promise<void> {
  const body = compact({ sms_relay_url: i.smsRelayUrl, dlr_relay_url: i.dlrRelayUrl });
  if (Object.keys(body).length > 0) await writeCallbacks(ctx.writer(ctx.masterClient(), { what: "AccountCallbacks", effects: [], stored }), body);
}

export const accountCallbacksProvider: KindProvider<AccountCallbacksInputs, AccountCallbacksOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, KEYS);
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const result = ctx.checkEntry<AccountCallbacksPart>({ account_callbacks: compact({ sms_relay_url: raw.smsRelayUrl, dlr_relay_url: raw.dlrRelayUrl }) }, "AccountCallbacks");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^account_callbacks\.?/, (path) => CAMEL[path] ?? path)));
      return { inputs: news, failures };
    }
    const d = result.state.account_callbacks ?? {};
    return { inputs: compact({ smsRelayUrl: d.sms_relay_url, dlrRelayUrl: d.dlr_relay_url }), failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const diffs = KEYS.filter((k) => (olds as unknown as Props)[k] !== (news as unknown as Props)[k]);
    return { changes: diffs.length > 0, diffs, replaces: [], stables: ["accountId"], deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    await send(ctx, inputs);
    const accountId = await ctx.account();
    return { id: ID, outs: compact({ ...inputs, accountId }) };
  },

  // The API cannot show them: what state holds is what was last sent.
  async read(ctx, id, props) {
    const state = { ...(props ?? {}) } as AccountCallbacksOutputs;
    const { accountId: _a, ...inputs } = state;
    return { id, props: state, inputs };
  },

  async update(ctx, _id, olds, news) {
    await checkAccount(ctx, "AccountCallbacks", olds as unknown as Props, "updated");
    await send(ctx, news, olds);
    return { outs: compact({ ...news, accountId: olds.accountId }) };
  },

  // Import id: `profile`, the one object; the API cannot show its callbacks, so nothing is managed
  // until the program declares them. One GET checks that the key reaches the account.
  async import(ctx, importId) {
    if (importId !== ID) throw new Error(`AccountCallbacks is imported by the id ${JSON.stringify(ID)} (the account's profile), not ${JSON.stringify(importId)}`);
    await ctx.masterClient().getAccountProfile();
    return { id: ID, props: {}, inputs: {} };
  },

  async delete(ctx) {
    ctx.warn("AccountCallbacks: deleting the resource leaves the account's sms_relay_url and dlr_relay_url as they are (the API has no way to unset them)");
  },
};
