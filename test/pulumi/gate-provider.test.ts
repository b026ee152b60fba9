/**
 * The write gate under the dynamic provider (issue #33 items 2 and 3; docs/GUARD-RAILS.md): the
 * SubAccount resource built under setMocks in a child process (its serialized provider captured),
 * then driven through the real dynamic-provider host over gRPC (test/helpers/pulumi-host.ts)
 * against the simulator, writes counted from its request log. One host process is one deployment.
 *
 * - wavix:maxDestructive 2: the third destructive diff of a deployment is refused (the preview
 *   fails before any write), and so is the third destructive update (two PUTs, not three);
 *   wavix:force lets it through.
 * - State that recorded no account (made with a key that could not read the profile), then the
 *   stack's key replaced by another account's: no update or delete is sent there (the review saw
 *   `PUT /v1/sub-organizations/501` in account 2002); with `wavix:accountId` pinned to the key's
 *   account, the write goes (the pin vouches for the object).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources, startPulumiHost, type CapturedResource, type PulumiHost } from "../helpers/pulumi-host";

const KEY = "gate-provider-key-6Tq2";
const RESOURCES = "dist/pulumi/resources.js";
let sim: Simulator;
let host: PulumiHost | undefined;
let captured: CapturedResource;

const writes = (from = 0) => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const driver = () => host!.forResource({ provider: captured.provider, urn: captured.urn });
const state = (i: number, status: string, accountId?: number) => ({ name: `Tenant ${i}`, status, subAccountId: 501 + i, adopted: false, ...(accountId !== undefined ? { accountId } : {}) });

async function deployment(config: Record<string, string>): Promise<void> {
  await host?.close();
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url, ...config }, { secretKeys: ["wavix:apiKey"] });
}

beforeAll(async () => {
  [captured] = await capturePulumiResources(RESOURCES, "SubAccount", { args: { name: "sub-account:Tenant 0", args: { name: "Tenant 0" } }, env: { WAVIX_API_KEY: KEY } });
  sim = await startSimulator({
    port: 0,
    seed: { numbers: [], subAccounts: [0, 1, 2, 3].map((i) => ({ id: 501 + i, name: `Tenant ${i}`, api_key: `gate-provider-sub-${i}-k8` })) },
    apiKeys: [{ key: KEY }],
  });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await sim?.close();
});

describe("the write gate under the dynamic provider", () => {
  it("wavix:maxDestructive 2: the third destructive diff and the third destructive update are refused, naming the limit and wavix:force", async () => {
    const account = sim.store.masterId;
    await deployment({ "wavix:maxDestructive": "2" });
    const at = sim.log.length;
    for (const i of [0, 1]) expect((await driver().diff(String(501 + i), state(i, "enabled", account), { name: `Tenant ${i}`, status: "disabled" })).changes).toBeTruthy();
    await expect(driver().diff("503", state(2, "enabled", account), { name: "Tenant 2", status: "disabled" })).rejects.toThrow(
      /not planned: it would be destructive change 3 of this deployment, past the limit of 2 \(wavix:maxDestructive\).*wavix:force/,
    );
    expect(writes(at)).toEqual([]);

    await deployment({ "wavix:maxDestructive": "2" });
    for (const i of [0, 1]) await driver().update(String(501 + i), state(i, "enabled", account), { name: `Tenant ${i}`, status: "disabled" });
    await expect(driver().update("503", state(2, "enabled", account), { name: "Tenant 2", status: "disabled" })).rejects.toThrow(/not written: it would be destructive change 3/);
    expect(writes(at)).toEqual(["PUT /v1/sub-organizations/501", "PUT /v1/sub-organizations/502"]);
    expect(sim.store.subAccounts.get(503)!.data.status).toBe("enabled");

    await deployment({ "wavix:maxDestructive": "2", "wavix:force": "true" });
    for (const i of [0, 1, 2]) await driver().update(String(501 + i), state(i, "enabled", account), { name: `Tenant ${i}`, status: "disabled" });
    expect(sim.store.subAccounts.get(503)!.data.status).toBe("disabled");
  }, 120_000);

  it("state that recorded no account: another account's key writes nothing; a pin of the key's account vouches for it", async () => {
    await deployment({});
    const at = sim.log.length;
    // Made with a key that could not read the profile: no accountId in state.
    await expect(driver().update("504", state(3, "enabled"), { name: "Tenant 3", status: "disabled" })).rejects.toThrow(
      /its state recorded no account.*nothing was written.*pulumi config set wavix:accountId/,
    );
    await expect(driver().delete("504", { ...state(3, "enabled"), onDelete: "delete" })).rejects.toThrow(/its state recorded no account/);
    expect(writes(at)).toEqual([]);
    // Recorded for another account than the key's: refused too.
    await expect(driver().update("504", state(3, "enabled", 2002), { name: "Tenant 3", status: "disabled" })).rejects.toThrow(/belongs to account 2002/);
    expect(writes(at)).toEqual([]);
    await deployment({ "wavix:accountId": String(sim.store.masterId) });
    await driver().update("504", state(3, "enabled"), { name: "Tenant 3", status: "disabled" });
    expect(writes(at)).toEqual(["PUT /v1/sub-organizations/504"]);
  }, 120_000);
});
