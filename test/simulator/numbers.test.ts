import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator";
import type { NumberListResponse, WavixNumber } from "../../src/client/types";
import { api, sleep, withSim } from "./helpers";

/** Seed 2.1: every field the table lists, nothing else. */
const NUMBER_KEYS = [
  "id", "number", "activation_fee", "monthly_fee", "per_min", "city", "state", "country", "country_short_name",
  "destination", "channels", "require_docs", "documents", "domestic_cli", "free_min", "unlimited", "label", "status",
  "seconds", "added", "paid_until", "sms_enabled", "sms_relay_url", "cnam", "call_recording_enabled",
  "transcription_enabled", "transcription_threshold", "call_status_url",
].sort();

let sim: Simulator;
beforeEach(async () => {
  sim = await withSim({ asyncDelayMs: 150 });
});
afterEach(async () => {
  await sim.close();
});

describe("GET /v1/numbers/{id}", () => {
  test("returns a number with exactly the seed 2.1 fields", async () => {
    const r = await api<WavixNumber>(sim, "GET", "/v1/numbers/4001");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(NUMBER_KEYS);
    expect(r.body.number).toBe("15551230001");
    expect(r.body.destination.map((d) => d.transport)).toEqual([1, 4, 5]);
    const trunk = r.body.destination[2];
    expect(trunk).toMatchObject({ trunk_id: 144, trunk_label: "trunk-144" });
    expect(r.body.destination[0]).toMatchObject({ trunk_id: null, trunk_label: null });
  });

  test("unknown id is a 404 error body", async () => {
    const r = await api(sim, "GET", "/v1/numbers/999999");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, message: expect.any(String) });
  });

  test("a number owned by a sub-account is invisible to the master key", async () => {
    const r = await api(sim, "GET", "/v1/numbers/4007");
    expect(r.status).toBe(404);
  });
});

describe("GET /v1/numbers", () => {
  test("pages with the default per_page 25 and the pagination block", async () => {
    const r = await api<NumberListResponse>(sim, "GET", "/v1/numbers");
    expect(r.status).toBe(200);
    // The demo master owns 6 of the 8 numbers (two belong to sub-accounts).
    expect(r.body.pagination).toEqual({ current_page: 1, per_page: 25, total: 6, total_pages: 1 });
    expect(r.body.items.map((n) => n.id)).toEqual([4001, 4002, 4003, 4004, 4005, 4006]);
  });

  test("page and per_page slice, per_page capped at maxPerPage", async () => {
    const r = await api<NumberListResponse>(sim, "GET", "/v1/numbers?page=2&per_page=4");
    expect(r.body.items.map((n) => n.id)).toEqual([4005, 4006]);
    expect(r.body.pagination).toEqual({ current_page: 2, per_page: 4, total: 6, total_pages: 2 });
    const capped = await withSim({ maxPerPage: 2 });
    try {
      const c = await api<NumberListResponse>(capped, "GET", "/v1/numbers?per_page=500");
      expect(c.body.pagination.per_page).toBe(2);
      expect(c.body.items).toHaveLength(2);
    } finally {
      await capped.close();
    }
  });

  test("search matches partial digits", async () => {
    const r = await api<NumberListResponse>(sim, "GET", "/v1/numbers?search=230003");
    expect(r.body.items.map((n) => n.number)).toEqual(["15551230003"]);
    const none = await api<NumberListResponse>(sim, "GET", "/v1/numbers?search=999999");
    expect(none.body.items).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  test("bad page is a validation error", async () => {
    sim.expectBadRequests(); // on purpose: page must be an integer
    const r = await api(sim, "GET", "/v1/numbers?page=zero");
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, errors: { page: expect.any(String) } });
  });
});

