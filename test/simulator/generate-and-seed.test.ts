import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { generateAccount, loadSeedFile, type Simulator, startSimulator } from "../../src/simulator";
import type { NumberListResponse, WavixNumber } from "../../src/client/types";
import { api, withSim } from "./helpers";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("generateAccount", () => {
  test("is deterministic", () => {
    expect(generateAccount({ numbers: 50, subAccounts: 3, seed: 7 })).toEqual(
      generateAccount({ numbers: 50, subAccounts: 3, seed: 7 }),
    );
    expect(generateAccount({ numbers: 50, seed: 7 })).not.toEqual(generateAccount({ numbers: 50, seed: 8 }));
  });

  test("10,000 numbers build and list quickly, page by page", async () => {
    const t0 = Date.now();
    sim = await startSimulator({ port: 0, seed: generateAccount({ numbers: 10_000, subAccounts: 5 }) });
    const built = Date.now() - t0;
    expect(built).toBeLessThan(3000);
    const t1 = Date.now();
    let seen = 0;
    for (let page = 1; page <= 100; page++) {
      const r = await api<NumberListResponse>(sim, "GET", `/v1/numbers?page=${page}&per_page=100`);
      expect(r.status).toBe(200);
      seen += r.body.items.length;
      if (page === 1) expect(r.body.pagination).toEqual({ current_page: 1, per_page: 100, total: 10_000, total_pages: 100 });
    }
    expect(seen).toBe(10_000);
    expect(Date.now() - t1).toBeLessThan(5000);
    const found = await api<NumberListResponse>(sim, "GET", "/v1/numbers?search=15550009999");
    expect(found.body.items.map((n) => n.id)).toEqual([109_999]);
    const subs = await api<{ sub_organizations: unknown[] }>(sim, "GET", "/v1/sub-organizations");
    expect(subs.body.sub_organizations).toHaveLength(5);
  });
});

describe("seeds", () => {
  test("empty has nothing", async () => {
    sim = await withSim({ seed: "empty" });
    const r = await api<NumberListResponse>(sim, "GET", "/v1/numbers");
    expect(r.body.items).toEqual([]);
    expect(await (await api(sim, "GET", "/v1/calls/webhooks")).body).toEqual([]);
  });

  test("demo ids are deterministic across runs", async () => {
    const a = await withSim();
    const b = await withSim();
    try {
      const ra = await api<NumberListResponse>(a, "GET", "/v1/numbers");
      const rb = await api<NumberListResponse>(b, "GET", "/v1/numbers");
      expect(ra.body).toEqual(rb.body);
      const body = { name: "Same" };
      const ca = await api(a, "POST", "/v1/sub-organizations", { body });
      const cb = await api(b, "POST", "/v1/sub-organizations", { body });
      expect({ ...(ca.body as object), created_at: 0 }).toEqual({ ...(cb.body as object), created_at: 0 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("loadSeedFile reads YAML and JSON; partial numbers get every seed 2.1 field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sim-seed-"));
    try {
      const yamlFile = join(dir, "seed.yaml");
      writeFileSync(yamlFile, "numbers:\n  - id: 7\n    number: '+15559990007'\n    sms_enabled: true\n");
      const jsonFile = join(dir, "seed.json");
      writeFileSync(jsonFile, JSON.stringify({ numbers: [{ number: "15559990008" }] }));
      expect(loadSeedFile(jsonFile).numbers).toHaveLength(1);
      sim = await withSim({ seed: loadSeedFile(yamlFile) });
      const r = await api<WavixNumber>(sim, "GET", "/v1/numbers/7");
      expect(r.body).toMatchObject({ id: 7, number: "15559990007", sms_enabled: true, status: "active" });
      expect(Object.keys(r.body)).toHaveLength(28);
      const bad = join(dir, "bad.yaml");
      writeFileSync(bad, "- just\n- a list\n");
      expect(() => loadSeedFile(bad)).toThrow(/bad\.yaml/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
