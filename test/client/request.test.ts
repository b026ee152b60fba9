/**
 * The client's wire behaviour against a real HTTP server on a random loopback port: error mapping
 * (seed part 7 bodies), retries with counts, Retry-After, timeouts, POST never repeated when its
 * outcome is unknown, and the key absent from everything an error exposes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
  WavixApiError,
  WavixClient,
  isForbiddenError,
  isNetworkError,
  isValidationError,
  type RetryNotice,
  type WavixClientOptions,
} from "../../src/client";
import { createHttpTestServer, sendJson, type HttpTestServer } from "../helpers/http-test-server";

const KEY = "test-secret-key-7f3a9c";

let server: HttpTestServer;
beforeEach(async () => {
  server = await createHttpTestServer();
});
afterEach(async () => {
  await server.close();
});

function client(options: WavixClientOptions = {}): WavixClient {
  // Tiny backoff so retry tests run in milliseconds.
  return new WavixClient({
    apiKey: KEY,
    baseUrl: server.url,
    ...options,
    retry: { backoffBaseMs: 1, backoffLimitMs: 5, ...options.retry },
  });
}

async function failure(promise: Promise<unknown>): Promise<WavixApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WavixApiError);
    return error as WavixApiError;
  }
  throw new Error("expected the request to fail");
}

/** Everything an error exposes, flattened: message, JSON, stack, the whole cause chain. */
function exposed(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? "", JSON.stringify(current), String(current));
      parts.push(JSON.stringify(Object.entries(current)));
      current = current.cause;
    } else {
      parts.push(JSON.stringify(current));
      current = undefined;
    }
  }
  return parts.join("\n");
}

const NUMBER = {
  id: 12,
  number: "15551230001",
  activation_fee: "0.99",
  monthly_fee: "0.99",
  per_min: "0.0050",
  city: "DETROIT, MI",
  state: null,
  country: "United States",
  country_short_name: "US",
  destination: [],
  channels: 2,
  require_docs: [],
  documents: [],
  domestic_cli: true,
  label: null,
  status: "active",
  seconds: "0",
  added: "2026-01-01T00:00:00Z",
  paid_until: "2026-12-01",
  sms_enabled: false,
  sms_relay_url: null,
  cnam: null,
  call_recording_enabled: false,
  transcription_enabled: false,
  transcription_threshold: 0,
};

describe("requests", () => {
  it("sends the key as a Bearer header, never in the URL", async () => {
    server.handle((_req, res) => sendJson(res, 200, NUMBER));
    await client().getNumber(12);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0].url).toBe("/v1/numbers/12");
    expect(server.requests[0].url).not.toContain("appid");
  });

  it("sends repeated ids to release numbers and the bulk body with ids", async () => {
    server.handle((req, res) =>
      req.method === "DELETE" ? sendJson(res, 200, { success: true }) : sendJson(res, 200, { items: [NUMBER] }),
    );
    const c = client();
    await c.releaseNumbers([1, 2]);
    const items = await c.bulkUpdateNumbers([12], { sms_enabled: true });
    expect(server.requests[0].url).toBe("/v1/numbers?ids=1&ids=2");
    expect(JSON.parse(server.requests[1].body)).toEqual({ sms_enabled: true, ids: [12] });
    expect(items).toEqual([NUMBER]);
  });
});

