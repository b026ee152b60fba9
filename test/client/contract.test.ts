/**
 * Contract tests: the real client against the real simulator (src/simulator) over loopback HTTP,
 * for every operation of docs/CONTRACT.md part 2, the error bodies of seed part 7, restricted-key scopes
 * (seed part 5), fault handling (429/503 retries, a POST whose outcome is unknown) and pagination.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseFormatError,
  ServerError,
  UnauthorizedError,
  ValidationError,
  WavixApiError,
  WavixClient,
  type WavixClientOptions,
} from "../../src/client";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator";

const KEY = "contract-master-key-91b2";
const SUB_KEY = "sim-acme-support-key";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  sim = await startSimulator({ port: 0, apiKeys: [{ key: KEY }], asyncDelayMs: 20, ...options });
  return sim;
}

function clientFor(s: Simulator, options: WavixClientOptions = {}): WavixClient {
  return new WavixClient({
    apiKey: KEY,
    baseUrl: s.url,
    onWarning: (m) => warnings.push(m),
    ...options,
    retry: { backoffBaseMs: 1, backoffLimitMs: 5, ...options.retry },
  });
}

let warnings: string[] = [];
afterEach(() => {
  // The simulator's responses must match the seed-derived schemas: no drift warnings.
  expect(warnings).toEqual([]);
  warnings = [];
});

async function failure(promise: Promise<unknown>): Promise<WavixApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WavixApiError);
    const e = error as WavixApiError;
    // Whatever failed, the key is nowhere in what the error exposes.
    const exposed = [e.message, e.stack, JSON.stringify(e), JSON.stringify(e.cause ?? null), String(e.cause)].join("\n");
    expect(exposed).not.toContain(KEY);
    expect(exposed).not.toContain(SUB_KEY);
    return e;
  }
  throw new Error("expected the request to fail");
}

describe("every operation against the demo account", () => {
  it("numbers: get, list, search, update, bulk update, release", async () => {
    const s = await start();
    const c = clientFor(s);
    const first = await c.getNumber(4001);
    expect(first.number).toBe("15551230001");
    expect(first.destination).toHaveLength(3);

    const page = await c.listNumbers({ search: "15551230002" });
    expect(page.items.map((n) => n.id)).toEqual([4002]);
    expect(page.pagination.total).toBe(1);

    const updated = await c.updateNumber(4003, { call_status_url: "https://hooks.example/status", sms_enabled: true });
    expect(updated).toMatchObject({ id: 4003, call_status_url: "https://hooks.example/status", sms_enabled: true });
    expect((await c.getNumber(4003)).sms_enabled).toBe(true);

    const bulk = await c.bulkUpdateNumbers([4004, 4005], { call_recording_enabled: true });
    expect(bulk.map((n) => n.call_recording_enabled)).toEqual([true, true]);

    await expect(c.releaseNumbers([4005])).resolves.toMatchObject({ success: true });
    expect((await failure(c.getNumber(4005))).status).toBe(404);
    expect(s.log.find((e) => e.method === "DELETE")?.query).toBe("ids=4005");
    expect(s.log.every((e) => e.auth === "bearer")).toBe(true);
  });

  it("sub-accounts: list, get, create, replace; a sub-account key sees its own numbers", async () => {
    const s = await start();
    const c = clientFor(s);
    const list = await c.listSubAccounts();
    expect(list.items.map((a) => a.name)).toEqual(["Acme Support", "Legacy Team"]);
    expect((await c.getSubAccount(2001)).name).toBe("Acme Support");

    const created = await c.createSubAccount({ name: "New Team", default_destinations: { sms_endpoint: "https://h.example/sms" } });
    expect(created).toMatchObject({ name: "New Team", status: "enabled" });
    const replaced = await c.replaceSubAccount(created.id, { name: "New Team", status: "disabled" });
    expect(replaced.status).toBe("disabled");
    expect(replaced.default_destinations.sms_endpoint).toBe(""); // PUT replaces: omitted reverts to unset, served as ""

    const enabled = await c.listSubAccounts({ status: "enabled" });
    expect(enabled.items.map((a) => a.id)).not.toContain(created.id);

    const sub = c.withApiKey(SUB_KEY);
    const own = await sub.listNumbers();
    expect(own.items.map((n) => n.id)).toEqual([4007]);
    expect(c.stats.requests).toBe(6);
  });

  it("call webhooks: list, upsert, delete", async () => {
    const s = await start();
    const c = clientFor(s);
    expect(await c.listCallWebhooks()).toEqual([{ event_type: "post-call", url: "https://hooks.demo.example/post-call" }]);
    await c.upsertCallWebhook("on-call", "https://h.example/on");
    await c.upsertCallWebhook("post-call", "https://h.example/post");
    const hooks = await c.listCallWebhooks();
    expect(new Map(hooks.map((h) => [h.event_type, h.url]))).toEqual(
      new Map([
        ["on-call", "https://h.example/on"],
        ["post-call", "https://h.example/post"],
      ]),
    );
    await c.deleteCallWebhook("on-call");
    expect((await c.listCallWebhooks()).map((h) => h.event_type)).toEqual(["post-call"]);
    expect(await failure(c.deleteCallWebhook("on-call"))).toBeInstanceOf(NotFoundError);
  });

  it("calls: start, list active, answer, stream", async () => {
    const s = await start();
    const c = clientFor(s);
    const call = await c.startCall({ from: "15551230001", to: "+15557654321", callback_url: "https://h.example/cb" });
    expect(call).toMatchObject({ direction: "outbound", event_type: "call_setup", call_answered: null });
    const active = await c.listActiveCalls();
    expect(active.map((x) => x.uuid)).toContain(call.uuid);
    const inbound = active.find((x) => x.direction === "inbound")!;
    await expect(c.answerCall(inbound.uuid, { call_recording: true })).resolves.toEqual({ success: true });
    const stream = await c.startStream(inbound.uuid, { stream_url: "wss://media.example/s", stream_type: "oneway", stream_channel: "both" });
    expect(stream.success).toBe(true);
    expect(stream.stream_id).toMatch(/^[0-9a-f-]{36}$/);
    const notFound = await failure(c.answerCall("00000000-0000-4000-8000-000000000000"));
    expect(notFound).toBeInstanceOf(NotFoundError);
  });

  it("2FA: events of a session, sessions of a service", async () => {
    const s = await start();
    const c = clientFor(s);
    const events = await c.listTwoFaEvents("8753d4308f2e11ecb75fcdafd6d2d690");
    expect(events.map((e) => e.event)).toEqual(["Number lookup", "Code sent via SMS", "Verification"]);
    expect(events[0].charge).toBe("0.0050");
    const sessions = await c.listTwoFaSessions("7204a030201211ee9fb47d093f2f127c", "2026-11-01", "2026-11-21");
    expect(sessions.map((x) => x.session_id).sort()).toEqual(["2953d4308f2e11ecb75fcdafd6d2d687", "8753d4308f2e11ecb75fcdafd6d2d690"]);
  });

  it("10DLC: vettings with reasons normalised to an array, brands", async () => {
    const s = await start();
    const c = clientFor(s);
    const [vetting] = await c.listBrandVettings("B6AI7PA");
    expect(Array.isArray(vetting.reasons)).toBe(true);
    expect(vetting.reasons).toHaveLength(1);
    expect((await c.listBrandVettings("BPEND01"))[0].reasons).toBeNull();
    const brands = await c.listBrands();
    expect(brands.items.map((b) => b.brand_id)).toEqual(["B6AI7PA", "BPEND01"]);
  });

  it("messages: list outbound", async () => {
    const s = await start();
    const c = clientFor(s);
    const messages = await c.listMessages({ type: "outbound" });
    expect(messages).toHaveProperty("items");
    expect(s.log.at(-1)).toMatchObject({ method: "GET", path: "/v3/messages", query: "type=outbound", status: 200 });
  });
});

describe("error bodies (seed part 7)", () => {
  it("unauthorized: a wrong key", async () => {
    const s = await start();
    const error = await failure(clientFor(s, { apiKey: "wrong-key-123" }).getNumber(4001));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.body).toMatchObject({ success: false, error: true });
    expect(error.message).toMatch(/^GET \/v1\/numbers\/4001: unauthorized \(401\)/);
    expect(error.message).not.toContain("wrong-key-123");
  });

  it("not found", async () => {
    const s = await start();
    const error = await failure(clientFor(s).getNumber(999999));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toEqual({ success: false, message: expect.any(String) });
  });

  it("validation: field rules listed, `required` for a missing field", async () => {
    const s = await start({ expectBadRequests: true }); // on purpose: a bad URL, a missing callback_url
    const c = clientFor(s);
    const bad = await failure(c.updateNumber(4001, { sms_relay_url: "not a url" }));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(Object.keys((bad as ValidationError).errors)).toEqual(["sms_relay_url"]);
    expect(bad.message).toMatch(/^PATCH \/v1\/numbers\/4001: validation failed: sms_relay_url: /);

    const missing = await failure(
      c.updateNumber(4001, { destinations: [{ destination: "acme-trunk", transport: 5, priority: 1 }] }),
    );
    expect(missing).toBeInstanceOf(ValidationError);
    expect(missing.message).toContain("destinations.0.trunk_id: required");

    const call = await failure(c.startCall({ from: "15551230001", to: "+15557654321" } as never));
    expect((call as ValidationError).errors).toMatchObject({ callback_url: "required" });
    expect(call.outcomeUnknown).toBe(false);
  });

  it("forbidden: a feature disabled for the account", async () => {
    const s = await start({ seed: { organizationId: 1000, disabledFeatures: ["numbers"], numbers: [] } });
    const error = await failure(clientFor(s).getNumber(1));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toContain("feature is disabled");
    expect((error as ForbiddenError).scope).toBe("numbers:read");
  });
});

describe("restricted keys (seed part 5)", () => {
  const cases: { name: string; restricted: Record<string, "none" | "read" | "write">; run: (c: WavixClient) => Promise<unknown>; scope: string }[] = [
    { name: "numbers none → getNumber", restricted: { numbers: "none" }, run: (c) => c.getNumber(4001), scope: "numbers:read" },
    { name: "numbers read → updateNumber", restricted: { numbers: "read" }, run: (c) => c.updateNumber(4001, { sms_enabled: true }), scope: "numbers:write" },
    { name: "subaccounts none → listSubAccounts", restricted: { subaccounts: "none" }, run: (c) => c.listSubAccounts(), scope: "subaccounts:read" },
    { name: "subaccounts read → createSubAccount", restricted: { subaccounts: "read" }, run: (c) => c.createSubAccount({ name: "X" }), scope: "subaccounts:write" },
    { name: "webhooks read → upsertCallWebhook", restricted: { webhooks: "read" }, run: (c) => c.upsertCallWebhook("on-call", "https://h.example"), scope: "webhooks:write" },
    { name: "calls none → listActiveCalls", restricted: { calls: "none" }, run: (c) => c.listActiveCalls(), scope: "calls:read" },
    { name: "two_fa none → listTwoFaEvents", restricted: { two_fa: "none" }, run: (c) => c.listTwoFaEvents("8753d4308f2e11ecb75fcdafd6d2d690"), scope: "two_fa:read" },
    { name: "campaigns none → listBrandVettings", restricted: { campaigns: "none" }, run: (c) => c.listBrandVettings("B6AI7PA"), scope: "campaigns:read" },
    { name: "messages none → listMessages", restricted: { messages: "none" }, run: (c) => c.listMessages({ type: "outbound" }), scope: "messages:read" },
  ];
  for (const t of cases) {
    it(`${t.name}: ForbiddenError naming ${t.scope}`, async () => {
      const s = await start({ apiKeys: [{ key: KEY, restricted: t.restricted }] });
      const c = clientFor(s);
      const error = await failure(t.run(c));
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).scope).toBe(t.scope);
      expect(error.message).toContain(t.scope);
      expect(c.stats).toEqual({ requests: 1, retries: 0, rateLimited: 0 });
    });
  }

  it("a read key reads", async () => {
    const s = await start({ apiKeys: [{ key: KEY, restricted: { numbers: "read" } }] });
    await expect(clientFor(s).getNumber(4001)).resolves.toMatchObject({ id: 4001 });
  });
});

describe("faults", () => {
  it("retries 503 on a GET with the expected count", async () => {
    const s = await start({ faults: [{ kind: "status", status: 503, times: 2, pathPrefix: "/v1/numbers" }] });
    const c = clientFor(s);
    await expect(c.getNumber(4001)).resolves.toMatchObject({ id: 4001 });
    expect(s.log.map((e) => e.status)).toEqual([503, 503, 200]);
    expect(c.stats).toEqual({ requests: 3, retries: 2, rateLimited: 0 });
  });

  it("retries 429 honouring Retry-After, also for a POST", async () => {
    const s = await start({ faults: [{ kind: "status", status: 429, retryAfter: "1", times: 1, method: "POST" }] });
    const c = clientFor(s);
    const started = performance.now();
    await c.createSubAccount({ name: "After 429" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(s.log.map((e) => e.status)).toEqual([429, 200]);
    expect(c.stats.retries).toBe(1);
    expect((await c.listSubAccounts()).items.filter((a) => a.name === "After 429")).toHaveLength(1);
  });

  it("throws RateLimitedError when 429 persists past the limit", async () => {
    const s = await start({ faults: [{ kind: "status", status: 429, retryAfter: "0" }] });
    const error = await failure(clientFor(s, { retry: { limit: 2 } }).listNumbers());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(s.log).toHaveLength(3);
  });

  it("never retries a POST whose outcome is unknown (commit-then-drop): created once, reported outcomeUnknown", async () => {
    const s = await start({ faults: [{ kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 }] });
    const c = clientFor(s);
    const error = await failure(c.createSubAccount({ name: "Maybe Created" }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcomeUnknown).toBe(true);
    expect(s.log.filter((e) => e.method === "POST")).toHaveLength(1);
    // The caller reconciles by re-reading: the create did commit, exactly once.
    const named = (await c.listSubAccounts()).items.filter((a) => a.name === "Maybe Created");
    expect(named).toHaveLength(1);
  });

  it("never retries a non-idempotent POST answered 503", async () => {
    const s = await start({ faults: [{ kind: "status", status: 503, method: "POST" }] });
    const error = await failure(clientFor(s).startCall({ from: "15551230001", to: "+15557654321", callback_url: "https://h.example/cb" }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    expect(s.log).toHaveLength(1);
  });

  it("retries the webhook upsert (a POST that upserts by event type) like a PUT: 503, then a drop, then done", async () => {
    const s = await start({
      faults: [
        { kind: "status", status: 503, method: "POST", pathPrefix: "/v1/calls/webhooks", times: 1 },
        { kind: "drop", method: "POST", pathPrefix: "/v1/calls/webhooks", times: 1 },
      ],
    });
    const c = clientFor(s);
    await c.upsertCallWebhook("on-call", "https://h.example/on");
    expect(s.log.filter((e) => e.method === "POST").length).toBe(3);
    expect((await c.listCallWebhooks()).filter((w) => w.event_type === "on-call")).toEqual([{ event_type: "on-call", url: "https://h.example/on" }]);
  });

  it("retries a dropped GET", async () => {
    const s = await start({ faults: [{ kind: "drop", times: 1 }] });
    const c = clientFor(s);
    await expect(c.listCallWebhooks()).resolves.toHaveLength(1);
    expect(c.stats).toEqual({ requests: 2, retries: 1, rateLimited: 0 });
  });

  it("reports an HTML 502 page as ResponseFormatError after retries", async () => {
    const s = await start({ faults: [{ kind: "status", status: 502, body: "<html>Bad gateway</html>", contentType: "text/html" }] });
    const error = await failure(clientFor(s, { retry: { limit: 1 } }).getNumber(4001));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toContain("expected JSON, got text/html (502)");
    expect(s.log).toHaveLength(2);
  });
});

describe("pagination", () => {
  it("walks numbers, sub-accounts and brands across pages", async () => {
    const s = await start({ maxPerPage: 3 });
    const c = clientFor(s);
    const numberPages: number[][] = [];
    for await (const page of c.iterateNumberPages({ perPage: 3 })) numberPages.push(page.items.map((n) => n.id));
    expect(numberPages).toEqual([[4001, 4002, 4003], [4004, 4005, 4006]]);

    const subPages: number[][] = [];
    for await (const page of c.iterateSubAccountPages({ perPage: 1 })) subPages.push(page.items.map((a) => a.id));
    expect(subPages).toEqual([[2001], [2002]]);

    const brandPages: string[][] = [];
    for await (const page of c.iterateBrandPages({ perPage: 1 })) brandPages.push(page.items.map((b) => b.brand_id));
    expect(brandPages).toEqual([["B6AI7PA"], ["BPEND01"]]);
  });
});
