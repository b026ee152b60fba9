/**
 * Answers the official document allows that the client once refused: a bulk update without
 * `items`, a sub-account listing without `sub_organizations` (both keys are optional there).
 * Real client, real simulator over loopback HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ResponseFormatError, WavixClient } from "../../src/client";
import { startSimulator, type Simulator } from "../../src/simulator";

const KEY = "client-answers-key-8d1e";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function client(s: Simulator): WavixClient {
  return new WavixClient({ apiKey: KEY, baseUrl: s.url, retry: { limit: 0 } });
}

describe("answers without their list", () => {
  it("a bulk update answered {} is a success that shows nothing yet", async () => {
    sim = await startSimulator({ port: 0, apiKeys: [{ key: KEY }], variations: ["bulk-without-items"] });
    await expect(client(sim).bulkUpdateNumbers([4001, 4002], { sms_enabled: false })).resolves.toEqual([]);
    expect(sim.store.numbers.get(4002)!.data.sms_enabled).toBe(false);
  });

  it("a sub-account listing without sub_organizations: empty when the pagination says 0, else refused", async () => {
    const empty = JSON.stringify({ pagination: { current_page: 1, per_page: 25, total: 0, total_pages: 0 } });
    sim = await startSimulator({
      port: 0,
      apiKeys: [{ key: KEY }],
      faults: [{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/sub-organizations", body: empty, times: 1 }],
    });
    const c = client(sim);
    await expect(c.listSubAccounts()).resolves.toMatchObject({ items: [] });
    // Not provably empty: never read as an empty account.
    sim.setFaults([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/sub-organizations", body: "{}", times: 1 }]);
    await expect(c.listSubAccounts()).rejects.toBeInstanceOf(ResponseFormatError);
  });
});
