/**
 * The saved-plan part of the kinds contract (`Kind.saved`, src/kit/contract.ts): every kind that
 * supports it gives back, from the saved JSON, ops that make the same writes; a kind without it makes
 * `plan --save` refuse, naming the kind, only when the plan holds one of its changes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { KINDS } from "../../src/kinds";
import { NO_EARLIER_WRITES } from "../../src/kit/contract";
import type { AnyKind } from "../../src/kinds";
import { checkTarget, computePlan, parseSavedPlan, recheckSavedPlan, savePlan, SavedPlanError, verifySavedPlan, type PreparedPlan } from "../../src/plan";
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

function desiredOf(yaml: string) {
  const parsed = parseDesiredState(yaml, "wavix.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.state;
}

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

const ctx = { baseUrl: "http://127.0.0.1:1", account: "1000", filePath: "wavix.yaml", fileBytes: Buffer.from(YAML), prune: true, toolVersion: "test" };

/** What a kind's writes carry, as data (keys and fields of each write, in order). */
function writesOf(kind: AnyKind, ops: readonly unknown[]) {
  return kind.writes(ops, NO_EARLIER_WRITES).map((w) => ({ keys: [...w.keys], fields: w.keys.map((k) => [...w.fields(k)]) }));
}

/** The other kinds' changes: SIP trunks, Sender IDs, 10DLC links, account callbacks, a tenant's number. */
const YAML2 = `version: 1
numbers:
  - number: "15550000021"
    sub_account: Acme Support
    sms_enabled: true
sip_trunks:
  - label: new-pbx
    password_env: SAVED_UNIT_TRUNK_PW
    callerid: "15550000001"
  - label: acme-pbx
    password_env: SAVED_UNIT_TRUNK_PW
    max_call_cost: "0.25"
    allowed_ips: [203.0.113.10]
sender_ids:
  - { sender_id: AcmeNew, type: alphanumeric, countries: [GB], usecase: transactional }
  - { sender_id: AcmeOld, type: alphanumeric, countries: [FR, GB], usecase: promo, replace: true }
ten_dlc_campaign_numbers:
  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: ["15550000001"] }
account_callbacks:
  sms_relay_url: https://hooks.example/sms
  dlr_relay_url: https://hooks.example/dlr
`;
const TRUNK_PW = "trunk-password-never-in-a-plan-77";

