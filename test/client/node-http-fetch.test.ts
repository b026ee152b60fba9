/**
 * `nodeHttpFetch` (src/client/node-http-fetch.ts), the CLI's network, held to what the client and
 * its callers rely on from fetch: status, headers, text/json, a streaming body, a timeout that also
 * covers the body, a body cut short failing the read, redirects as fetch does them (methods,
 * credentials not carried to another origin, manual mode), against a real server on loopback.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NetworkError, nodeHttpFetch, TimeoutError, WavixClient } from "../../src/client";
import { createHttpTestServer, sendJson, type HttpTestServer } from "../helpers/http-test-server";

let server: HttpTestServer;
let other: HttpTestServer;
beforeEach(async () => {
  server = await createHttpTestServer();
  other = await createHttpTestServer();
});
afterEach(async () => {
  await server.close();
  await other.close();
});

describe("nodeHttpFetch", () => {
  it("sends method, headers and body; gives status, headers and the body as text or JSON", async () => {
    server.handle((req, res) => sendJson(res, 201, { got: req.body, method: req.method, auth: req.headers.authorization }, { "x-a": "1" }));
    const r = await nodeHttpFetch(`${server.url}/p?q=1`, { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: '{"a":1}' });
    expect(r.status).toBe(201);
    expect(r.ok).toBe(true);
    expect(r.headers.get("x-a")).toBe("1");
    expect(r.url).toBe(`${server.url}/p?q=1`);
    expect(await r.json()).toEqual({ got: '{"a":1}', method: "POST", auth: "Bearer k" });
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
  });

  it("reads headers as Headers does: any case, a repeated field joined; sends a plain object, pairs or a Headers alike", async () => {
    const seen: Record<string, unknown>[] = [];
    server.handle((req, res, raw) => {
      seen.push({ a: raw.headers["x-a"], b: raw.headers["x-b"] });
      res.setHeader("X-Twice", ["1", "2"]);
      sendJson(res, 200, {}, { "X-Once": "v" });
    });
    const r = await nodeHttpFetch(server.url, { headers: { "X-A": " 1 ", "x-b": "2" } });
    await r.text();
    expect([r.headers.get("x-once"), r.headers.get("X-ONCE"), r.headers.get("x-twice"), r.headers.get("absent")]).toEqual(["v", "v", "1, 2", null]);
    expect(r.headers.has("Content-Type")).toBe(true);
    expect([...r.headers].map(([k]) => k)).toEqual([...new Set([...r.headers].map(([k]) => k))].sort());
    await (await nodeHttpFetch(server.url, { headers: [["X-A", "p"], ["x-a", "q"]] })).text();
    await (await nodeHttpFetch(server.url, { headers: new Headers({ "x-b": "h" }) })).text();
    expect(seen).toEqual([{ a: "1", b: "2" }, { a: "p, q", b: undefined }, { a: undefined, b: "h" }]);
  });

  it("streams the body to a reader, and cancelling it lets the request go", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("a".repeat(1000));
      // never ends
    });
    const r = await nodeHttpFetch(server.url, {});
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBeGreaterThan(0);
    await reader.cancel();
  });

  it("drops a UTF-8 byte-order mark from text, as fetch does", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("\uFEFF[1]");
    });
    expect(await (await nodeHttpFetch(server.url, {})).text()).toBe("[1]");
  });

  it("fails the read with a TypeError when the connection is cut mid-body", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"items": [');
      setTimeout(() => res.destroy(), 20);
    });
    const r = await nodeHttpFetch(server.url, {});
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
  });

  it("a timeout covers the body too (the client reports a TimeoutError)", async () => {
    // Chunked, read through the body's stream; and with a declared length, read whole (request.ts, readCapped).
    for (const length of [undefined, "100"]) {
      server.handle((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", ...(length ? { "content-length": length } : {}) });
        res.write('{"id": 1');
        // stalls mid-body
      });
      const c = new WavixClient({ apiKey: "k", baseUrl: server.url, fetch: nodeHttpFetch, timeoutMs: 100, retry: { limit: 0 } });
      await expect(c.getNumber(1), `content-length ${length}`).rejects.toBeInstanceOf(TimeoutError);
    }
  });

  it("a body cut short of its declared length fails the client's read as a network error, not as broken JSON", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id": 1');
      setTimeout(() => res.destroy(), 20);
    });
    const c = new WavixClient({ apiKey: "k", baseUrl: server.url, fetch: nodeHttpFetch, retry: { limit: 0 } });
    const err = await c.getNumber(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
  });

  it("refuses connection failures with a TypeError carrying the cause", async () => {
    const url = server.url;
    await server.close();
    server = await createHttpTestServer();
    const err = await nodeHttpFetch(url, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  it("follows redirects as fetch does: 303 becomes GET, the key is not carried to another origin", async () => {
    other.handle((req, res) => sendJson(res, 200, { method: req.method, auth: req.headers.authorization ?? null, body: req.body }));
    server.handle((req, res) => {
      if (req.url === "/same") return sendJson(res, 307, {}, { location: "/final" });
      if (req.url === "/final") return sendJson(res, 200, { method: req.method, auth: req.headers.authorization ?? null, body: req.body });
      return sendJson(res, 303, {}, { location: `${other.url}/x` });
    });
    const init = { method: "POST", headers: { authorization: "Bearer k" }, body: "b" };
    expect(await (await nodeHttpFetch(`${server.url}/away`, init)).json()).toEqual({ method: "GET", auth: null, body: "" });
    expect(await (await nodeHttpFetch(`${server.url}/same`, init)).json()).toEqual({ method: "POST", auth: "Bearer k", body: "b" });
    const manual = await nodeHttpFetch(`${server.url}/same`, { ...init, redirect: "manual" });
    expect(manual.status).toBe(307);
    expect(manual.headers.get("location")).toBe("/final");
    await expect(nodeHttpFetch(`${server.url}/same`, { ...init, redirect: "error" })).rejects.toBeInstanceOf(TypeError);
  });

  it("keeps connections alive between requests", async () => {
    const ports = new Set<number | undefined>();
    server.handle((_req, res, raw) => {
      ports.add(raw.socket.remotePort);
      sendJson(res, 200, {});
    });
    for (let i = 0; i < 5; i++) {
      await (await nodeHttpFetch(server.url, {})).text();
      await sleep(5);
    }
    expect(ports.size).toBe(1);
  });
});
