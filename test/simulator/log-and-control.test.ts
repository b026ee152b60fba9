import { afterEach, describe, expect, test } from "vitest";
import type { Simulator, SimRequestLogEntry } from "../../src/simulator";
import { api, withSim } from "./helpers";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("request log", () => {
  test("records method, path, query, status, time and auth kind, never a key", async () => {
    sim = await withSim({ apiKeys: [{ key: "super-secret-key-123" }] });
    await api(sim, "GET", "/v1/numbers?search=555&per_page=2", { key: "super-secret-key-123" });
    await fetch(`${sim.url}/v1/numbers/4001?appid=super-secret-key-123`);
    await api(sim, "GET", "/v1/numbers", { key: null });
    await api(sim, "GET", "/v1/numbers", { key: "wrong-secret-key" });
    expect(sim.log.map((e) => [e.method, e.path, e.status, e.auth])).toEqual([
      ["GET", "/v1/numbers", 200, "bearer"],
      ["GET", "/v1/numbers/4001", 200, "appid"],
      ["GET", "/v1/numbers", 401, "none"],
      ["GET", "/v1/numbers", 401, "bearer"],
    ]);
    expect(sim.log[0].query).toBe("search=555&per_page=2");
    expect(Number.isNaN(Date.parse(sim.log[0].at))).toBe(false);
    const text = JSON.stringify(sim.log);
    expect(text).not.toContain("super-secret-key-123");
    expect(text).not.toContain("wrong-secret-key");
  });

  test("dropped requests are logged with status 0", async () => {
    sim = await withSim({ faults: [{ kind: "drop", times: 1 }] });
    await fetch(`${sim.url}/v1/calls`, { headers: { authorization: "Bearer sim-demo-key" } }).catch(() => undefined);
    expect(sim.log).toEqual([expect.objectContaining({ path: "/v1/calls", status: 0 })]);
  });
});

describe("/__sim control endpoints", () => {
  test("absent unless control: true", async () => {
    sim = await withSim();
    expect((await fetch(`${sim.url}/__sim/log`)).status).toBe(404);
  });

  test("log (GET, DELETE), state and faults (PUT) work from outside the process", async () => {
    sim = await withSim({ control: true });
    await api(sim, "GET", "/v1/calls");
    const log = (await (await fetch(`${sim.url}/__sim/log`)).json()) as SimRequestLogEntry[];
    expect(log.map((e) => e.path)).toEqual(["/v1/calls"]);
    expect((await fetch(`${sim.url}/__sim/log`, { method: "DELETE" })).status).toBe(200);
    expect(await (await fetch(`${sim.url}/__sim/log`)).json()).toEqual([]);

    const state = (await (await fetch(`${sim.url}/__sim/state`)).json()) as { numbers: Array<{ number: string }> };
    expect(state.numbers.map((n) => n.number)).toContain("15551230001");

    const put = await fetch(`${sim.url}/__sim/faults`, {
      method: "PUT",
      body: JSON.stringify([{ kind: "status", status: 503, times: 1 }]),
    });
    expect(put.status).toBe(200);
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(503);
    expect((await api(sim, "GET", "/v1/calls")).status).toBe(200);
    const bad = await fetch(`${sim.url}/__sim/faults`, { method: "PUT", body: JSON.stringify([{ kind: "boom" }]) });
    expect(bad.status).toBe(400);
    // Control requests themselves are not in the log.
    expect(sim.log.every((e) => !e.path.startsWith("/__sim"))).toBe(true);
  });
});