async function prepared2(): Promise<{ p: PreparedPlan; client: WavixClient }> {
  sim = await startSimulator({
    port: 0,
    apiKeys: [{ key: KEY }],
    seed: {
      numbers: [
        { id: 11, number: "15550000001" },
        { id: 21, number: "15550000021", organization: 2001, sms_enabled: false },
      ],
      subAccounts: [{ id: 2001, name: "Acme Support", api_key: SUB_KEY }],
      trunks: [
        { id: 500, name: "55500", label: "acme-pbx", callerid: "15550000001", max_call_cost: "0.18", password: "first" },
        { id: 501, name: "55501", label: "old-pbx", callerid: "15550000001" },
      ],
      senderIds: [
        { sender_id: "AcmeOld", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" },
        { sender_id: "Stale", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" },
      ],
      brands: [{ brand_id: "BRAND01" }],
      campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: [{ number: "15550000009", status: "APPROVED" }] }],
    },
  });
  const parsed = parseDesiredState(YAML2, "wavix.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
  return { p: await computePlan(client, parsed.state, { prune: true, flags: ["send-callbacks"], rotate: ["acme-pbx"] }), client };
}

describe("saved plans and the kinds contract", () => {
  it("SIP trunks, Sender IDs, 10DLC links, account callbacks and a tenant's number round-trip into the same writes, with no secret", async () => {
    process.env.SAVED_UNIT_TRUNK_PW = TRUNK_PW;
    try {
      const { p, client } = await prepared2();
      expect(p.plan.problems).toEqual([]);
      const { text } = savePlan(p, { ...ctx, fileBytes: Buffer.from(YAML2), secrets: [KEY] });
      for (const secret of [KEY, SUB_KEY, TRUNK_PW, "first"]) expect(text).not.toContain(secret);
      const back = parseSavedPlan(text).prepared;
      expect(back.ops.map((o) => [o.kind, o.key, o.action, o.destructive])).toEqual(p.ops.map((o) => [o.kind, o.key, o.action, o.destructive]));
      expect(new Set(p.ops.map((o) => `${o.kind} ${o.action} ${o.key}`))).toEqual(
        new Set([
          "number update 15550000021",
          "sip_trunk create new-pbx",
          "sip_trunk update acme-pbx",
          "sip_trunk delete old-pbx",
          "sender_id create AcmeNew",
          "sender_id replace AcmeOld",
          "sender_id delete Stale",
          "ten_dlc_number create BRAND01/CAMP001/15550000001",
          "ten_dlc_number delete BRAND01/CAMP001/15550000009",
          "account_callbacks update profile",
        ]),
      );
      for (const kind of KINDS) {
        const original = p.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
        if (original.length === 0) continue;
        const loaded = back.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
        expect(writesOf(kind, loaded), kind.name).toEqual(writesOf(kind, original));
      }
      const doc = JSON.parse(text);
      const saved = (kind: string, key: string) => doc.plan.changes.find((c: { kind: string; key: string }) => c.kind === kind && c.key === key);
      // The trunk's password: where it comes from, never the value; a rotation is recorded.
      expect(saved("sip_trunk", "acme-pbx").op).toEqual({ desired: { label: "acme-pbx", password_env: "SAVED_UNIT_TRUNK_PW", allowed_ips: ["203.0.113.10"], max_call_cost: "0.25" }, rotate: true });
      // The read: every setting the API showed (the replay's plan needs them all: a PUT is planned
      // only from a read showing every setting it carries), the managed ones as the diff compares them.
      expect(saved("sip_trunk", "acme-pbx").read).toMatchObject({ id: 500, label: "acme-pbx", allowed_ips: [], max_call_cost: "0.18", host: expect.any(String) });
      // The callbacks: sent because the plan was made with --send-callbacks, which the plan records.
      expect(saved("account_callbacks", "profile")).toMatchObject({ read: { readable: false }, op: { send_callbacks: true, desired: { sms_relay_url: "https://hooks.example/sms" } } });
      // The tenant's number: its owner by id and name, never the key.
      expect(saved("number", "15550000021").op.owner).toEqual({ id: 2001, name: "Acme Support" });
      // Verified: every change is what the file and the plan's reads imply, with the plan's opt-ins.
      await expect(verifySavedPlan(client, desiredOf(YAML2), parseSavedPlan(text), { prune: true, flags: ["send-callbacks"], rotate: ["acme-pbx"] })).resolves.toBeUndefined();
      // The recheck fetches the tenant's key with the master key; nothing changed, so nothing drifts.
      await expect(recheckSavedPlan(client, back)).resolves.toBeUndefined();
      const tenantOp = back.ops.find((o) => o.kind === "number")!.data as unknown as { owner: { client: WavixClient } };
      expect(tenantOp.owner.client.baseUrl).toBe(client.baseUrl);
    } finally {
      delete process.env.SAVED_UNIT_TRUNK_PW;
    }
  });

  it("a plan that must send a trunk password is refused, naming the variable, when it is not set at apply time", async () => {
    process.env.SAVED_UNIT_TRUNK_PW = TRUNK_PW;
    const { p } = await prepared2();
    const { text } = savePlan(p, { ...ctx, fileBytes: Buffer.from(YAML2) });
    delete process.env.SAVED_UNIT_TRUNK_PW;
    expect(() => parseSavedPlan(text)).toThrowError(/cannot be carried out in this environment; nothing was applied:\n {2}sip_trunk "new-pbx": .*SAVED_UNIT_TRUNK_PW \(password_env\) is not set or empty\n {2}sip_trunk "acme-pbx": .*SAVED_UNIT_TRUNK_PW/);
  });

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
    // Verified against the file it was made from; not against another (a changed URL, no prune).
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim!.url });
    await expect(verifySavedPlan(client, desiredOf(YAML), parseSavedPlan(text), { prune: true })).resolves.toBeUndefined();
    await expect(verifySavedPlan(client, desiredOf(YAML.replace("post2", "post3")), parseSavedPlan(text), { prune: true })).rejects.toThrowError(
      /call_webhook "post-call": op\.url is "https:\/\/hooks\.example\/post2" in the plan, and "https:\/\/hooks\.example\/post3" by the file and the plan's reads/,
    );
    await expect(verifySavedPlan(client, desiredOf(YAML), parseSavedPlan(text), { prune: false })).rejects.toThrowError(
      /sub_account "Legacy": the plan says delete, and wavix\.yaml and the plan's reads imply no change of it \(without --prune nothing undeclared is deleted\)/,
    );
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
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl, account: null })).toThrowError(/cannot be read \(GET \/v1\/profile\): pin `account_id: acct-1` in the file/);
    expect(() => checkTarget(document, { baseUrl: ctx.baseUrl })).not.toThrow(); // the account not compared yet
    expect(() => checkTarget(document, { baseUrl: "https://api.wavix.com", account: "acct-1" })).toThrowError(/made against http:\/\/127\.0\.0\.1:1, and this run talks to https:\/\/api\.wavix\.com/);
  });
});
