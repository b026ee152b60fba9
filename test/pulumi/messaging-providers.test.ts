// The Pulumi side of Sender IDs, 10DLC Campaign numbers and account callbacks: `declareResources`
// captured under setMocks in a child process (compiled code), and each dynamic provider's methods
// run in-process against the strict simulator (the same rules as the file: a Sender ID change
// only with replace, a missing Campaign named, callbacks compared against state).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDesiredState } from "../../src/config";
import { applyConfig } from "../../src/pulumi/provider-host";
import { AccountCallbacks, SenderId, TenDlcCampaignNumber } from "../../src/pulumi/provider-impl";
import type { SenderIdInputs } from "../../src/pulumi/types";
import { startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources } from "../helpers/pulumi-host";

const KEY = "pulumi-messaging-key-0c3d";
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    seed: {
      numbers: [{ id: 1, number: "15550000001" }, { id: 2, number: "15550000002" }],
      brands: [{ brand_id: "BRAND01" }],
      campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: [{ number: "15550000001", status: "APPROVED" }] }],
      senderIds: [{ id: "11111111-1111-4111-8111-111111111111", sender_id: "ACME", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" }],
    },
    apiKeys: [{ key: KEY }],
    asyncDelayMs: 60_000,
  });
  applyConfig({ config: new Map([["wavix:apiKey", KEY], ["wavix:baseUrl", sim.url]]) } as never);
});

afterAll(async () => {
  await sim?.close();
});

const writes = () => sim.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

describe("declareResources", () => {
  it("declares a SenderId per sender_id, a TenDlcCampaignNumber per link and one AccountCallbacks", async () => {
    const parsed = parseDesiredState(
      [
        "version: 1",
        "sender_ids:",
        "  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: promo }",
        "ten_dlc_campaign_numbers:",
        '  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: ["15550000001", "15550000002"] }',
        "account_callbacks:",
        "  sms_relay_url: https://h.example/sms",
        "",
      ].join("\n"),
      "p.yaml",
    );
    if (!parsed.ok) throw new Error("fixture");
    const rs = await capturePulumiResources("dist/pulumi/program.js", "declareResources", { args: parsed.state });
    const summary = rs.map((r) => `${r.type.replace("pulumi-nodejs:dynamic/wavix:", "")} ${r.name}`).sort();
    expect(summary).toEqual([
      "AccountCallbacks account-callbacks",
      "SenderId sender-id:ACME",
      "TenDlcCampaignNumber ten-dlc-number:BRAND01/CAMP001/15550000001",
      "TenDlcCampaignNumber ten-dlc-number:BRAND01/CAMP001/15550000002",
    ]);
  });
});

