/**
 * A scheme mismatch is answered the same every time: it is never retried, and the message names it
 * (src/client/errors/network-error.ts `protocolMismatch`, used by the retry policy and by
 * src/kit/change/error-text.ts). The peer here is a raw loopback socket that answers in TLS, as an https
 * server does to a plain-http request: a TLS alert record (content type 21, version 3.3).
 */
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError, protocolMismatch, WavixClient } from "../../src/client";
import { describeError } from "../../src/kit/change/error-text";

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe("http:// to a server that speaks TLS", () => {
  it("is classified http-to-tls, not retried (one connection), and worded as one sentence", async () => {
    let connections = 0;
    server = createServer((socket) => {
      connections++;
      socket.once("data", () => socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46])));
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as { port: number }).port;
    const client = new WavixClient({ apiKey: "mismatch-test-key-1234", baseUrl: `http://127.0.0.1:${port}` });
    const err = await client.listCallWebhooks().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect(protocolMismatch(err as NetworkError)).toBe("http-to-tls");
    expect(connections).toBe(1);
    expect(describeError(err)).toBe(
      "GET /v1/calls/webhooks: the server did not answer in HTTP: it may expect https; check the scheme in WAVIX_BASE_URL",
    );
  });
});
