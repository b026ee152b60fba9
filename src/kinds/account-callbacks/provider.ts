/**
 * The account callback defaults' Pulumi dynamic provider (run inside the dynamic-provider host;
 * exported as `AccountCallbacks` by src/pulumi/provider-impl.ts). Pulumi keeps state, so here the
 * rule is the natural one: a change of the inputs against what state says was last sent is sent
 * (`PUT /v1/profile` with the declared keys only); `read` cannot see them and gives state back
 * unchanged (a refresh never shows a diff); deleting the resource leaves the account as it is.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AccountCallbacksInputs, AccountCallbacksOutputs } from "../../pulumi/types";
import { compact, configure, failureOf, hasUnknown, masterClient, unknownKeyFailures, validateEntry, type Props } from "../../pulumi/provider-host";
import { warnEngine } from "../../pulumi/engine-log";

const KEYS = ["smsRelayUrl", "dlrRelayUrl"];
const CAMEL: Record<string, string> = { sms_relay_url: "smsRelayUrl", dlr_relay_url: "dlrRelayUrl" };
const ID = "profile";

async function send(i: AccountCallbacksInputs): Promise<void> {
  const body = compact({ sms_relay_url: i.smsRelayUrl, dlr_relay_url: i.dlrRelayUrl });
  if (Object.keys(body).length > 0) await masterClient().updateProfileCallbacks(body);
}

export const AccountCallbacks: pulumi.dynamic.ResourceProvider<AccountCallbacksInputs, AccountCallbacksOutputs> = {
  configure,

  async check(_olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, KEYS);
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const result = validateEntry({ account_callbacks: compact({ sms_relay_url: raw.smsRelayUrl, dlr_relay_url: raw.dlrRelayUrl }) }, "AccountCallbacks");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^account_callbacks\.?/, (path) => CAMEL[path] ?? path)));
      return { inputs: news, failures };
    }
    const d = result.state.account_callbacks ?? {};
    return { inputs: compact({ smsRelayUrl: d.sms_relay_url, dlrRelayUrl: d.dlr_relay_url }), failures: [] };
  },

  async diff(_id, olds, news) {
    const changed = KEYS.some((k) => (olds as unknown as Props)[k] !== (news as unknown as Props)[k]);
    return { changes: changed, replaces: [], stables: [], deleteBeforeReplace: false };
  },

  async create(inputs) {
    await send(inputs);
    return { id: ID, outs: { ...inputs } };
  },

  // The API cannot show them: what state holds is what was last sent.
  async read(id, props) {
    const state = { ...(props ?? {}) } as AccountCallbacksOutputs;
    return { id, props: state, inputs: state };
  },

  async update(_id, _olds, news) {
    await send(news);
    return { outs: { ...news } };
  },

  async delete() {
    warnEngine("AccountCallbacks: deleting the resource leaves the account's sms_relay_url and dlr_relay_url as they are (the API has no way to unset them)");
  },
};
