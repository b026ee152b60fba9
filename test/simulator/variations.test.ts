/**
 * The whole sync scenario (plan, apply, plan, export, plan) under each simulator variation, each
 * one an answer the official contract allows and real servers give: unset URLs as "", bulk answers
 * without items, a sub-account listing that ignores paging, optional fields absent, unknown extra
 * fields. Exact under each: converged, no perpetual diff, no duplicate, the export plans clean.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState, stringifyDesiredState } from "../../src/config";
import type { DesiredState } from "../../src/config/types";
import { applyPlan, computePlan } from "../../src/plan";
import { exportAccount } from "../../src/resources/export";
import { EXTRA_FIELD, SIM_VARIATIONS, startSimulator, type SimSeed, type Simulator, type SimVariation } from "../../src/simulator";
import { api } from "./helpers";

const KEY = "variations-master-key-4k2p";

/** More sub-accounts than one page of the official default size (25), so paging matters. */
const SUB_ACCOUNTS = 30;

function seed(): SimSeed {
  return {
    numbers: [
      // A URL set, to be cleared by the file; another unset, to stay unset.
      { id: 21, number: "15551230001", sms_enabled: true, sms_relay_url: "https://old.example/sms", call_status_url: null },
      // Unset URLs, to be set by the file (one uniform change to two numbers: a bulk PATCH).
      { id: 22, number: "15551230002", sms_enabled: false, sms_relay_url: null, call_status_url: null },
      { id: 23, number: "15551230003", sms_enabled: false, sms_relay_url: null, call_status_url: null },
      // Not managed by the file: exported, and must plan clean after the round trip.
      { id: 24, number: "15551230004", sms_enabled: true, sms_relay_url: null, call_status_url: "https://keep.example/status" },
    ],
    subAccounts: Array.from({ length: SUB_ACCOUNTS }, (_, i) => ({
      id: 3001 + i,
      name: `Tenant ${String(i + 1).padStart(2, "0")}`,
      api_key: `variations-sub-key-${i}`,
      // Every third one has an endpoint set; the rest are unset (served "" under empty-urls).
      ...(i % 3 === 0 ? { default_destinations: { sms_endpoint: `https://t${i}.example/sms` } } : {}),
    })),
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

/** Declares the last sub-account (on page 2 when paging is honoured) and a new one. */
const FILE = `version: 1
sub_accounts:
  - name: Tenant ${SUB_ACCOUNTS}
    status: disabled
  - name: Tenant 01
    default_destinations:
      dlr_endpoint: https://t0.example/dlr
  - name: Brand New
    default_destinations:
      sms_endpoint: https://new.example/sms
numbers:
  - number: "15551230001"
    sms_relay_url: null
    call_status_url: null
    sms_enabled: false
  - number: "15551230002"
    sms_relay_url: https://hooks.example/inbound
    call_status_url: https://hooks.example/status
  - number: "15551230003"
    sms_relay_url: https://hooks.example/inbound
    call_status_url: https://hooks.example/status
call_webhooks:
  on-call: https://hooks.example/on
`;

function parse(text: string, file = "wavix.yaml"): DesiredState {
  const r = parseDesiredState(text, file);
  if (!r.ok) throw new Error(`does not validate: ${JSON.stringify(r.problems)}`);
  return r.state;
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function scenario(variations: SimVariation[]) {
  sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], asyncDelayMs: 30, variations });
  const drift: string[] = [];
  const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url, onWarning: (m) => drift.push(m) });
  const desired = parse(FILE);

  const first = await computePlan(client, desired);
  expect(first.plan.problems).toEqual([]);
  expect(first.plan.summary).toMatchObject({ create: 2, update: 5 }); // + Brand New, + on-call

  const applied = await applyPlan(client, first, { pollBaseMs: 20, waitSeconds: 20 });
  expect(applied.results.filter((r) => r.outcome !== "ok")).toEqual([]);
  expect(applied.pending).toEqual([]);

  // Converged: the store holds what the file says.
  const n = (digits: string) => [...sim!.store.numbers.values()].find((r) => r.data.number === digits)!.data;
  expect(n("15551230001")).toMatchObject({ sms_enabled: false, sms_relay_url: null, call_status_url: null });
  expect(n("15551230002")).toMatchObject({ sms_relay_url: "https://hooks.example/inbound", call_status_url: "https://hooks.example/status" });
  expect(n("15551230003")).toMatchObject({ sms_relay_url: "https://hooks.example/inbound" });
  const names = [...sim.store.subAccounts.values()].map((r) => r.data.name);
  expect(names.filter((x) => x === "Brand New")).toHaveLength(1);
  expect(new Set(names).size).toBe(names.length); // no duplicate
  expect([...sim.store.subAccounts.values()].find((r) => r.data.name === `Tenant ${SUB_ACCOUNTS}`)!.data.status).toBe("disabled");

  // No perpetual diff.
  const second = await computePlan(client, desired);
  expect(second.plan.problems).toEqual([]);
  expect(second.plan.changes).toEqual([]);

  // Export: never "", no sub-account twice, and it plans clean.
  const exported = await exportAccount(client);
  const text = stringifyDesiredState(exported);
  expect(text).not.toMatch(/:\s*""\s*$/m);
  const exportedNames = (exported.sub_accounts ?? []).map((s) => s.name);
  expect(new Set(exportedNames).size).toBe(exportedNames.length);
  expect(exportedNames).toHaveLength(SUB_ACCOUNTS + 1);
  const third = await computePlan(client, parse(text, "export.yaml"));
  expect(third.plan.problems).toEqual([]);
  expect(third.plan.changes).toEqual([]);
  return { drift };
}