describe("error mapping", () => {
  it("maps 401 to UnauthorizedError with the seed body", async () => {
    const body = { success: false, error: true, message: "Invalid API key" };
    server.handle((_req, res) => sendJson(res, 401, body));
    const error = await failure(client().getNumber(12));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.status).toBe(401);
    expect(error.body).toEqual(body);
    expect(error.message).toContain("GET /v1/numbers/12: unauthorized (401): Invalid API key");
    expect(server.requests).toHaveLength(1);
  });

  it("maps 403 to ForbiddenError naming the operation's known scope", async () => {
    server.handle((_req, res) => sendJson(res, 403, { success: false, message: "Access denied" }));
    const error = await failure(client().getNumber(12));
    expect(isForbiddenError(error)).toBe(true);
    expect((error as ForbiddenError).scope).toBe("numbers:read");
    expect(error.message).toContain("numbers:read");
    expect(error.message).toMatch(/^GET \/v1\/numbers\/12: forbidden/);
  });

  it("takes the scope from the API message when it names one", async () => {
    server.handle((_req, res) => sendJson(res, 403, { success: false, message: "key lacks subaccounts:write" }));
    const error = (await failure(client().createSubAccount({ name: "x" }))) as ForbiddenError;
    expect(error.scope).toBe("subaccounts:write");
    expect(error.outcomeUnknown).toBe(false);
  });

  it("maps 404 to NotFoundError", async () => {
    server.handle((_req, res) => sendJson(res, 404, { success: false, message: "Number not found" }));
    const error = await failure(client().getNumber(99));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("GET /v1/numbers/99: not found (404): Number not found");
  });

  it("maps a validation body to ValidationError listing each field", async () => {
    const body = {
      success: false,
      message: "Validation failed",
      errors: { sms_relay_url: "must be a valid URI", "destinations.0.trunk_id": ["required"] },
    };
    server.handle((_req, res) => sendJson(res, 422, body));
    const error = await failure(client().updateNumber(12, { sms_relay_url: "nope" }));
    expect(isValidationError(error)).toBe(true);
    expect((error as ValidationError).errors).toEqual({
      sms_relay_url: "must be a valid URI",
      "destinations.0.trunk_id": "required",
    });
    expect(error.message).toBe(
      "PATCH /v1/numbers/12: validation failed: sms_relay_url: must be a valid URI; destinations.0.trunk_id: required",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("reports an HTML page as ResponseFormatError saying what came back", async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad gateway</body></html>");
    });
    const error = await failure(client({ retry: { limit: 0 } }).getNumber(12));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toContain("expected JSON, got text/html (502)");
    expect(error.status).toBe(502);
  });

  it("reports malformed JSON as ResponseFormatError", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"id": 12, "numb');
    });
    const error = await failure(client().getNumber(12));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toMatch(/expected JSON, got malformed or truncated JSON \(\d+ bytes\) \(200\)/);
    expect(server.requests).toHaveLength(1);
  });

  it("maps a refused connection to NetworkError with status 0", async () => {
    const url = server.url;
    await server.close();
    const c = new WavixClient({ apiKey: KEY, baseUrl: url, retry: { limit: 1, backoffBaseMs: 1 } });
    const error = await failure(c.getNumber(1));
    expect(isNetworkError(error)).toBe(true);
    expect(error.status).toBe(0);
    expect(c.stats).toEqual({ requests: 2, retries: 1, rateLimited: 0 });
    server = await createHttpTestServer();
  });
});

