/**
 * A refresh asks the provider to read each PhoneNumber separately. Within one provider process,
 * reads of many numbers must cost pages, not one GET each; reads of a few cost one GET each
 * (docs/CONTRACT.md part 8). Measured through the real dynamic-provider host over gRPC.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources, startPulumiHost, type CapturedResource, type PulumiHost } from "../helpers/pulumi-host";

const KEY = "refresh-cost-key-77";
let captured: CapturedResource;
let sim: Simulator | undefined;
let host: PulumiHost | undefined;

beforeAll(async () => {
  // dist/ is built once by test/global-setup.ts.
  [captured] = await capturePulumiResources("dist/pulumi/resources.js", "PhoneNumber", {
    args: { name: "number:15550000001", args: { number: "15550000001" } },
  });
});

afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = sim = undefined;
});

/** Read `count` numbers of a `size`-number account, `parallel` at a time, in one host process. */
async function refresh(size: number, count: number, parallel = 16) {
  const seed = generateAccount({ numbers: size, subAccounts: 0 });
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }] });
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
  const pn = host.forResource(captured);
  const targets = (seed.numbers ?? []).slice(0, count);
  const found: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < targets.length) {
        const n = targets[next++];
        const r = await pn.read(String(n.id), { number: n.number, smsEnabled: n.sms_enabled });
        expect(r.id).toBe(String(n.id));
        expect(r.properties.smsEnabled).toBe(n.sms_enabled);
        found.push(r.id);
      }
    }),
  );
  const gets = sim.log.filter((e) => e.method === "GET");
  return {
    found: found.length,
    single: gets.filter((e) => /^\/v1\/numbers\/\d+$/.test(e.path)).length,
    listing: gets.filter((e) => e.path === "/v1/numbers").length,
    total: sim.log.length,
  };
}

describe("PhoneNumber reads in one provider process", () => {
  it("cost one GET each when there are few", async () => {
    const r = await refresh(2000, 5, 5);
    expect(r).toEqual({ found: 5, single: 5, listing: 0, total: 5 });
  });

  it("cost pages rather than one GET each when there are many", async () => {
    // 2,000 numbers = 20 pages of 100: at most ~2 × 20 requests (rent-or-buy), not 2,000.
    const r = await refresh(2000, 2000);
    expect(r.found).toBe(2000);
    expect(r.total).toBeLessThanOrEqual(2 * 20 + 16 + 2);
    expect(r.listing).toBeGreaterThanOrEqual(20);
    process.stdout.write(`refresh of 2,000 PhoneNumbers: ${r.total} requests (${r.single} GET by id, ${r.listing} listing pages)\n`);
  });

  it("one listing however many reads wait for it: refresh of 1,000 at --parallel 8, 16 and 64 costs at most 120 requests", async () => {
    // Regression (issue #19, fix 3): every read that waited on the size probe started its own full
    // listing, so the cost grew with the engine's parallelism (20 / 98 / 578 requests).
    for (const parallel of [8, 16, 64]) {
      const r = await refresh(1000, 1000, parallel);
      expect(r.found).toBe(1000);
      expect(r.total, `--parallel ${parallel}`).toBeLessThanOrEqual(120);
      process.stdout.write(`refresh of 1,000 PhoneNumbers at --parallel ${parallel}: ${r.total} requests\n`);
      await host?.close();
      await sim?.close();
      host = sim = undefined;
    }
  });
});