describe("SenderId provider", () => {
  const acme: SenderIdInputs = { senderId: "ACME", type: "alphanumeric", countries: ["GB"], usecase: "promo" };

  it("check validates as the file does; create adopts an equal one without a write; read gives it back", async () => {
    const bad = await SenderId.check!({} as never, { ...acme, countries: ["gb"] } as never);
    expect(bad.failures?.[0].property).toBe("countries");
    const from = sim.log.length;
    const made = await SenderId.create!(acme);
    expect(made.id).toBe("11111111-1111-4111-8111-111111111111");
    expect(sim.log.slice(from).filter((e) => e.method !== "GET")).toEqual([]);
    expect(made.outs).toMatchObject({ adopted: true });
    const read = await SenderId.read!(made.id, made.outs);
    expect(read.props).toMatchObject({ senderId: "ACME", countries: ["GB"], usecase: "promo", wavixId: made.id, adopted: true });
    // Adopted: a delete leaves it (it would have to be approved again), unless onDelete: "delete".
    await SenderId.delete!(made.id, made.outs!);
    expect(sim.log.slice(from).filter((e) => e.method !== "GET")).toEqual([]);
    expect(sim.store.messaging.senderIds.has(made.id)).toBe(true);
  });

  it("a create that would replace an existing Sender ID it did not make needs onDelete: \"delete\"", async () => {
    const from = sim.log.length;
    const changed = { ...acme, countries: ["FR", "GB"], replace: true };
    await expect(SenderId.create!(changed)).rejects.toThrow(/Sender ID ACME exists \(id 11111111-1111-4111-8111-111111111111\) and differs \(countries\); this stack did not make it.*onDelete: "delete"/);
    expect(sim.log.slice(from).filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("diff refuses a change without replace: true, and replaces (delete first) with it", async () => {
    await expect(SenderId.diff!("x", { ...acme, wavixId: "x" }, { ...acme, usecase: "transactional" })).rejects.toThrow(/no update.*replace: true/);
    const d = await SenderId.diff!("x", { ...acme, wavixId: "x" }, { ...acme, usecase: "transactional", replace: true });
    expect(d).toMatchObject({ replaces: ["usecase"], deleteBeforeReplace: true });
    const monthly = await SenderId.diff!("x", { ...acme, wavixId: "x" }, { ...acme, monthlyVolume: "1-1000" });
    expect(monthly).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("TenDlcCampaignNumber provider", () => {
  it("links, reads the status, unlinks; a missing Campaign is named", async () => {
    const from = sim.log.length;
    const made = await TenDlcCampaignNumber.create!({ brandId: "BRAND01", campaignId: "CAMP001", number: "15550000002" });
    expect(made).toMatchObject({ id: "BRAND01/CAMP001/15550000002", outs: { status: "PENDING" } });
    const read = await TenDlcCampaignNumber.read!(made.id, made.outs);
    expect(read.props).toMatchObject({ number: "15550000002", status: "PENDING" });
    expect(made.outs).toMatchObject({ adopted: false });
    // Linked already (by the create above): another create adopts it.
    expect((await TenDlcCampaignNumber.create!({ brandId: "BRAND01", campaignId: "CAMP001", number: "15550000002" })).outs).toMatchObject({ adopted: true });
    // The APPROVED link existed before the stack: adopted, a delete leaves it (no request) unless onDelete: "delete".
    // (The state records the account, as a create or an import does: the write gate compares it.)
    const approved = { brandId: "BRAND01", campaignId: "CAMP001", number: "15550000001", status: "APPROVED", adopted: true, accountId: sim.store.masterId };
    const quiet = sim.log.length;
    await TenDlcCampaignNumber.delete!("BRAND01/CAMP001/15550000001", approved);
    expect(sim.log.length).toBe(quiet);
    await TenDlcCampaignNumber.delete!("BRAND01/CAMP001/15550000001", { ...approved, onDelete: "delete" });
    expect(writes().slice(-2)).toEqual([
      "POST /v3/10dlc/brands/BRAND01/campaigns/CAMP001/numbers/15550000002",
      "DELETE /v3/10dlc/brands/BRAND01/campaigns/CAMP001/numbers/15550000001",
    ]);
    expect(sim.log.length).toBeGreaterThan(from);
    await expect(TenDlcCampaignNumber.create!({ brandId: "BRAND01", campaignId: "NOPE", number: "15550000001" })).rejects.toThrow(/Campaign NOPE of Brand BRAND01 was not found/);
  });
});

describe("AccountCallbacks provider", () => {
  it("sends on create and on a change against state; read gives state back (no refresh diff)", async () => {
    const both = { smsRelayUrl: "https://h.example/sms", dlrRelayUrl: "https://h.example/dlr" };
    const created = await AccountCallbacks.create!(both);
    const made = { id: created.id, outs: created.outs! };
    expect(sim.store.messaging.callbacks).toEqual({ sms_relay_url: "https://h.example/sms", dlr_relay_url: "https://h.example/dlr" });
    const read = await AccountCallbacks.read!(made.id, made.outs);
    expect(read.props).toEqual({ ...both, accountId: sim.store.masterId });
    expect((await AccountCallbacks.diff!(made.id, made.outs, both)).changes).toBe(false);
    const changed = { ...both, dlrRelayUrl: "https://h.example/dlr2" };
    expect((await AccountCallbacks.diff!(made.id, made.outs, changed)).changes).toBe(true);
    await AccountCallbacks.update!(made.id, made.outs, changed);
    expect(sim.store.messaging.callbacks).toEqual({ sms_relay_url: "https://h.example/sms", dlr_relay_url: "https://h.example/dlr2" });
  });

  it("with one callback it refuses the PUT, naming the other: a PUT may replace the profile (issue #27)", async () => {
    await expect(AccountCallbacks.create!({ smsRelayUrl: "https://h.example/sms" })).rejects.toThrow(/declare dlr_relay_url too/);
  });
});
