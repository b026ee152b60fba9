/**
 * A tiny real HTTP server on a random loopback port, for client tests (in the manner of ky's
 * `create-http-test-server.ts`): each test sets the handler, and every request is recorded so tests
 * can count attempts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type TestHandler = (
  req: RecordedRequest,
  res: http.ServerResponse,
  raw: http.IncomingMessage,
) => unknown;

export interface HttpTestServer {
  url: string;
  requests: RecordedRequest[];
  handle(handler: TestHandler): void;
  close(): Promise<void>;
}

export async function createHttpTestServer(): Promise<HttpTestServer> {
  const requests: RecordedRequest[] = [];
  let handler: TestHandler = (_req, res) => {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ success: false, message: "no handler" }));
  };
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on("data", (c: Buffer) => chunks.push(c));
    raw.on("end", () => {
      const rec: RecordedRequest = {
        method: raw.method ?? "",
        url: raw.url ?? "",
        headers: raw.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res, raw)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Send a JSON response. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
