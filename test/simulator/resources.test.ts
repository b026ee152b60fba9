import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import type {
  BrandListResponse,
  BrandVetting,
  Call,
  SubAccount,
  SubAccountListResponse,
  TwoFaEvent,
  TwoFaSession,
  WavixNumber,
} from "../../src/client/types";
import { api, withSim } from "./helpers";

let sim: Simulator;
beforeEach(async () => {
  sim = await withSim();
});
afterEach(async () => {
  await sim.close();
});

describe("sub-organizations", () => {
  test("list is paged and filters by status", async () => {
    const r = await api<SubAccountListResponse>(sim, "GET", "/v1/sub-organizations?per_page=1");
    expect(r.status).toBe(200);
    expect(r.body.sub_organizations.map((s) => s.name)).toEqual(["Acme Support"]);
    expect(r.body.pagination).toEqual({ current_page: 1, per_page: 1, total: 2, total_pages: 2 });
    await api(sim, "PUT", "/v1/sub-organizations/2002", { body: { name: "Legacy Team", status: "disabled" } });
    const disabled = await api<SubAccountListResponse>(sim, "GET", "/v1/sub-organizations?status=disabled");
    expect(disabled.body.sub_organizations.map((s) => s.id)).toEqual([2002]);
  });

  test("POST creates an enabled sub-account with a generated api_key, GET reads it back", async () => {
    const r = await api<SubAccount>(sim, "POST", "/v1/sub-organizations", {
      body: { name: "New Co", default_destinations: { sms_endpoint: "https://n.example/sms" } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: "New Co",
      status: "enabled",
      master_organization: 1000,
      // An unset endpoint is left out (seed 2.8 and the official schema show string URLs only).
      default_destinations: { sms_endpoint: "https://n.example/sms" },
    });
    expect(r.body.api_key).toMatch(/^[0-9a-f]{32}$/);
    const got = await api<SubAccount>(sim, "GET", `/v1/sub-organizations/${r.body.id}`);
    expect(got.body).toEqual(r.body);
  });

  test("POST validates name (required, max 255) and endpoint URIs", async () => {
    sim.expectBadRequests(); // on purpose: name missing, too long, endpoints not URIs
    const missing = await api(sim, "POST", "/v1/sub-organizations", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, message: expect.any(String), errors: { name: "required" } });
    const long = await api(sim, "POST", "/v1/sub-organizations", { body: { name: "x".repeat(256) } });
    expect(long.body).toMatchObject({ errors: { name: expect.stringContaining("255") } });
    const badUrl = await api(sim, "POST", "/v1/sub-organizations", {
      body: { name: "A", default_destinations: { dlr_endpoint: "" } },
    });
    expect(badUrl.body).toMatchObject({ errors: { "default_destinations.dlr_endpoint": "must be a valid URI" } });
  });

  test("PUT replaces: omitted status reverts to enabled, omitted endpoints to unset", async () => {
    await api(sim, "PUT", "/v1/sub-organizations/2001", {
      body: { name: "Acme Support", status: "disabled", default_destinations: { sms_endpoint: "https://a.example/s" } },
    });
    const r = await api<SubAccount>(sim, "PUT", "/v1/sub-organizations/2001", { body: { name: "Acme Renamed" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: 2001,
      name: "Acme Renamed",
      status: "enabled",
      default_destinations: { sms_endpoint: "", dlr_endpoint: "" }, // both keys, an unset one "" (official schema)
    });
    const partial = await api<SubAccount>(sim, "PUT", "/v1/sub-organizations/2001", {
      body: { name: "Acme", default_destinations: { dlr_endpoint: "https://a.example/d" } },
    });
    expect(partial.body.default_destinations).toEqual({ sms_endpoint: "", dlr_endpoint: "https://a.example/d" });
  });

  test("PUT without name is 400; unknown id is 404", async () => {
    sim.expectBadRequests(); // on purpose: name is required
    const r = await api(sim, "PUT", "/v1/sub-organizations/2001", { body: { status: "enabled" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errors: { name: "required" } });
    const nf = await api(sim, "GET", "/v1/sub-organizations/77");
    expect(nf.status).toBe(404);
    expect(nf.body).toMatchObject({ success: false, message: expect.any(String) });
  });
});

describe("call webhooks", () => {
  test("GET lists, POST upserts (201), DELETE removes", async () => {
    const list = await api(sim, "GET", "/v1/calls/webhooks");
    expect(list.body).toEqual([{ event_type: "post-call", url: "https://hooks.demo.example/post-call" }]);
    const created = await api(sim, "POST", "/v1/calls/webhooks", {
      body: { event_type: "on-call", url: "https://h.example/on" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, event_type: "on-call", url: "https://h.example/on" });
    await api(sim, "POST", "/v1/calls/webhooks", { body: { event_type: "on-call", url: "https://h.example/on2" } });
    const after = await api<Array<{ event_type: string; url: string }>>(sim, "GET", "/v1/calls/webhooks");
    expect(after.body).toHaveLength(2);
    expect(after.body.find((h) => h.event_type === "on-call")?.url).toBe("https://h.example/on2");
    const del = await api(sim, "DELETE", "/v1/calls/webhooks?event_type=post-call");
    expect(del.status).toBe(200);
    const again = await api(sim, "DELETE", "/v1/calls/webhooks?event_type=post-call");
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false });
  });

  test("POST validates the enum and the URI", async () => {
    sim.expectBadRequests(); // on purpose: a bad event_type and URL
    const r = await api(sim, "POST", "/v1/calls/webhooks", { body: { event_type: "pre-call", url: "nope" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errors: { event_type: expect.any(String), url: "must be a valid URI" } });
  });
});

describe("calls", () => {
  test("POST starts an outbound call in call_setup; GET lists it among active calls", async () => {
    const r = await api<Call>(sim, "POST", "/v1/calls", {
      body: { from: "15551230001", to: "+447537151866", callback_url: "https://cb.example/status" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      direction: "outbound",
      event_type: "call_setup",
      from: "15551230001",
      to: "+447537151866",
      call_answered: null,
      call_completed: null,
      tag: "",
    });
    expect(r.body.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const list = await api<{ calls: Call[]; success: boolean }>(sim, "GET", "/v1/calls");
    expect(list.body.success).toBe(true);
    expect(list.body.calls.map((c) => c.uuid)).toContain(r.body.uuid);
  });

  test("POST validation: from must be an active number of the org, to E.164, callback_url required", async () => {
    sim.expectBadRequests(); // on purpose: callback_url missing
    // The request schema is checked first (a missing required field); then the account's rules.
    const r = await api(sim, "POST", "/v1/calls", { body: { from: "15551230006", to: "12" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, errors: { callback_url: "required" } });
    const rules = await api(sim, "POST", "/v1/calls", { body: { from: "15551230006", to: "12", callback_url: "https://cb.example" } });
    expect(rules.status).toBe(400);
    expect(rules.body).toMatchObject({ success: false, errors: { from: expect.any(String), to: expect.any(String) } });
    // 15551230007 belongs to the Acme Support sub-account, not to the master.
    const foreign = await api(sim, "POST", "/v1/calls", {
      body: { from: "15551230007", to: "15557654321", callback_url: "https://cb.example" },
    });
    expect(foreign.body).toMatchObject({ errors: { from: expect.any(String) } });
  });

  test("answer: inbound unanswered call becomes answered; again or outbound is 400; unknown 404", async () => {
    const inbound = "5f3b1d2e-8c4a-4e6b-9a7d-1c2e3f4a5b6c";
    const r = await api(sim, "POST", `/v1/calls/${inbound}/answer`, {
      body: { stream_url: "wss://media.example/s", stream_type: "oneway", stream_channel: "inbound" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const call = sim.store.calls.get(inbound)!;
    expect(call.call.call_answered).not.toBeNull();
    expect(call.call.event_type).toBe("answered"); // official enum (the seed shows only call_setup)
    expect(call.streams).toHaveLength(1);
    const again = await api(sim, "POST", `/v1/calls/${inbound}/answer`, { body: {} });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, message: expect.stringMatching(/already answered/) });
    const out = await api<Call>(sim, "POST", "/v1/calls", {
      body: { from: "15551230001", to: "15557654321", callback_url: "https://cb.example", tag: "t1" },
    });
    expect(out.body.tag).toBe("t1");
    const ans = await api(sim, "POST", `/v1/calls/${out.body.uuid}/answer`, { body: {} });
    expect(ans.status).toBe(400);
    expect(ans.body).toMatchObject({ success: false, message: expect.stringMatching(/inbound/) });
    const nf = await api(sim, "POST", "/v1/calls/00000000-0000-4000-8000-000000000000/answer", { body: {} });
    expect(nf.status).toBe(404);
    expect(nf.body).toMatchObject({ success: false, message: expect.any(String) });
  });

  test("streams: returns a stream_id; unknown call 404; bad enum 400", async () => {
    sim.expectBadRequests(); // on purpose: stream fields missing, a bad enum
    const id = "5f3b1d2e-8c4a-4e6b-9a7d-1c2e3f4a5b6c";
    const r = await api<{ success: boolean; stream_id: string }>(sim, "POST", `/v1/calls/${id}/streams`, {
      body: { stream_url: "wss://m.example", stream_type: "twoway", stream_channel: "both" },
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.stream_id).toMatch(/^[0-9a-f-]{36}$/);
    const valid = { stream_url: "wss://m.example", stream_type: "oneway", stream_channel: "inbound" };
    expect((await api(sim, "POST", "/v1/calls/nope/streams", { body: valid })).status).toBe(404);
    const bad = await api(sim, "POST", `/v1/calls/${id}/streams`, { body: { stream_type: "threeway" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { stream_type: expect.any(String) } });
  });
});

describe("2FA", () => {
  test("session events in time order with decimal-text charges; the failed one's error keeps comma and quote", async () => {
    const ok = await api<TwoFaEvent[]>(sim, "GET", "/v1/two-fa/session/8753d4308f2e11ecb75fcdafd6d2d690/events");
    expect(ok.status).toBe(200);
    expect(ok.body.map((e) => e.event)).toEqual(["Number lookup", "Code sent via SMS", "Verification"]);
    expect(ok.body.map((e) => e.charge)).toEqual(["0.0050", "0.0475", "0.0000"]);
    const failed = await api<TwoFaEvent[]>(sim, "GET", "/v1/two-fa/session/2953d4308f2e11ecb75fcdafd6d2d687/events");
    const last = failed.body[failed.body.length - 1];
    expect(last).toMatchObject({ event: "Verification", status: "failed" });
    expect(last.error).toContain(",");
    expect(last.error).toContain('"');
    const nf = await api(sim, "GET", "/v1/two-fa/session/nope/events");
    expect(nf.status).toBe(404);
    expect(nf.body).toMatchObject({ success: false });
  });

  test("sessions of a service within from..to inclusive; from/to required; unknown service 404", async () => {
    sim.expectBadRequests(); // on purpose: `to` missing
    const base = "/v1/two-fa/service/7204a030201211ee9fb47d093f2f127c/sessions";
    const all = await api<TwoFaSession[]>(sim, "GET", `${base}?from=2026-11-03&to=2026-11-05`);
    expect(all.status).toBe(200);
    expect(all.body.map((s) => s.session_id)).toEqual([
      "8753d4308f2e11ecb75fcdafd6d2d690",
      "2953d4308f2e11ecb75fcdafd6d2d687",
    ]);
    expect(Object.keys(all.body[0]).sort()).toEqual(
      ["charge", "created_at", "destination_country", "phone_number", "service_id", "service_name", "session_id", "status"],
    );
    const one = await api<TwoFaSession[]>(sim, "GET", `${base}?from=2026-11-04&to=2026-11-30`);
    expect(one.body.map((s) => s.status)).toEqual(["failed"]);
    const missing = await api(sim, "GET", `${base}?from=2026-11-01`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: { to: "required" } });
    const nf = await api(sim, "GET", "/v1/two-fa/service/nope/sessions?from=2026-11-01&to=2026-11-02");
    expect(nf.status).toBe(404);
  });
});

describe("10DLC and messages", () => {
  test("brands are paged; vettings keep reasons as sent (single string), zone-less times, pending null score", async () => {
    const brands = await api<BrandListResponse>(sim, "GET", "/v3/10dlc/brands?per_page=1&page=2");
    expect(brands.status).toBe(200);
    expect(brands.body.items.map((b) => b.brand_id)).toEqual(["BPEND01"]);
    expect(brands.body.pagination).toEqual({ current_page: 2, per_page: 1, total: 2, total_pages: 2 });
    const v = await api<Array<Omit<BrandVetting, "reasons"> & { reasons: unknown }>>(
      sim, "GET", "/v3/10dlc/brands/B6AI7PA/vettings",
    );
    expect(v.body[0].vetting_score).toBe(82);
    expect(typeof v.body[0].reasons).toBe("string");
    expect(v.body[0].create_date).toBe("2026-11-03T10:15:00");
    const p = await api<BrandVetting[]>(sim, "GET", "/v3/10dlc/brands/BPEND01/vettings");
    expect(p.body[0]).toMatchObject({ vetting_status: "PENDING", vetting_score: null });
    expect((await api(sim, "GET", "/v3/10dlc/brands/NOPE/vettings")).status).toBe(404);
  });

  test("messages list outbound", async () => {
    const r = await api<{ items: { direction?: string }[]; pagination: unknown }>(sim, "GET", "/v3/messages?type=outbound");
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    expect(r.body.items.every((m) => m.direction === "outbound")).toBe(true);
    expect(r.body.pagination).toMatchObject({ current_page: 1, total: r.body.items.length });
    // The filter filters: inbound asks for none of them.
    const inbound = await api<{ items: { direction?: string }[] }>(sim, "GET", "/v3/messages?type=inbound");
    expect(inbound.body.items.some((m) => m.direction === "outbound")).toBe(false);
    const bad = await api(sim, "GET", "/v3/messages?type=sideways");
    expect(bad.status).toBe(400);
  });
});

describe("sub-account keys", () => {
  test("a sub-account api_key sees and edits only its own numbers", async () => {
    const acme = "sim-acme-support-key";
    const list = await api<{ items: WavixNumber[] }>(sim, "GET", "/v1/numbers", { key: acme });
    expect(list.status).toBe(200);
    expect(list.body.items.map((n) => n.id)).toEqual([4007]);
    expect((await api(sim, "GET", "/v1/numbers/4001", { key: acme })).status).toBe(404);
    const patched = await api<WavixNumber>(sim, "PATCH", "/v1/numbers/4007", { key: acme, body: { sms_enabled: true } });
    expect(patched.body.sms_enabled).toBe(true);
    expect((await api(sim, "PATCH", "/v1/numbers/4008", { key: acme, body: { sms_enabled: true } })).status).toBe(404);
  });

  test("a created sub-account's key works at once", async () => {
    const created = await api<SubAccount>(sim, "POST", "/v1/sub-organizations", { body: { name: "Fresh" } });
    const r = await api<{ items: unknown[] }>(sim, "GET", "/v1/numbers", { key: created.body.api_key });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
  });
});

describe("sub-account ids", () => {
  test("a create never reuses an id a test put into the store directly (regression: an example test seeded 2003 by hand)", async () => {
    const sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "ids-key" }] });
    try {
      const seeded = sim.store.subAccounts.get(2002)!;
      sim.store.subAccounts.set(2003, { ...seeded, data: { ...seeded.data, id: 2003, name: "By Hand", api_key: "by-hand-key-123" } });
      const r = await fetch(`${sim.url}/v1/sub-organizations`, {
        method: "POST",
        headers: { authorization: "Bearer ids-key", "content-type": "application/json" },
        body: JSON.stringify({ name: "Made By POST" }),
      });
      const created = (await r.json()) as { id: number };
      expect(created.id).not.toBe(2003);
      expect(sim.store.subAccounts.get(2003)!.data.name).toBe("By Hand");
    } finally {
      await sim.close();
    }
  });
});
