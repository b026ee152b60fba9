import { afterEach, describe, expect, test } from "vitest";
import type { SubAccount } from "../../src/client/types";
import type { Simulator } from "../../src/simulator";
import { startSimulator } from "../../src/simulator";
import { api, KEY, withSim } from "./helpers";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("fault rules", () => {
  test("status 429 with Retry-After seconds, bounded by times", async () => {
    sim = await withSim({ faults: [{ kind: "status", status: 429, retryAfter: "3", times: 2 }] });
    const a = await api(sim, "GET", "/v1/numbers");
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("3");
    expect((await api(sim, "GET", "/v1/numbers")).status).toBe(429);
    expect((await api(sim, "GET", "/v1/numbers")).status).toBe(200);
  });

  test("Retry-After as an HTTP-date and 5xx codes", async () => {
    const date = new Date(Date.now() + 5000).toUTCString();
    sim = await withSim({
      faults: [
        { kind: "status", status: 429, retryAfter: date, times: 1 },
        { kind: "status", status: 500, times: 1 },
        { kind: "status", status: 504, times: 1 },
      ],
    });
    const first = await api(sim, "GET", "/v1/numbers");
    expect(first.headers.get("retry-after")).toBe(date);
    expect((await api(sim, "GET", "/v1/numbers")).status).toBe(500);
    expect((await api(sim, "GET", "/v1/numbers")).status).toBe(504);
  });

  test("custom body: an HTML 502 page and truncated JSON", async () => {
    sim = await withSim({
      faults: [
        { kind: "status", status: 502, body: "<html><body>Bad Gateway</body></html>", contentType: "text/html", times: 1 },
        { kind: "status", status: 200, body: '{"items":[{"id":1', times: 1 },
      ],
    });
    const html = await api(sim, "GET", "/v1/numbers");
    expect(html.status).toBe(502);
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.text).toContain("Bad Gateway");
    const trunc = await api(sim, "GET", "/v1/numbers");
    expect(trunc.status).toBe(200);
    expect(() => JSON.parse(trunc.text)).toThrow();
  });

  test("everyNth, method and pathPrefix select the requests", async () => {
    sim = await withSim({ faults: [{ kind: "status", status: 503, everyNth: 2, method: "get", pathPrefix: "/v1/numbers" }] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api(sim, "GET", "/v1/numbers")).status);
    expect(statuses).toEqual([200, 503, 200, 503]);
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(200);
    expect((await api(sim, "PATCH", "/v1/numbers/4001", { body: {} })).status).toBe(200);
  });

  test("probability draws from a seeded RNG: two runs give the same sequence", async () => {
    const run = async (): Promise<number[]> => {
      const s = await startSimulator({ port: 0, faults: [{ kind: "status", status: 503, probability: 0.5 }] });
      try {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await api(s, "GET", "/v1/calls")).status);
        return out;
      } finally {
        await s.close();
      }
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  test("drop destroys the socket without a response and does not do the work", async () => {
    sim = await withSim({ faults: [{ kind: "drop", method: "POST", times: 1 }] });
    const before = sim.store.subAccounts.size;
    await expect(
      fetch(`${sim.url}/v1/sub-organizations`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Dropped" }),
      }),
    ).rejects.toThrow();
    expect(sim.store.subAccounts.size).toBe(before);
  });

  test("commit-then-drop performs the create, then drops the connection", async () => {
    sim = await withSim({ faults: [{ kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 }] });
    await expect(
      fetch(`${sim.url}/v1/sub-organizations`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Committed" }),
      }),
    ).rejects.toThrow();
    const list = await api<{ sub_organizations: SubAccount[] }>(sim, "GET", "/v1/sub-organizations");
    expect(list.body.sub_organizations.filter((s) => s.name === "Committed")).toHaveLength(1);
    // times: 1, so the next create answers normally.
    expect((await api(sim, "POST", "/v1/sub-organizations", { body: { name: "Next" } })).status).toBe(200);
  });

  test("delay and global latency slow the answer", async () => {
    sim = await withSim({ latencyMs: 40, faults: [{ kind: "delay", delayMs: 80, times: 1 }] });
    let t = Date.now();
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(115);
    t = Date.now();
    await api(sim, "GET", "/v1/calls");
    const second = Date.now() - t;
    expect(second).toBeGreaterThanOrEqual(35);
    expect(second).toBeLessThan(115);
  });

  test("setFaults replaces rules; faults never apply to /__sim", async () => {
    sim = await withSim({ control: true });
    sim.setFaults([{ kind: "status", status: 503 }]);
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(503);
    const log = await fetch(`${sim.url}/__sim/log`);
    expect(log.status).toBe(200);
    sim.setFaults([]);
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(200);
  });

  test("malformed rules are refused", () => {
    return expect(startSimulator({ port: 0, faults: [{ kind: "status", probability: 2 }] })).rejects.toThrow(/probability/);
  });
});

describe("rateLimit: a limit the simulator enforces without announcing it", () => {
  test("a burst goes through, the rest is refused 429 with Retry-After (or none), nothing done and logged as 429; the bucket refills", async () => {
    for (const retryAfterSeconds of [2, null]) {
      sim = await withSim({ rateLimit: { perSecond: 1, burst: 3, retryAfterSeconds } });
      // Five at once against a burst of 3 (and 1/s: no token comes back unless they spread over a second).
      const answers = await Promise.all(Array.from({ length: 5 }, () => api(sim!, "GET", "/v1/numbers")));
      const refused = answers.filter((a) => a.status === 429);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(refused.length).toBe(2);
      for (const a of refused) {
        expect(a.body).toEqual({ success: false, message: "Too many requests" });
        expect(a.headers.get("retry-after")).toBe(retryAfterSeconds === null ? null : String(retryAfterSeconds));
      }
      expect(sim.log.filter((e) => e.status === 429)).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 1100)); // a token back
      expect((await api(sim, "GET", "/v1/numbers")).status).toBe(200);
      await sim.close();
      sim = undefined;
    }
  });

  test("a limit that is not a rate is refused", () => {
    return expect(startSimulator({ port: 0, rateLimit: { perSecond: 0 } })).rejects.toThrow(/perSecond > 0/);
  });
});
