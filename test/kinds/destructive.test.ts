// What the safety limits count (each kind's `effects`, src/kit/change/effects.ts; src/plan/engine.ts
// `destructiveCount`): a pruned sub-account (disabled) and a pruned call webhook (deleted) are
// destructive; creates and plain updates are not. Against the real simulator over HTTP; then each
// kind's rule on its own.
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { computePlan, destructiveCount, effectsOf } from "../../src/plan";
import { KINDS } from "../../src/kinds";
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

// Each kind's one rule (its effects.ts), as the plan engine, saved plans and the Pulumi providers call it.
describe("what each kind counts as destructive, whatever asked for it", () => {
  const update = (...diff: { path: string; before: unknown; after: unknown }[]) => ({ action: "update" as const, diff });
  const effects = (name: string, change: Parameters<typeof effectsOf>[1]) => effectsOf(KINDS.find((k) => k.name === name)!, change);

  it("sub-accounts: a delete disables; so does status: disabled from the file; an endpoint cleared clears a callback; a rename does not", () => {
    expect(effects("sub_account", { action: "delete", diff: [] })).toEqual(["disable"]);
    expect(effects("sub_account", update({ path: "status", before: "enabled", after: "disabled" }))).toEqual(["disable"]);
    expect(effects("sub_account", update({ path: "status", before: "disabled", after: "enabled" }))).toEqual([]);
    expect(effects("sub_account", update({ path: "name", before: "A", after: "B" }, { path: "default_destinations.sms_endpoint", before: "https://a", after: "https://b" }))).toEqual([]);
    expect(effects("sub_account", update({ path: "default_destinations.sms_endpoint", before: "https://a", after: null }))).toEqual(["callback_cleared"]);
    expect(effects("sub_account", { action: "create", diff: [{ path: "status", before: null, after: "disabled" }] })).toEqual([]);
  });

  it("numbers: destinations emptied remove the routing, another route diverts it, SMS off turns it off; a first route does not; a delete releases", () => {
    const sip = { priority: 1, transport: 1, destination: "sip.example.net", trunk_id: null };
    expect(effects("number", update({ path: "destinations", before: [sip], after: [] }))).toEqual(["routing_removed"]);
    expect(effects("number", update({ path: "destinations", before: [sip], after: [{ ...sip, destination: "other.example.net" }] }))).toEqual(["routing_diverted"]);
    expect(effects("number", update({ path: "destinations", before: [], after: [sip] }))).toEqual([]);
    expect(effects("number", update({ path: "sms_enabled", before: true, after: false }))).toEqual(["sms_disabled"]);
    expect(effects("number", { action: "delete", diff: [] })).toEqual(["release"]);
  });

  it("SIP trunks: a limit switched off, removed or raised is lifted; a limit set or lowered is not; a delete deletes", () => {
    for (const [path, before, after] of [
      ["cost_limit", true, false],
      ["max_call_cost", "0.18", null],
      ["call_restrict", true, false],
      ["call_limit", 600, null],
      ["channels_restrict", true, false],
      ["max_channels", 4, null],
      ["ip_restrict", true, false],
      ["max_call_cost", "0.18", "0.25"],
      ["call_limit", 600, 6000],
      ["max_channels", 4, 100000],
    ] as const) {
      expect(effects("sip_trunk", update({ path, before, after })), path).toEqual(["limit_lifted"]);
    }
    expect(effects("sip_trunk", update({ path: "cost_limit", before: false, after: true }))).toEqual([]);
    expect(effects("sip_trunk", update({ path: "max_call_cost", before: "0.18", after: "0.10" }))).toEqual([]);
    expect(effects("sip_trunk", update({ path: "max_call_cost", before: null, after: "0.25" }))).toEqual([]);
    expect(effects("sip_trunk", update({ path: "host", before: "203.0.113.1", after: "dynamic" }))).toEqual([]);
    expect(effects("sip_trunk", { action: "delete", diff: [] })).toEqual(["delete"]);
  });

  it("10DLC links: a delete unlinks; Sender IDs: a replace replaces and a delete deletes; webhooks: a delete deletes", () => {
    expect(effects("ten_dlc_number", { action: "delete", diff: [] })).toEqual(["unlink"]);
    expect(effects("ten_dlc_number", { action: "create", diff: [] })).toEqual([]);
    expect(effects("sender_id", { action: "replace", diff: [] })).toEqual(["replace"]);
    expect(effects("sender_id", { action: "delete", diff: [] })).toEqual(["delete"]);
    expect(effects("call_webhook", { action: "delete", diff: [] })).toEqual(["delete"]);
    expect(effects("call_webhook", update({ path: "url", before: "https://a", after: "https://b" }))).toEqual([]);
  });
});
