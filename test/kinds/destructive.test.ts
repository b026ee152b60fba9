// What a safety limit counts (src/kit/contract.ts `destructive`, src/plan/engine.ts
// `destructiveCount`): a pruned sub-account (disabled) and a pruned call webhook (deleted) are
// destructive; creates and updates are not. Against the real simulator over HTTP.
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { computePlan, destructiveCount } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";

const KEY = "destructive-test-key-77a1";
let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function plan(yaml: string, prune: boolean) {
  sim = await startSimulator({
    seed: {
      numbers: [{ id: 11, number: "15550000001", sms_enabled: false }],
      subAccounts: [
        { id: 2001, name: "Acme", api_key: "sub-a-1" },
        { id: 2002, name: "Legacy", api_key: "sub-l-2" },
      ],
      callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
    },
    apiKeys: [{ key: KEY }],
  });
  const parsed = parseDesiredState(yaml, "d.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return computePlan(new WavixClient({ apiKey: KEY, baseUrl: sim.url }), parsed.state, { prune });
}

describe("destructive changes", () => {
  it("counts a pruned sub-account and a pruned call webhook, not a create or an update", async () => {
    const yaml = [
      "version: 1",
      "sub_accounts:",
      "  - name: Acme",
      "  - name: New Tenant",
      "numbers:",
      '  - number: "15550000001"',
      "    sms_enabled: true",
      "call_webhooks:",
      "  on-call: https://hooks.example/on",
      "",
    ].join("\n");
    const prepared = await plan(yaml, true);
    const actions = prepared.ops.map((o) => `${o.kind}:${o.action}:${o.key}:${o.destructive}`);
    expect(actions).toEqual([
      "sub_account:create:New Tenant:false",
      "sub_account:delete:Legacy:true",
      "call_webhook:create:on-call:false",
      "call_webhook:delete:post-call:true",
      "number:update:15550000001:false",
    ]);
    expect(destructiveCount(prepared)).toBe(2);
  });

  it("counts nothing without --prune (undeclared items are only shown as unmanaged)", async () => {
    const prepared = await plan("version: 1\nsub_accounts: []\ncall_webhooks: {}\n", false);
    expect(prepared.ops).toHaveLength(0);
    expect(destructiveCount(prepared)).toBe(0);
    expect(prepared.plan.unmanaged.map((u) => `${u.kind}:${u.key}`)).toEqual(["sub_account:Acme", "sub_account:Legacy", "call_webhook:post-call"]);
  });
});
