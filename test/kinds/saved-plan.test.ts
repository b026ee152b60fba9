/**
 * The saved-plan part of the kinds contract (`Kind.saved`, src/kinds/contract.ts): every kind that
 * supports it gives back, from the saved JSON, ops that make the same writes; a kind without it makes
 * `plan --save` refuse, naming the kind, only when the plan holds one of its changes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { KINDS } from "../../src/kinds";
import { NO_EARLIER_WRITES, type AnyKind } from "../../src/kinds/contract";
import { checkTarget, computePlan, parseSavedPlan, savePlan, SavedPlanError, type PreparedPlan } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";

const KEY = "saved-plan-unit-key-Qm4";
const SUB_KEY = "sub-key-acme-should-never-show";

const YAML = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
    default_destinations:
      dlr_endpoint: https://a.example/dlr
  - name: New Co
numbers:
  - number: "15550000001"
    sms_enabled: true
    sms_relay_url: null
    destinations:
      - { destination: sip.example.net, transport: sip, priority: 1 }
      - { destination: trunk-login, transport: trunk, trunk_id: 144, priority: 2 }
  - number: "15550000002"
    sms_enabled: true
call_webhooks:
  post-call: https://hooks.example/post2
`;

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function prepared(prune = true): Promise<PreparedPlan> {
  sim = await startSimulator({
    port: 0,
    apiKeys: [{ key: KEY }],
    seed: {
      numbers: [
        { id: 11, number: "15550000001", sms_enabled: false, sms_relay_url: "https://old.example/sms" },
        { id: 12, number: "15550000002", sms_enabled: false },
      ],
      subAccounts: [
        { id: 2001, name: "Acme Support", api_key: SUB_KEY },
        { id: 2002, name: "Legacy", api_key: "sub-key-legacy-never-show" },
      ],
      callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }, { event_type: "on-call", url: "https://hooks.example/on" }],
    },
  });
  const parsed = parseDesiredState(YAML, "wavix.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return computePlan(new WavixClient({ apiKey: KEY, baseUrl: sim.url }), parsed.state, { prune });
}

const ctx = { baseUrl: "http://127.0.0.1:1", filePath: "wavix.yaml", fileBytes: Buffer.from(YAML), prune: true, toolVersion: "test" };

/** What a kind's writes carry, as data (keys and fields of each write, in order). */
function writesOf(kind: AnyKind, ops: readonly unknown[]) {
  return kind.writes(ops, NO_EARLIER_WRITES).map((w) => ({ keys: [...w.keys], fields: w.keys.map((k) => [...w.fields(k)]) }));
}

describe("saved plans and the kinds contract", () => {
  it("every kind with saved support round-trips its ops through JSON into the same writes", async () => {
    const p = await prepared();
    const { text } = savePlan(p, ctx);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(SUB_KEY);
    expect(text).not.toContain("sub-key-legacy-never-show");
    const back = parseSavedPlan(text).prepared;
    expect(back.ops.map((o) => [o.kind, o.key, o.action, o.destructive])).toEqual(p.ops.map((o) => [o.kind, o.key, o.action, o.destructive]));
    // Every kind of the registry has a change here (create, update, disable/delete).
    const kinds = new Set(p.ops.map((o) => o.kind));
    for (const kind of KINDS.filter((k) => k.saved && kinds.has(k.name))) {
      const original = p.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
      const loaded = back.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
      expect(writesOf(kind, loaded), kind.name).toEqual(writesOf(kind, original));
    }
    expect(kinds).toEqual(new Set(["sub_account", "number", "call_webhook"]));
    expect(back.plan.changes).toEqual(p.plan.changes);
  });

  it("a kind without saved support: plan --save refuses naming it, and a plan without its changes saves", async () => {
    const p = await prepared();
    const without = KINDS.map((k) => (k.name === "call_webhook" ? { ...k, saved: undefined } : k));
    expect(() => savePlan(p, ctx, without)).toThrowError(SavedPlanError);
    expect(() => savePlan(p, ctx, without)).toThrowError(/call_webhook changes are not supported in saved plans yet; nothing was written/);
    const noWebhooks: PreparedPlan = { plan: p.plan, ops: p.ops.filter((o) => o.kind !== "call_webhook") };
    const { text } = savePlan(noWebhooks, ctx, without);
    expect(parseSavedPlan(text, without).prepared.ops.length).toBe(noWebhooks.ops.length);
    // And a saved plan holding such a kind's changes is refused when read by a build without it.
    const full = savePlan(p, ctx).text;
    expect(() => parseSavedPlan(full, without)).toThrowError(/call_webhook "post-call": call_webhook changes are not supported in saved plans/);
  });

  it("refuses to save a plan that would hold the API key", async () => {
    const p = await prepared();
    expect(() => savePlan(p, { ...ctx, secrets: ["https://hooks.example/post2"] })).toThrowError(/it would hold the API key/);
  });

  it("a plan naming an account is refused for another account, or when the account cannot be told", async () => {
    const p = await prepared();
    const { document } = savePlan(p, { ...ctx, account: "acct-1" });
    expect(document.plan.target).toEqual({ base_url: ctx.baseUrl, account: "acct-1" });
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl, account: "acct-1" })).not.toThrow();
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl, account: "acct-2" })).toThrowError(
      "Error: this plan was made for account acct-1, and the key in WAVIX_API_KEY is for account acct-2; nothing was applied.",
    );
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl, account: null })).toThrowError(/is for an account it cannot identify/);
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl })).not.toThrow(); // the account not compared yet
    expect(() => checkTarget(document, { baseUrl: "https://api.wavix.com", account: "acct-1" })).toThrowError(/made against http:\/\/127\.0\.0\.1:1, and this run talks to https:\/\/api\.wavix\.com/);
  });
});
