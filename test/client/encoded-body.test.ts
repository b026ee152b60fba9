/**
 * Regression (issue #22): a gzip body (which the client never asks for) was reported as
 * "malformed or truncated JSON". It is named for what it is. Through the CLI's own network.
 */
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeHttpFetch, ResponseFormatError, WavixClient } from "../../src/client";
import { createHttpTestServer, type HttpTestServer } from "../helpers/http-test-server";

let server: HttpTestServer;
beforeEach(async () => {
  server = await createHttpTestServer();
});
afterEach(async () => {
  await server.close();
});

describe("an encoded body", () => {
  it("gzip: the error names the encoding, not broken JSON", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipSync(JSON.stringify({ id: 1, number: "15551230001" })));
    });
    const c = new WavixClient({ apiKey: "encoded-body-key-0123456789", baseUrl: server.url, fetch: nodeHttpFetch, retry: { limit: 0 } });
    const err = await c.getNumber(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseFormatError);
    expect((err as Error).message).toContain('a body encoded as "gzip" (Content-Encoding), which the client does not decode');
    expect((err as Error).message).not.toContain("malformed or truncated JSON");
    expect(server.requests[0].headers["accept-encoding"]).toBeUndefined();
  });
});
