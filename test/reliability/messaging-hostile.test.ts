/**
 * Sender IDs, 10DLC Campaign numbers and account callbacks against a hostile server
 * (test/helpers/hostile-server.ts) in front of the real simulator, whose store is the referee:
 * a Sender ID create whose answer is lost makes no twin; a listing without its list writes nothing;
 * statuses that change on every read and numbers shown with a `+` never make a plan change; a
 * profile PUT that fails is a failed item naming the field.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import type { DesiredState } from "../../src/config/types";
import { applyPlan, computePlan } from "../../src/plan";
import { startSimulator, type SimSeed } from "../../src/simulator";
import { startHostileServer, type HostileServer } from "../helpers/hostile-server";

const KEY = "messaging-hostile-key-6b1e";
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const SEED: SimSeed = {
  numbers: [
    { id: 1, number: "15550000001" },
    { id: 2, number: "15550000002" },
  ],
  brands: [{ brand_id: "BRAND01" }],
  campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: [{ number: "15550000001", status: "APPROVED" }] }],
  senderIds: [{ id: "11111111-1111-4111-8111-111111111111", sender_id: "ACME", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" }],
};

async function setup(): Promise<{ hostile: HostileServer; client: WavixClient; store: Awaited<ReturnType<typeof startSimulator>>["store"] }> {
  const sim = await startSimulator({ seed: structuredClone(SEED), apiKeys: [{ key: KEY }], asyncDelayMs: 60_000 });
  opened.push(sim);
  const hostile = await startHostileServer(sim.url);
  opened.push(hostile);
  return { hostile, client: new WavixClient({ apiKey: KEY, baseUrl: hostile.url, retry: { backoffLimitMs: 20 } }), store: sim.store };
}

function parse(yaml: string): DesiredState {
  const r = parseDesiredState(yaml, "h.yaml");
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.state;
}

const writes = (h: HostileServer) => h.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

describe("hostile server: Sender IDs", () => {
  it("a create that commits but whose answer is dropped is found by listing, never sent twice", async () => {
    const { hostile, client, store } = await setup();
    hostile.set({ after: (req) => (req.method === "POST" ? "drop" : undefined) });
    const yaml = "version: 1\nsender_ids:\n  - { sender_id: NEWCO, type: alphanumeric, countries: [GB], usecase: promo }\n";
    const result = await applyPlan(client, await computePlan(client, parse(yaml)));
    expect(result.results).toEqual([{ kind: "sender_id", key: "NEWCO", action: "create", outcome: "ok", reconciled: true }]);
    expect([...store.messaging.senderIds.values()].filter((s) => s.sender_id === "NEWCO")).toHaveLength(1);
    expect(writes(hostile)).toEqual(["POST /v3/messages/sender-ids"]);
  });

  it("a listing answered 200 without its items is refused naming the request; nothing is deleted", async () => {
    const { hostile, client, store } = await setup();
    hostile.set({ rewrite: (req, status, body) => (req.path === "/v3/messages/sender-ids" ? { success: false, message: "busy" } : body) });
    const yaml = "version: 1\nsender_ids: []\n";
    await expect(computePlan(client, parse(yaml), { prune: true })).rejects.toThrow(/GET \/v3\/messages\/sender-ids.*items/);
    expect(writes(hostile)).toEqual([]);
    expect(store.messaging.senderIds.size).toBe(1);
  });
});

describe("hostile server: 10DLC Campaign numbers", () => {
  it("statuses that change on every read and digits shown with + never make a change", async () => {
    const { hostile, client } = await setup();
    const statuses = ["PENDING", "APPROVED", "FAILED", "IN_PROGRESS"];
    let n = 0;
    hostile.set({
      rewrite: (req, status, body) => {
        if (!req.path.endsWith("/numbers") || status !== 200) return body;
        const b = body as { numbers: { number: string; status: string }[] };
        return { ...b, numbers: b.numbers.map((x) => ({ number: `+${x.number}`, status: statuses[n++ % statuses.length] })) };
      },
    });
    const yaml = 'version: 1\nten_dlc_campaign_numbers:\n  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: ["15550000001"] }\n';
    for (let i = 0; i < 4; i++) {
      const p = await computePlan(client, parse(yaml), { prune: true });
      expect(p.plan.changes).toEqual([]);
      expect(p.plan.summary.unchanged).toBe(1);
    }
    expect(writes(hostile)).toEqual([]);
  });

  it("a link whose answer is dropped is retried (linking twice links once) and confirmed by the read-back", async () => {
    const { hostile, client, store } = await setup();
    let dropped = 0;
    hostile.set({ after: (req) => (req.method === "POST" && dropped++ === 0 ? "drop" : undefined) });
    const yaml = 'version: 1\nten_dlc_campaign_numbers:\n  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: ["15550000001", "15550000002"] }\n';
    const result = await applyPlan(client, await computePlan(client, parse(yaml)));
    expect(result.ok).toBe(true);
    expect([...store.messaging.campaign("BRAND01", "CAMP001")!.numbers.keys()].sort()).toEqual(["15550000001", "15550000002"]);
  });
});

describe("hostile server: account callbacks", () => {
  it("a PUT answered 500 fails the item; nothing claims it was sent", async () => {
    const { hostile, client } = await setup();
    hostile.set({ before: (req) => (req.method === "PUT" ? { status: 500, body: { success: false, message: "Internal error" } } : undefined) });
    const p = await computePlan(client, parse("version: 1\naccount_callbacks:\n  sms_relay_url: https://h.example/sms\n  dlr_relay_url: https://h.example/dlr\n"), { flags: ["send-callbacks"] });
    const result = await applyPlan(client, p);
    expect(result.ok).toBe(false);
    expect(result.results[0]).toMatchObject({ kind: "account_callbacks", key: "profile", outcome: "failed" });
  });
});
