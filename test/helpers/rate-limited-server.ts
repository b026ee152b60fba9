/**
 * A server that enforces a rate limit the client is not told about, as an API gateway does:
 * a token bucket of `ratePerSecond` (burst `burst`) for all requests; over the limit it answers
 * 429 with `Retry-After: <seconds>` (or none, `retryAfterSeconds: null`) and the seed's error body
 * shape, without doing the work.
 *
 * Faithful to: a limit unknown in advance, 429 with an integer `Retry-After` or without one,
 * refusals that cost nothing.
 * Leaves out: per-key or per-route limits, sliding windows, limits that change over time.
 */
import { createHttpTestServer, sendJson, type HttpTestServer } from "./http-test-server";

export interface RateLimitedServer extends HttpTestServer {
  /** Requests answered 200 and 429. */
  counts: { ok: number; limited: number };
  /** Arrival time (performance.now) of each request, in order. */
  arrivals: number[];
  /** Most requests in flight at once (answers are held `holdMs`). */
  peakInFlight: number;
}

export async function createRateLimitedServer(options: {
  ratePerSecond: number;
  burst: number;
  /** The `Retry-After` of a refusal, in seconds; `null` sends none. */
  retryAfterSeconds: number | null;
  /** Time each answer takes, so requests overlap. @default 20 */
  holdMs?: number;
  body: unknown;
}): Promise<RateLimitedServer> {
  const server = (await createHttpTestServer()) as RateLimitedServer;
  server.counts = { ok: 0, limited: 0 };
  server.arrivals = [];
  server.peakInFlight = 0;
  let tokens = options.burst;
  let last = performance.now();
  let inFlight = 0;
  server.handle(async (_req, res) => {
    const now = performance.now();
    server.arrivals.push(now);
    tokens = Math.min(options.burst, tokens + ((now - last) / 1000) * options.ratePerSecond);
    last = now;
    // Decided on arrival, answered after the hold, as a gateway in front of a slower backend.
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    inFlight++;
    server.peakInFlight = Math.max(server.peakInFlight, inFlight);
    await new Promise((r) => setTimeout(r, options.holdMs ?? 20));
    inFlight--;
    if (!allowed) {
      server.counts.limited++;
      const headers: Record<string, string> = options.retryAfterSeconds === null ? {} : { "retry-after": String(options.retryAfterSeconds) };
      sendJson(res, 429, { success: false, message: "Too many requests" }, headers);
      return;
    }
    server.counts.ok++;
    sendJson(res, 200, options.body);
  });
  return server;
}
