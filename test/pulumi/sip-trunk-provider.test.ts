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

/**
 * The host's warnings: it sends them to the engine address it was given, where nothing listens
 * (test/helpers/pulumi-host.ts), so each lands on its stderr once that call has failed.
 */
async function warned(pattern: RegExp): Promise<void> {
  for (let i = 0; i < 100 && !pattern.test(host.stderr()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(host.stderr()).toMatch(pattern);
}

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
    expect(created.properties).toMatchObject({ trunkId: id, login: rec.data.name, accessToken: rec.data.access_token, adopted: false });

    expect((await t.diff(created.id, created.properties, inputs)).changes).toBe(false);
    // The API keeps money at four places ("0.2500"): a refresh keeps the state's "0.25", which means
    // the same, so the next preview shows no change (issue #27 item 7: it diffed forever).
    expect(rec.data.max_call_cost).toBe("0.2500");
    const read = await t.read(created.id, created.properties);
    expect(read.inputs && stripProvider(read.inputs)).toMatchObject({ label: "pulumi-pbx", multipleNumbers: true, maxCallCost: "0.25" });
    expect((await t.diff(created.id, stripProvider(read.properties), inputs)).changes).toBe(false);
    // And a state that holds the API's spelling (a refresh by an earlier version) diffs as decimals too.
    expect((await t.diff(created.id, { ...created.properties, maxCallCost: "0.2500" }, inputs)).changes).toBe(false);
    expect((await t.diff(created.id, created.properties, { ...stripProvider(inputs), maxCallCost: "0.26" })).changes).toBe(true);

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

  it("a delete leaves a trunk numbers route to (a warning naming them, never blocking), and an adopted one; a free trunk it made is deleted", async () => {
    // Demo trunk 144 ("acme-pbx") is routed to by 15551230001.
    await nextDeployment();
    const at = sim.log.length;
    // Made by the stack, but a number routes to it: left as it is, and the delete succeeds (a
    // destroy is never blocked by a number that may have left the state long ago).
    await driver().delete("144", { label: "acme-pbx", trunkId: 144, login: "acme-trunk", adopted: false });
    await warned(/SipTrunk "acme-pbx" \(id 144\): left as it is, not deleted: number 15551230001 routes to it; route them elsewhere, then delete the trunk/);
    expect(sim.store.trunks.has(144)).toBe(true);
    // Adopted (or state that does not say): left, without a request.
    const quiet = sim.log.length;
    await driver().delete("145", { label: "office-phones", trunkId: 145, login: "67758", adopted: true });
    await driver().delete("145", { label: "office-phones", trunkId: 145, login: "67758" });
    expect(sim.log.length).toBe(quiet);
    await warned(/SipTrunk "office-phones" \(id 145\): left as it is, not deleted: this stack adopted it .*set onDelete: "delete" on the resource/);
    await warned(/SipTrunk "office-phones" \(id 145\): left as it is, not deleted: its state was written by a wavix-sync that did not record/);
    expect(sim.store.trunks.has(145)).toBe(true);
    // Opted in: deleted.
    // (The state records the account, as a create or an import does: the write gate compares it.)
    await driver().delete("145", { label: "office-phones", trunkId: 145, login: "67758", adopted: true, onDelete: "delete", accountId: sim.store.masterId });
    expect(sim.store.trunks.has(145)).toBe(false);
    expect(writesSince(at)).toEqual(["DELETE /v1/trunks/145"]);
  });

  it("adopting a trunk sends no password, and a replacement neither; passwordVersion sends it", async () => {
    await nextDeployment();
    const t = driver();
    const before = sim.store.trunks.get(144)!.password;
    const { inputs, failures } = await t.check({}, { label: "acme-pbx", password: "config-password-1", callerid: "15551230001" });
    expect(failures).toEqual([]);
    await warned(/SipTrunk "acme-pbx": the trunk \(id 144\) exists already: the create will adopt it, not make it; its password will not be sent \(adopting never rotates a password; set passwordVersion to send it\); a destroy will leave it as it is/);
    const at = sim.log.length;
    const adopted = await t.create(inputs);
    expect(adopted.id).toBe("144");
    expect(adopted.properties).toMatchObject({ adopted: true, trunkId: 144 });
    expect(sim.store.trunks.get(144)!.password).toBe(before);
    expect(writesSince(at)).toEqual([]);
    // The same inputs again (`up --replace`: the replacement finds its trunk): no password either.
    await nextDeployment();
    const again = await driver().create(inputs);
    expect(again.id).toBe("144");
    expect(sim.store.trunks.get(144)!.password).toBe(before);
    expect(writesSince(at)).toEqual([]);
    // No diff for the password when nothing asks for it; a passwordVersion asks.
    const t2 = driver();
    expect((await t2.diff("144", adopted.properties, inputs)).changes).toBe(false);
    const bad = await t2.check({}, { label: "acme-pbx", passwordVersion: 2 });
    expect(bad.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual(["passwordVersion: passwordVersion asks for the password to be sent again, but no password is given"]);
    const asked = { ...stripProvider(inputs), passwordVersion: 2 };
    expect(await t2.diff("144", adopted.properties, asked)).toMatchObject({ changes: true, replaces: [] });
    const updated = await t2.update("144", adopted.properties, asked);
    expect(sim.store.trunks.get(144)!.password).toBe("config-password-1");
    expect(writesSince(at)).toEqual(["PUT /v1/trunks/144"]);
    expect(updated).toMatchObject({ adopted: true, passwordVersion: 2 });
  });
});
