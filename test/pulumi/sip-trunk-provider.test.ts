// The Pulumi SipTrunk resource end to end (as test/pulumi/providers.test.ts does for the others):
// built under setMocks in a child process (its serialized provider captured), then driven through
// the real dynamic-provider host over gRPC against the strict simulator. The same rules as the CLI:
// the password is a write-only secret input (sent on create, again only when it changes),
// `accessToken` a secret output, no delete while a number routes to the trunk.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources, startPulumiHost, stripProvider, type CapturedResource, type PulumiHost } from "../helpers/pulumi-host";

const MASTER_KEY = "pulumi-trunk-test-key-81f0";
const RESOURCES = "dist/pulumi/resources.js";
const PASSWORD = "pulumi-trunk-password-Q9";

let sim: Simulator;
let host: PulumiHost;
let captured: CapturedResource;

const writesSince = (from: number) => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const driver = () => host.forResource({ provider: captured.provider, urn: captured.urn });

async function nextDeployment(): Promise<void> {
  await host.close();
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": MASTER_KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
}

beforeAll(async () => {
  const env = { WAVIX_API_KEY: MASTER_KEY };
  [captured] = await capturePulumiResources(RESOURCES, "SipTrunk", {
    args: { name: "sip-trunk:pulumi-pbx", args: { label: "pulumi-pbx", password: PASSWORD, multipleNumbers: true } },
    env,
  });
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: MASTER_KEY }] });
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": MASTER_KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
});

afterAll(async () => {
  await host?.close();
  await sim?.close();
});

describe("SipTrunk", () => {
  it("is a small shim; the password input is secret, and so are the password and accessToken outputs", () => {
    expect(captured.type).toBe("pulumi-nodejs:dynamic/wavix:SipTrunk");
    expect(captured.provider.length).toBeLessThan(4096);
    expect(captured.provider).not.toContain(MASTER_KEY);
    expect(captured.provider).not.toContain(PASSWORD);
    expect(captured.secretInputs).toContain("password");
    expect(captured.options.additionalSecretOutputs).toEqual(expect.arrayContaining(["password", "accessToken"]));
  });

  it("check uses the file's rules: IPs a set, money as decimal text, names the property of each failure", async () => {
    const t = driver();
    const bad = await t.check({}, { label: "x", allowedIps: ["not-an-ip"], maxCallCost: "cheap", colour: 1 });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["allowedIps[0]", "colour", "maxCallCost"]);
    const dup = await t.check({}, { label: "x", allowedIps: ["203.0.113.2", "203.0.113.2"] });
    expect(dup.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([expect.stringMatching(/^allowedIps\[1\]: duplicate IP "203.0.113.2".*a set/)]);
    const ok = await t.check({}, { label: "x", allowedIps: ["203.0.113.2", "203.0.113.1"], maxCallCost: "0.18" });
    expect(ok.failures).toEqual([]);
    expect(stripProvider(ok.inputs)).toEqual({ label: "x", allowedIps: ["203.0.113.1", "203.0.113.2"], maxCallCost: "0.18" });
  });

  it("create sends the password once; diff, read; an update is a PUT without it; a new password value rotates it", async () => {
    const t = driver();
    const from = sim.log.length;
    const { inputs, failures } = await t.check({}, { label: "pulumi-pbx", password: PASSWORD, multipleNumbers: true, maxCallCost: "0.25" });
    expect(failures).toEqual([]);
    await expect(t.create({ ...stripProvider(inputs), password: undefined })).rejects.toThrow(/no password to create it with.*trunkPasswords\.pulumi-pbx/);
    const created = await t.create(inputs);
    const id = Number(created.id);
    expect(writesSince(from)).toEqual(["POST /v1/trunks"]);
    const rec = sim.store.trunks.get(id)!;
    expect(rec.password).toBe(PASSWORD);
    expect(created.properties).toMatchObject({ trunkId: id, login: rec.data.name, accessToken: rec.data.access_token });

    expect((await t.diff(created.id, created.properties, inputs)).changes).toBe(false);
    const read = await t.read(created.id, created.properties);
    expect(read.inputs && stripProvider(read.inputs)).toMatchObject({ label: "pulumi-pbx", multipleNumbers: true, maxCallCost: "0.2500" });

    const news = { ...stripProvider(inputs), encryptedMedia: true };
    expect(await t.diff(created.id, created.properties, news)).toMatchObject({ changes: true, replaces: [] });
    const at = sim.log.length;
    await t.update(created.id, created.properties, news);
    expect(writesSince(at)).toEqual([`PUT /v1/trunks/${id}`]);
    expect(sim.store.trunks.get(id)!.password).toBe(PASSWORD);
    expect(sim.store.trunks.get(id)!.data.encrypted_media).toBe(true);

    const rotated = { ...news, password: "a-new-password-77" };
    expect(await t.diff(created.id, { ...created.properties, encryptedMedia: true }, rotated)).toMatchObject({ changes: true, replaces: [] });
    await t.update(created.id, { ...created.properties, encryptedMedia: true }, rotated);
    expect(sim.store.trunks.get(id)!.password).toBe("a-new-password-77");

    // Another label without a pinned id is another trunk.
    expect((await t.diff(created.id, created.properties, { ...news, label: "other" })).replaces).toEqual(["label"]);
  });

  it("delete is refused while a number routes to the trunk, naming it; a free trunk is deleted", async () => {
    // Demo trunk 144 ("acme-pbx") is routed to by 15551230001.
    await nextDeployment();
    const props = { label: "acme-pbx", trunkId: 144, login: "acme-trunk" };
    await expect(driver().delete("144", props)).rejects.toThrow(/"acme-pbx" \(id 144\) is not deleted: number 15551230001 routes to it/);
    expect(sim.store.trunks.has(144)).toBe(true);
    await driver().delete("145", { label: "office-phones", trunkId: 145, login: "67758" });
    expect(sim.store.trunks.has(145)).toBe(false);
  });
});