describe("the whole scenario under each variation", () => {
  it("the simulator's own answers (no variation)", async () => {
    const { drift } = await scenario([]);
    expect(drift).toEqual([]);
  });

  for (const variation of SIM_VARIATIONS) {
    it(`variation ${variation}`, async () => {
      const { drift } = await scenario([variation]);
      // Only unknown fields are drift from the seed-derived schemas (reported, never fatal).
      if (variation === "unknown-extra-fields") expect(drift.join("\n")).toContain(EXTRA_FIELD);
      else expect(drift).toEqual([]);
    });
  }

  it("every variation at once", async () => {
    await scenario([...SIM_VARIATIONS]);
  });
});

describe("what each variation serves", () => {
  it("empty-urls: unset number URLs and sub-account endpoints are sent as \"\"", async () => {
    sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], variations: ["empty-urls"] });
    const num = await api<Record<string, unknown>>(sim, "GET", "/v1/numbers/22", { key: KEY });
    expect(num.body).toMatchObject({ sms_relay_url: "", call_status_url: "" });
    const sub = await api<{ default_destinations: Record<string, unknown> }>(sim, "GET", "/v1/sub-organizations/3002", { key: KEY });
    expect(sub.body.default_destinations).toEqual({ sms_endpoint: "", dlr_endpoint: "" });
    // What is stored is untouched.
    expect(sim.store.numbers.get(22)!.data.sms_relay_url).toBeNull();
  });

  it("bulk-without-items: a bulk PATCH answers {} and still applies", async () => {
    sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], variations: ["bulk-without-items"] });
    const r = await api(sim, "PATCH", "/v1/numbers", { key: KEY, body: { ids: [22, 23], sms_enabled: true } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(sim.store.numbers.get(23)!.data.sms_enabled).toBe(true);
  });

  it("sub-account-listing-ignores-paging: every page answers the whole listing, without pagination", async () => {
    sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], variations: ["sub-account-listing-ignores-paging"] });
    type L = { sub_organizations: { id: number }[]; pagination?: unknown };
    const one = await api<L>(sim, "GET", "/v1/sub-organizations?page=1&per_page=25", { key: KEY });
    const two = await api<L>(sim, "GET", "/v1/sub-organizations?page=2&per_page=25", { key: KEY });
    expect(one.body.sub_organizations).toHaveLength(SUB_ACCOUNTS);
    expect(one.body).not.toHaveProperty("pagination");
    expect(two.body.sub_organizations.map((s) => s.id)).toEqual(one.body.sub_organizations.map((s) => s.id));
  });

  it("optional-fields-absent and unknown-extra-fields", async () => {
    sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], variations: ["optional-fields-absent", "unknown-extra-fields"] });
    const unset = await api<Record<string, unknown>>(sim, "GET", "/v1/numbers/22", { key: KEY });
    for (const k of ["free_min", "unlimited", "call_status_url"]) expect(unset.body).not.toHaveProperty(k);
    expect(unset.body[EXTRA_FIELD]).toBe("number");
    // A URL that is set is never hidden.
    const set = await api<Record<string, unknown>>(sim, "GET", "/v1/numbers/24", { key: KEY });
    expect(set.body.call_status_url).toBe("https://keep.example/status");
    const sub = await api<Record<string, unknown>>(sim, "GET", "/v1/sub-organizations/3001", { key: KEY });
    expect(sub.body[EXTRA_FIELD]).toBe("sub_account");
  });
});