describe("PATCH /v1/numbers/{id}", () => {
  test("changes only the fields sent", async () => {
    const before = (await api<WavixNumber>(sim, "GET", "/v1/numbers/4002")).body;
    const r = await api<WavixNumber>(sim, "PATCH", "/v1/numbers/4002", { body: { sms_enabled: true } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...before, sms_enabled: true });
  });

  test("destinations replace the set; the server assigns id, srtp and trunk fields", async () => {
    const r = await api<WavixNumber>(sim, "PATCH", "/v1/numbers/4003", {
      body: {
        destinations: [
          { destination: "sip.x.example", priority: 1, transport: 1, trunk_id: 9 },
          { destination: "x-trunk", priority: 2, transport: 5, trunk_id: 77 },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.destination).toHaveLength(2);
    expect(r.body.destination[0]).toMatchObject({ transport: 1, trunk_id: null, trunk_label: null, srtp: false });
    expect(r.body.destination[1]).toMatchObject({ transport: 5, trunk_id: 77, trunk_label: "trunk-77", srtp: false });
    expect(typeof r.body.destination[0].id).toBe("number");
    expect(r.body.destination[0].id).not.toBe(r.body.destination[1].id);
  });

  test("transport 5 without trunk_id is a 400 naming destinations.0.trunk_id", async () => {
    const r = await api(sim, "PATCH", "/v1/numbers/4003", {
      body: { destinations: [{ destination: "t", priority: 1, transport: 5 }] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      message: expect.any(String),
      errors: { "destinations.0.trunk_id": "required" },
    });
  });

  test("bad and empty URLs are invalid; null clears", async () => {
    sim.expectBadRequests(); // on purpose: "" and a non-URI break the official format: uri
    const bad = await api(sim, "PATCH", "/v1/numbers/4001", { body: { sms_relay_url: "not a url" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, errors: { sms_relay_url: "must be a valid URI" } });
    const empty = await api(sim, "PATCH", "/v1/numbers/4001", { body: { call_status_url: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ errors: { call_status_url: "must be a valid URI" } });
    const cleared = await api<WavixNumber>(sim, "PATCH", "/v1/numbers/4001", { body: { sms_relay_url: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.sms_relay_url).toBeNull();
  });

  test("unknown fields are refused", async () => {
    sim.expectBadRequests(); // on purpose: label is not an update field
    const r = await api(sim, "PATCH", "/v1/numbers/4001", { body: { label: "x" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errors: { label: expect.any(String) } });
  });

  test("unknown id is 404", async () => {
    const r = await api(sim, "PATCH", "/v1/numbers/123", { body: { sms_enabled: true } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false });
  });
});

describe("PATCH /v1/numbers (bulk)", () => {
  test("sync fields apply at once; destinations and sms_relay_url after asyncDelayMs", async () => {
    const r = await api<{ items: WavixNumber[] }>(sim, "PATCH", "/v1/numbers", {
      body: {
        ids: [4003, 4004],
        call_recording_enabled: true,
        sms_relay_url: "https://hooks.example/sms",
        destinations: [{ destination: "15550001111", priority: 1, transport: 4 }],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.map((n) => n.call_recording_enabled)).toEqual([true, true]);
    // The response shows the old values of the asynchronous fields.
    expect(r.body.items.map((n) => n.sms_relay_url)).toEqual([null, null]);
    expect(r.body.items.map((n) => n.destination)).toEqual([[], []]);
    const early = await api<WavixNumber>(sim, "GET", "/v1/numbers/4003");
    expect(early.body.sms_relay_url).toBeNull();
    let after: WavixNumber | undefined;
    for (let i = 0; i < 40; i++) {
      await sleep(25);
      after = (await api<WavixNumber>(sim, "GET", "/v1/numbers/4004")).body;
      if (after.sms_relay_url !== null) break;
    }
    expect(after?.sms_relay_url).toBe("https://hooks.example/sms");
    expect(after?.destination).toEqual([
      expect.objectContaining({ destination: "15550001111", transport: 4, trunk_id: null, srtp: false }),
    ]);
  });

  test("any unknown id is a 404 and nothing changes", async () => {
    const r = await api(sim, "PATCH", "/v1/numbers", { body: { ids: [4003, 9999], sms_enabled: true } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, message: expect.stringContaining("9999") });
    expect((await api<WavixNumber>(sim, "GET", "/v1/numbers/4003")).body.sms_enabled).toBe(false);
  });

  test("more than 100 ids is a 400", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => 4001 + i);
    const r = await api(sim, "PATCH", "/v1/numbers", { body: { ids, sms_enabled: true } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, errors: { ids: expect.any(String) } });
  });

  test("missing ids is required", async () => {
    sim.expectBadRequests(); // on purpose: ids is required
    const r = await api(sim, "PATCH", "/v1/numbers", { body: { sms_enabled: true } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errors: { ids: "required" } });
  });
});

describe("DELETE /v1/numbers", () => {
  test("releases the numbers: they leave the account", async () => {
    const r = await api(sim, "DELETE", "/v1/numbers?ids=4004&ids=4005");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await api(sim, "GET", "/v1/numbers/4004")).status).toBe(404);
    const list = await api<NumberListResponse>(sim, "GET", "/v1/numbers");
    expect(list.body.items.map((n) => n.id)).toEqual([4001, 4002, 4003, 4006]);
    expect(sim.store.numberIdByDigits.has("15551230005")).toBe(false);
  });

  test("unknown ids are 404; missing ids is 422 (the release declares 422, official)", async () => {
    expect((await api(sim, "DELETE", "/v1/numbers?ids=1")).status).toBe(404);
    const none = await api(sim, "DELETE", "/v1/numbers");
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ errors: { ids: "required" } });
  });
});

test("search accepts a leading plus, raw or encoded", async () => {
  const s = await withSim();
  try {
    for (const q of ["+15551230002", "%2B15551230002"]) {
      const r = await api<NumberListResponse>(s, "GET", `/v1/numbers?search=${q}`);
      expect(r.body.items.map((n) => n.id)).toEqual([4002]);
    }
  } finally {
    await s.close();
  }
});
