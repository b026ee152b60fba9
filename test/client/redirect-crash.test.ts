/**
 * Regression (issue #22, major 1): the CLI's network (`nodeHttpFetch`) crashed the process on every
 * redirect and sometimes at the body cap. Cancelling a body destroyed the socket, but its `data`/`end`
 * handlers still called `controller.enqueue/close` on the cancelled stream, which throws
 * ERR_INVALID_STATE outside any promise: an uncaught exception (vitest fails a run on one). Each case
 * goes through the real client, as the CLI sends it, against a real server on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeHttpFetch, ResponseFormatError, WavixClient } from "../../src/client";
import { createHttpTestServer, sendJson, type HttpTestServer } from "../helpers/http-test-server";

let server: HttpTestServer;
let other: HttpTestServer;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown): void => {
  uncaught.push(err);
};
beforeEach(async () => {
  server = await createHttpTestServer();
  other = await createHttpTestServer();
  uncaught.length = 0;
  process.on("uncaughtException", onUncaught);
});
afterEach(async () => {
  process.off("uncaughtException", onUncaught);
  await server.close();
  await other.close();
});

const client = (extra: Partial<ConstructorParameters<typeof WavixClient>[0]> = {}): WavixClient =>
  new WavixClient({ apiKey: "redirect-test-key-0123456789", baseUrl: server.url, fetch: nodeHttpFetch, retry: { limit: 0 }, ...extra });

/** A redirect with a body large enough to still be arriving when it is cancelled. */
function redirectWithBody(res: import("node:http").ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, "content-type": "text/html" });
  res.write("<html>" + "x".repeat(64 * 1024));
  setTimeout(() => res.end("</html>"), 20);
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 80));

describe("redirects and the body cap through nodeHttpFetch (no crash)", () => {
  it("follows a same-origin redirect to the answer", async () => {
    server.handle((req, res) => {
      if (req.url?.startsWith("/v1/numbers/7")) return sendJson(res, 200, { id: 7, number: "15551230007" });
      return redirectWithBody(res, 301, "/v1/numbers/7");
    });
    const n = await client().getNumber(6);
    expect((n as { id: number }).id).toBe(7);
    await settle();
    expect(uncaught).toEqual([]);
  });

  it("refuses a redirect to another origin in one error, sending that origin nothing", async () => {
    server.handle((_req, res) => redirectWithBody(res, 302, `${other.url}/v1/numbers/6`));
    const err = await client().getNumber(6).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseFormatError);
    expect((err as Error).message).toMatch(/another origin/);
    expect(other.requests).toHaveLength(0);
    await settle();
    expect(uncaught).toEqual([]);
  });

  it("refuses a redirect loop after a bounded number of hops", async () => {
    server.handle((_req, res) => redirectWithBody(res, 307, "/v1/numbers/6"));
    const err = await client().getNumber(6).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseFormatError);
    expect((err as Error).message).toMatch(/redirects/);
    expect(server.requests.length).toBeLessThanOrEqual(6);
    await settle();
    expect(uncaught).toEqual([]);
  });

  it("abandons a body past the cap without crashing", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = "[" + "1,".repeat(32 * 1024);
      let sent = 0;
      const pump = (): void => {
        while (sent < 40) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end("1]");
      };
      pump();
    });
    const err = await client({ maxResponseBytes: 256 * 1024 }).getNumber(6).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseFormatError);
    await settle();
    expect(uncaught).toEqual([]);
  });
});
