import { afterEach, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator";
import { api, withSim } from "./helpers";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("authentication (seed part 5, part 7)", () => {
  test("missing and invalid keys get the unauthorized body with 401", async () => {
    sim = await withSim();
    const missing = await api(sim, "GET", "/v1/numbers/4001", { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: true, message: expect.any(String) });
    const wrong = await api(sim, "GET", "/v1/numbers/4001", { key: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, error: true });
    expect(wrong.text).not.toContain("nope");
  });

  test("appid is accepted with a Deprecation header and logged as appid auth, key redacted", async () => {
    sim = await withSim();
    const res = await fetch(`${sim.url}/v1/numbers?appid=sim-demo-key&search=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    const bearer = await api(sim, "GET", "/v1/numbers/4001");
    expect(bearer.headers.get("deprecation")).toBeNull();
    const entry = sim.log.find((e) => e.auth === "appid");
    expect(entry).toMatchObject({ method: "GET", path: "/v1/numbers", status: 200 });
    expect(entry?.query).toBe("appid=REDACTED&search=1");
    expect(JSON.stringify(sim.log)).not.toContain("sim-demo-key");
  });

  test("only the configured apiKeys work; the default key no longer does", async () => {
    sim = await withSim({ apiKeys: [{ key: "custom-key" }] });
    expect((await api(sim, "GET", "/v1/numbers", { key: "custom-key" })).status).toBe(200);
    expect((await api(sim, "GET", "/v1/numbers")).status).toBe(401);
  });

  test("unknown routes are 404 with the not-found body", async () => {
    sim = await withSim();
    const r = await api(sim, "GET", "/v2/whatever");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, message: expect.any(String) });
    expect((await api(sim, "POST", "/v1/numbers/4001")).status).toBe(404);
  });
});

describe("restricted keys and scopes", () => {
  test("read allows GET but not writes; the 403 names the scope", async () => {
    sim = await withSim({ apiKeys: [{ key: "ro", restricted: { numbers: "read" } }] });
    expect((await api(sim, "GET", "/v1/numbers/4001", { key: "ro" })).status).toBe(200);
    const w = await api<{ success: boolean; message: string }>(sim, "PATCH", "/v1/numbers/4001", {
      key: "ro",
      body: { sms_enabled: true },
    });
    expect(w.status).toBe(403);
    expect(w.body.success).toBe(false);
    expect(w.body.message).toContain("numbers:write");
  });

  test("each area maps to its scope resource", async () => {
    sim = await withSim({ apiKeys: [{ key: "none" , restricted: {} }] });
    const cases: Array<[string, string, string]> = [
      ["GET", "/v1/numbers", "numbers:read"],
      ["GET", "/v1/sub-organizations", "subaccounts:read"],
      ["POST", "/v1/sub-organizations", "subaccounts:write"],
      ["GET", "/v1/calls/webhooks", "webhooks:read"],
      ["GET", "/v1/calls", "calls:read"],
      ["POST", "/v1/calls/x/answer", "calls:write"],
      ["GET", "/v1/two-fa/session/x/events", "two_fa:read"],
      ["GET", "/v3/10dlc/brands", "campaigns:read"],
      ["GET", "/v3/messages", "messages:read"],
    ];
    for (const [method, path, scope] of cases) {
      const r = await api<{ message: string }>(sim, method, path, { key: "none", body: method === "GET" ? undefined : {} });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.message).toContain(scope);
    }
  });

  test("write includes read", async () => {
    sim = await withSim({ apiKeys: [{ key: "rw", restricted: { webhooks: "write" } }] });
    expect((await api(sim, "GET", "/v1/calls/webhooks", { key: "rw" })).status).toBe(200);
    const post = await api(sim, "POST", "/v1/calls/webhooks", {
      key: "rw",
      body: { event_type: "on-call", url: "https://x.example" },
    });
    expect(post.status).toBe(201);
    expect((await api(sim, "GET", "/v1/numbers", { key: "rw" })).status).toBe(403);
  });
});

describe("disabled features and disabled sub-accounts", () => {
  test("a feature disabled for the organisation is a 403 error body", async () => {
    sim = await withSim({ seed: { disabledFeatures: ["numbers"], numbers: [{ id: 1, number: "15550000001" }] } });
    const r = await api(sim, "GET", "/v1/numbers/1");
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ success: false, message: expect.any(String) });
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(200);
  });

  test("a disabled sub-account's key is refused", async () => {
    sim = await withSim();
    await api(sim, "PUT", "/v1/sub-organizations/2002", { body: { name: "Legacy Team", status: "disabled" } });
    const r = await api(sim, "GET", "/v1/numbers", { key: "sim-legacy-team-key" });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false });
  });
});