describe("retries", () => {
  it("retries a GET on 503 and succeeds, counting requests and retries", async () => {
    let n = 0;
    server.handle((_req, res) => (++n <= 2 ? sendJson(res, 503, { success: false, message: "busy" }) : sendJson(res, 200, NUMBER)));
    const c = client();
    await expect(c.getNumber(12)).resolves.toMatchObject({ id: 12 });
    expect(server.requests).toHaveLength(3);
    expect(c.stats).toEqual({ requests: 3, retries: 2, rateLimited: 0 });
  });

  it("gives up after `limit` retries with ServerError", async () => {
    server.handle((_req, res) => sendJson(res, 504, { success: false, message: "gateway timeout" }));
    const error = await failure(client({ retry: { limit: 2 } }).getNumber(12));
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });

  it("retries an idempotent GET answered 500 like 502/503/504 (issue #27); a POST answered 500 is sent once, its outcome unknown", async () => {
    let n = 0;
    server.handle((_req, res) => (++n === 1 ? sendJson(res, 500, { success: false, message: "boom" }) : sendJson(res, 200, NUMBER)));
    const c = client();
    expect((await c.getNumber(12)).id).toBe(NUMBER.id);
    expect(server.requests).toHaveLength(2);
    expect(c.stats).toEqual({ requests: 2, retries: 1, rateLimited: 0 });
    server.requests.length = 0;
    server.handle((_req, res) => sendJson(res, 500, { success: false, message: "boom" }));
    const error = await failure(client().createSubAccount({ name: "x" }));
    expect(error.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a 4xx", async () => {
    server.handle((_req, res) => sendJson(res, 400, { success: false, message: "bad" }));
    await failure(client().getNumber(12));
    expect(server.requests).toHaveLength(1);
  });

  it("retries a PATCH on a dropped connection (absolute values are safe to repeat)", async () => {
    let n = 0;
    server.handle((_req, res) => (++n === 1 ? res.destroy() : sendJson(res, 200, NUMBER)));
    await client().updateNumber(12, { sms_enabled: true });
    expect(server.requests.filter((r) => r.method === "PATCH")).toHaveLength(2);
  });

  it("sends a POST with a dropped connection exactly once, outcomeUnknown", async () => {
    server.handle((_req, res) => res.destroy());
    const c = client();
    const error = await failure(c.createSubAccount({ name: "Acme" }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(c.stats).toEqual({ requests: 1, retries: 0, rateLimited: 0 });
  });

  it("sends a POST answered 503 exactly once, outcomeUnknown", async () => {
    server.handle((_req, res) => sendJson(res, 503, { success: false, message: "busy" }));
    const error = await failure(client().startCall({ from: "1", to: "2", callback_url: "https://x.example" }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain("outcome unknown");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a POST answered 429 (not processed) and honours Retry-After in seconds", async () => {
    let n = 0;
    const times: number[] = [];
    server.handle((_req, res) => {
      times.push(performance.now());
      if (++n === 1) return sendJson(res, 429, { success: false, message: "slow down" }, { "retry-after": "1" });
      return sendJson(res, 200, { event_type: "on-call", url: "https://h.example/on" });
    });
    const c = client();
    await c.upsertCallWebhook("on-call", "https://h.example/on");
    expect(server.requests).toHaveLength(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(c.stats.retries).toBe(1);
  });

  it("honours Retry-After as an HTTP-date", async () => {
    let n = 0;
    const times: number[] = [];
    server.handle((_req, res) => {
      times.push(Date.now());
      if (++n === 1) {
        const at = new Date(Date.now() + 2000).toUTCString();
        return sendJson(res, 429, { success: false, message: "slow down" }, { "retry-after": at });
      }
      return sendJson(res, 200, NUMBER);
    });
    await client().getNumber(12);
    // toUTCString drops milliseconds, so the wait is between 1 and 2 seconds.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1000);
  });

  it("caps a long Retry-After at maxRetryAfterMs", async () => {
    let n = 0;
    server.handle((_req, res) =>
      ++n === 1 ? sendJson(res, 429, { success: false }, { "retry-after": "3600" }) : sendJson(res, 200, NUMBER),
    );
    const started = performance.now();
    await client({ retry: { maxRetryAfterMs: 50 } }).getNumber(12);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(2);
  });

  it("throws RateLimitedError with retryAfterMs when 429 persists", async () => {
    server.handle((_req, res) => sendJson(res, 429, { success: false, message: "slow down" }, { "retry-after": "0" }));
    const error = await failure(client({ retry: { limit: 2 } }).getNumber(12));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(0);
    expect(server.requests).toHaveLength(3);
  });
});

describe("timeouts", () => {
  it("times out a stalled GET, retries it, then throws TimeoutError", async () => {
    server.handle(() => undefined); // never answers
    const c = client({ timeoutMs: 100, retry: { limit: 1 } });
    const error = await failure(c.getNumber(12));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.status).toBe(0);
    expect(error.message).toBe("GET /v1/numbers/12: timed out after 100 ms");
    expect(server.requests).toHaveLength(2);
  });

  it("times out a stalled POST once, outcomeUnknown", async () => {
    server.handle(() => undefined);
    const error = await failure(client({ timeoutMs: 100 }).createSubAccount({ name: "Acme" }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe("concurrency and rate limit", () => {
  it("keeps at most `concurrency` requests in flight, shared with withApiKey clients", async () => {
    let inFlight = 0;
    let peak = 0;
    server.handle(async (_req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      sendJson(res, 200, NUMBER);
    });
    const parent = client({ concurrency: 2 });
    const child = parent.withApiKey("sub-account-key-1");
    await Promise.all([1, 2, 3, 4].flatMap((id) => [parent.getNumber(id), child.getNumber(id)]));
    expect(peak).toBe(2);
    expect(parent.stats.requests).toBe(8);
    expect(server.requests.filter((r) => r.headers.authorization === "Bearer sub-account-key-1")).toHaveLength(4);
  });

  it("spaces requests to requestsPerSecond after the burst", async () => {
    server.handle((_req, res) => sendJson(res, 200, NUMBER));
    const c = client({ requestsPerSecond: 10 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 15 }, (_, i) => c.getNumber(i + 1)));
    // 10 in the burst, then 5 more at 100 ms each.
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });
});

describe("the key never leaks", () => {
  it("appears in no error's message, JSON, stack or cause, whatever the failure", async () => {
    const echo = { success: false, message: `bad key ${KEY}`, errors: { [KEY]: KEY } };
    const failures: WavixApiError[] = [];
    for (const status of [400, 401, 403, 404, 422, 429, 500, 503]) {
      server.handle((_req, res) => sendJson(res, status, echo, { "retry-after": "0" }));
      failures.push(await failure(client({ retry: { limit: 0 } }).getNumber(1)));
    }
    server.handle((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end(`<p>${KEY}</p>`);
    });
    failures.push(await failure(client({ retry: { limit: 0 } }).getNumber(1)));
    server.handle((_req, res) => res.destroy());
    failures.push(await failure(client({ retry: { limit: 0 } }).createSubAccount({ name: "x" })));
    server.handle(() => undefined);
    failures.push(await failure(client({ retry: { limit: 0 }, timeoutMs: 50 }).getNumber(1)));

    expect(failures).toHaveLength(11);
    for (const error of failures) {
      expect(exposed(error)).not.toContain(KEY);
      expect(exposed(error)).not.toContain("Bearer");
    }
  });
});

describe("other secrets the client knows never leak", () => {
  const SUB_KEY = "sub-account-key-4d8e1b";
  const CHILD_KEY = "child-client-key-6a0c2f";
  const subAccount = {
    id: 7,
    name: "acme",
    status: "enabled",
    api_key: SUB_KEY,
    master_organization: 1,
  };

  it("scrubs a sub-account api_key seen in a response, and the family's keys, from every client of the family", async () => {
    const parent = client({ retry: { limit: 0 } });
    const child = parent.withApiKey(CHILD_KEY);
    // Learned from a list by the child: the parent must scrub it too (one family, one set).
    server.handle((_req, res) =>
      sendJson(res, 200, { sub_organizations: [subAccount], pagination: { current_page: 1, per_page: 25, total: 1, total_pages: 1 } }),
    );
    await child.listSubAccounts();

    const echo = { success: false, message: `keys ${SUB_KEY} ${CHILD_KEY} ${KEY}`, errors: { [SUB_KEY]: [CHILD_KEY] } };
    const failures: WavixApiError[] = [];
    for (const c of [parent, child]) {
      server.handle((_req, res) => sendJson(res, 422, echo));
      failures.push(await failure(c.getNumber(1)));
      // A 200 without its list quotes the API's message: scrubbed as well.
      server.handle((_req, res) => sendJson(res, 200, { success: false, message: echo.message }));
      failures.push(await failure(c.listNumbers()));
      server.handle((_req, res) => {
        res.writeHead(502, { "content-type": "text/html" });
        res.end(`<p>${SUB_KEY} ${CHILD_KEY}</p>`);
      });
      failures.push(await failure(c.getNumber(1)));
    }
    expect(failures.map((e) => e.constructor.name)).toEqual([
      "ValidationError",
      "ResponseFormatError",
      "ResponseFormatError",
      "ValidationError",
      "ResponseFormatError",
      "ResponseFormatError",
    ]);
    for (const error of failures) {
      const text = exposed(error);
      for (const secret of [SUB_KEY, CHILD_KEY, KEY]) expect(text).not.toContain(secret);
      expect(text).toContain("[REDACTED]");
    }
  });

  it("learns the key of a sub-account it creates, gets or replaces", async () => {
    const c = client({ retry: { limit: 0 } });
    const keys = ["created-key-1a2b3c", "fetched-key-4d5e6f", "replaced-key-7a8b9c"];
    server.handle((_req, res) => sendJson(res, 200, { ...subAccount, api_key: keys[0] }));
    await c.createSubAccount({ name: "acme" });
    server.handle((_req, res) => sendJson(res, 200, { ...subAccount, api_key: keys[1] }));
    await c.getSubAccount(7);
    server.handle((_req, res) => sendJson(res, 200, { ...subAccount, api_key: keys[2] }));
    await c.replaceSubAccount(7, { name: "acme" });

    server.handle((_req, res) => sendJson(res, 404, { success: false, message: keys.join(" ") }));
    const text = exposed(await failure(c.getNumber(1)));
    for (const key of keys) expect(text).not.toContain(key);
    expect(text).toContain("[REDACTED] [REDACTED] [REDACTED]");
  });
});

describe("response drift", () => {
  it("warns once on an unexpected Number property and a missing field, never throws", async () => {
    const { label: _label, ...withoutLabel } = NUMBER;
    server.handle((_req, res) => sendJson(res, 200, { ...withoutLabel, brand_new_field: 1 }));
    const warnings: string[] = [];
    const c = client({ onWarning: (m) => warnings.push(m) });
    await expect(c.getNumber(1)).resolves.toMatchObject({ brand_new_field: 1 });
    await c.getNumber(2);
    expect(warnings).toHaveLength(2);
    // An added property is a quiet note (once per kind and field), a missing one is drift.
    expect(warnings.join("\n")).toContain('GET /v1/numbers/{id}: response addition: number: new property "brand_new_field"');
    expect(warnings.join("\n")).toContain('missing required property "label"');
    expect(warnings.find((w) => w.includes("label"))).toMatch(/^GET \/v1\/numbers\/\{id\}: response drift/);
  });

  it("accepts reasons as a string, vetting times without a zone, and normalises reasons to an array", async () => {
    const vetting = {
      evp_id: "AEGIS",
      create_date: "2026-11-01T10:00:00",
      vetted_date: null,
      vetting_id: "0b1c2d3e-4f50-4617-8899-aabbccddeeff",
      vetting_token: null,
      vetting_score: null,
      vetting_class: "STANDARD",
      vetting_status: "PENDING",
      reasons: "Pending review",
    };
    server.handle((_req, res) => sendJson(res, 200, [vetting, { ...vetting, reasons: ["a", "b"] }, { ...vetting, reasons: null }]));
    const warnings: string[] = [];
    const vettings = await client({ onWarning: (m) => warnings.push(m) }).listBrandVettings("B6AI7PA");
    expect(vettings.map((v) => v.reasons)).toEqual([["Pending review"], ["a", "b"], null]);
    expect(warnings).toEqual([]);
    expect(server.requests[0].url).toBe("/v3/10dlc/brands/B6AI7PA/vettings");
  });
});

describe("pagination", () => {
  it("walks pages until total_pages", async () => {
    server.handle((req, res) => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page"));
      sendJson(res, 200, {
        items: [{ ...NUMBER, id: page }],
        pagination: { current_page: page, per_page: 1, total: 3, total_pages: 3 },
      });
    });
    const ids: number[] = [];
    for await (const page of client().iterateNumberPages({ perPage: 1, search: "555" })) {
      ids.push(...page.items.map((n) => n.id));
    }
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v1/numbers?search=555&page=1&per_page=1",
      "/v1/numbers?search=555&page=2&per_page=1",
      "/v1/numbers?search=555&page=3&per_page=1",
    ]);
  });
});

describe("bounds, redirects and retry notices (issue #13)", () => {
  it("refuses a body past maxResponseBytes, announced by content-length or counted while it streams, without retrying", async () => {
    server.handle((req, res) => {
      if (req.url.includes("chunked")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"pad":"');
        for (let i = 0; i < 20; i++) res.write("x".repeat(100));
        res.end('"}');
      } else sendJson(res, 200, { pad: "x".repeat(2000) });
    });
    const c = client({ maxResponseBytes: 1000 });
    const declared = await failure(c.listMessages({ type: "outbound" }));
    expect(declared).toBeInstanceOf(ResponseFormatError);
    expect(declared.message).toBe("GET /v3/messages?type=outbound: response body larger than 1000 bytes (maxResponseBytes); not read further");
    const streamed = await failure(c.listMessages({ type: "chunked" as never }));
    expect(streamed.message).toContain("response body larger than 1000 bytes");
    expect(server.requests).toHaveLength(2);
  });

  it("follows a redirect within the origin with the key, and refuses one to another origin, naming it", async () => {
    const other = await createHttpTestServer();
    try {
      server.handle((req, res) => {
        if (req.url === "/v1/calls/webhooks") return void res.writeHead(301, { location: "/v1/calls/webhooks?v=2" }).end();
        if (req.url.startsWith("/v1/calls/webhooks?v=2")) return sendJson(res, 200, []);
        res.writeHead(302, { location: `${other.url}/v1/numbers/1?token=abc` }).end();
      });
      await expect(client().listCallWebhooks()).resolves.toEqual([]);
      expect(server.requests[1].headers.authorization).toBe(`Bearer ${KEY}`);
      const error = await failure(client().getNumber(1));
      expect(error.message).toBe(`GET /v1/numbers/1: redirected (302) to another origin, ${other.url}/v1/numbers/1: not followed`);
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("never re-sends a write on a 301/302/303", async () => {
    server.handle((_req, res) => void res.writeHead(302, { location: "/elsewhere" }).end());
    const error = await failure(client().replaceSubAccount(1, { name: "A" }));
    expect(error.message).toBe("PUT /v1/sub-organizations/1: redirected (302) to " + server.url + "/elsewhere: a PUT is not re-sent there");
    expect(server.requests).toHaveLength(1);
  });

  it("announces each retry: method, path, attempt, reason and the wait (Retry-After's when given, else the backoff)", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      if (n === 1) return sendJson(res, 503, { success: false, message: "busy" }, { "retry-after": "0.05" });
      if (n === 2) return void res.destroy();
      sendJson(res, 200, []);
    });
    const notices: RetryNotice[] = [];
    await client({ onRetry: (x) => notices.push(x), retry: { jitter: false, backoffBaseMs: 2 } }).listCallWebhooks();
    expect(notices.every((x) => x.failedAfterMs >= 0)).toBe(true);
    expect(notices.map(({ failedAfterMs: _, ...rest }) => rest)).toEqual([
      { method: "GET", path: "/v1/calls/webhooks", attempt: 2, attempts: 5, reason: "503 server error", waitMs: 50 },
      { method: "GET", path: "/v1/calls/webhooks", attempt: 3, attempts: 5, reason: "network error", waitMs: 4 },
    ]);
  });

  it("refuses nonsense bounds", () => {
    expect(() => client({ maxPages: 0 })).toThrow("maxPages must be a positive integer, got 0");
    expect(() => client({ maxResponseBytes: -1 })).toThrow("maxResponseBytes must be positive, got -1");
  });
});
