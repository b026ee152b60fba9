// The Pulumi providers end to end (docs/CONTRACT.md part 6): resources built under setMocks in a child
// process (their serialized providers captured), then driven through the real dynamic-provider
// host over gRPC — configure, check, create, diff, read, update, delete — against the simulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import {
  capturePulumiResources,
  startPulumiHost,
  stripProvider,
  type CapturedResource,
  type PulumiHost,
  type PulumiResourceDriver,
} from "../helpers/pulumi-host";

const MASTER_KEY = "pulumi-test-master-key-5c1e";
const SUB_KEY = "sim-acme-support-key"; // the demo seed's key of sub-account 2001 "Acme Support"
const RESOURCES = "dist/pulumi/resources.js";

let sim: Simulator;
let host: PulumiHost;
const captured: Record<"SubAccount" | "PhoneNumber" | "CallWebhook", CapturedResource> = {} as never;

function driver(kind: keyof typeof captured, name?: string): PulumiResourceDriver {
  const c = captured[kind];
  return host.forResource({ provider: c.provider, urn: name ? c.urn.replace(/::[^:]+$/, `::${name}`) : c.urn });
}

/**
 * A new deployment: a new host process. Within one deployment a delete of what a create took over
 * is the old half of a replacement and touches nothing (issue #19), so a test of a resource's own
 * delete deletes it in the next deployment, as `pulumi destroy` does.
 */
async function nextDeployment(): Promise<void> {
  await host.close();
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": MASTER_KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
}

/** Requests sent since `from` that could change something. */
function writesSince(from: number): string[] {
  return sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
}

beforeAll(async () => {
  // dist/ is built once by test/global-setup.ts.
  // Serialization happens at program time; the key is in the environment then, and must not leak.
  const env = { WAVIX_API_KEY: MASTER_KEY };
  const [sa, pn, cw] = await Promise.all([
    capturePulumiResources(RESOURCES, "SubAccount", { args: { name: "sub-account:Pulumi Team", args: { name: "Pulumi Team" } }, env }),
    capturePulumiResources(RESOURCES, "PhoneNumber", { args: { name: "number:15551230003", args: { number: "15551230003" } }, env }),
    capturePulumiResources(RESOURCES, "CallWebhook", { args: { name: "call-webhook:on-call", args: { eventType: "on-call", url: "https://h.example/x" } }, env }),
  ]);
  captured.SubAccount = sa[0];
  captured.PhoneNumber = pn[0];
  captured.CallWebhook = cw[0];
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: MASTER_KEY }] });
  // The host gets no key in its environment: credentials come from configure.
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": MASTER_KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
});

afterAll(async () => {
  await host?.close();
  await sim?.close();
});

describe("serialized providers", () => {
  it("are small shims with no key, no client source, and the wavix module type", () => {
    for (const [kind, c] of Object.entries(captured)) {
      expect(c.type).toBe(`pulumi-nodejs:dynamic/wavix:${kind}`);
      expect(c.provider.length).toBeLessThan(4096);
      expect(c.provider).not.toContain(MASTER_KEY);
      expect(c.provider).not.toContain("WavixClient");
      expect(c.provider).not.toContain("Bearer");
      expect(c.providerIsSecret).toBe(false);
      expect(JSON.stringify(c.inputs)).not.toContain(MASTER_KEY);
      // No machine-specific absolute path is stored in state.
      expect(c.provider).not.toContain(process.cwd());
    }
  });

  it("marks the sub-account key as a secret output", () => {
    expect(captured.SubAccount.options.additionalSecretOutputs).toContain("apiKey");
  });
});

describe("PhoneNumber", () => {
  it("check normalises digits and transports, and names the property of each failure", async () => {
    const pn = driver("PhoneNumber");
    const ok = await pn.check({}, {
      number: "+15551230003",
      smsRelayUrl: null,
      destinations: [
        { destination: "sip.acme.example", transport: "sip", priority: 1 },
        { destination: "acme-trunk", transport: "trunk", trunkId: 144, priority: 2 },
      ],
    });
    expect(ok.failures).toEqual([]);
    expect(stripProvider(ok.inputs)).toEqual({
      number: "15551230003",
      smsRelayUrl: null,
      destinations: [
        { destination: "sip.acme.example", transport: 1, priority: 1 },
        { destination: "acme-trunk", transport: 5, priority: 2, trunkId: 144 },
      ],
    });

    const bad = await pn.check({}, {
      number: "15551230003",
      smsRelayUrl: "ftp://nope.example",
      onDelete: "burn",
      subAccountId: -3,
      destinations: [{ destination: "t", transport: "trunk", priority: 1 }, { destination: "s", transport: "sip", priority: 2, trunkId: 9 }],
    });
    const props = bad.failures.map((f) => f.property).sort();
    expect(props).toEqual(["destinations[0]", "destinations[1].trunkId", "onDelete", "smsRelayUrl", "subAccountId"]);
    expect(bad.failures.find((f) => f.property === "destinations[0]")!.reason).toContain("trunkId");
  });

  it("create adopts the owned number and writes only the given fields; diff, read, update, gone", async () => {
    const pn = driver("PhoneNumber");
    const before = structuredClone(sim.store.numbers.get(4003)!.data);
    const { inputs } = await pn.check({}, {
      number: "15551230003",
      smsEnabled: true,
      callStatusUrl: "https://hooks.acme.example/status",
      destinations: [{ destination: "sip.acme.example", transport: "sip", priority: 1 }],
    });
    const created = await pn.create(inputs);
    expect(created.id).toBe("4003");
    expect(stripProvider(created.properties)).toMatchObject({ number: "15551230003", wavixId: 4003, smsEnabled: true });
    const n = sim.store.numbers.get(4003)!.data;
    expect(n.sms_enabled).toBe(true);
    expect(n.call_status_url).toBe("https://hooks.acme.example/status");
    expect(n.destination.map((d) => d.destination)).toEqual(["sip.acme.example"]);
    // Unmanaged fields untouched.
    expect(n.transcription_threshold).toBe(before.transcription_threshold);
    expect(n.transcription_enabled).toBe(before.transcription_enabled);

    // No change: same inputs, and destinations in another order are the same set.
    expect((await pn.diff("4003", created.properties, inputs)).changes).toBe(false);

    const read = await pn.read("4003", created.properties);
    expect(read.id).toBe("4003");
    expect(read.inputs && stripProvider(read.inputs)).toEqual(stripProvider(inputs));

    // Update in place: only the changed field is written.
    const { inputs: news } = await pn.check(inputs, { ...stripProvider(inputs), smsEnabled: false });
    const d = await pn.diff("4003", created.properties, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const from = sim.log.length;
    const updated = await pn.update("4003", created.properties, news);
    expect(updated.smsEnabled).toBe(false);
    expect(sim.store.numbers.get(4003)!.data.sms_enabled).toBe(false);
    expect(writesSince(from)).toEqual(["PATCH /v1/numbers/4003"]);

    // Out of band: the account shows another value; read reports it as the current input.
    sim.store.numbers.get(4003)!.data.sms_enabled = true;
    const drifted = await pn.read("4003", updated);
    expect(drifted.inputs?.smsEnabled).toBe(true);
    expect((await pn.diff("4003", drifted.properties, news)).changes).toBe(true);

    // Gone: released out of band, read returns no id so refresh drops it.
    sim.store.releaseNumbers([4003]);
    expect((await pn.read("4003", updated)).id).toBe("");
  });

  it("diff: destinations are a set; a new number replaces; another subAccountId is an update", async () => {
    const pn = driver("PhoneNumber");
    const olds = {
      number: "15551230001",
      wavixId: 4001,
      destinations: [
        { destination: "a.example", transport: 1, priority: 1 },
        { destination: "15557654321", transport: 4, priority: 2 },
      ],
    };
    const reordered = { number: "15551230001", destinations: [olds.destinations[1], olds.destinations[0]] };
    expect((await pn.diff("4001", olds, reordered)).changes).toBe(false);
    const moved = await pn.diff("4001", olds, { ...reordered, number: "15551230002" });
    expect(moved.replaces).toEqual(["number"]);
    // Regression (#11): a delete-before-replace here released the number with onDelete: release.
    const sub = await pn.diff("4001", olds, { ...reordered, subAccountId: 2001 });
    expect(sub).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    const unknown = await pn.diff("4001", olds, { ...reordered, subAccountId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" });
    expect(unknown).toMatchObject({ changes: true, replaces: [] });
  });

  it("refuses a number the account does not own, naming it (never buys)", async () => {
    const pn = driver("PhoneNumber");
    const from = sim.log.length;
    await expect(pn.create({ number: "19995550000", smsEnabled: true })).rejects.toThrow(/19995550000.*not owned/);
    expect(writesSince(from)).toEqual([]);
  });

  it("delete retains the number unless onDelete is release", async () => {
    const pn = driver("PhoneNumber");
    const kept = await pn.create({ number: "15551230004" });
    let from = sim.log.length;
    await pn.delete(kept.id, kept.properties);
    expect(sim.log.length).toBe(from); // not even a read
    expect(sim.store.numbers.has(4004)).toBe(true);

    const { inputs } = await pn.check({}, { number: "15551230005", onDelete: "release" });
    const released = await pn.create(inputs);
    await nextDeployment();
    from = sim.log.length;
    await driver("PhoneNumber").delete(released.id, released.properties);
    expect(writesSince(from)).toEqual(["DELETE /v1/numbers"]);
    expect(sim.store.numbers.has(4005)).toBe(false);
  });

  it("manages a sub-account's number with that sub-account's key, never stored", async () => {
    const pn = driver("PhoneNumber");
    // 15551230007 belongs to sub-account 2001: the master key does not see it, and the error names
    // that sub-account and what to write, as the CLI does (never "buy it first").
    const from = sim.log.length;
    const err = await pn.create({ number: "15551230007", callRecordingEnabled: true }).then(
      () => new Error("created"),
      (e: Error) => e,
    );
    expect(err.message).toMatch(
      /PhoneNumber 15551230007: the number belongs to sub-account "Acme Support" \(id 2001\), not to the account itself: set subAccountId: 2001 on the resource \(in the file: sub_account: "Acme Support"\)/,
    );
    expect(err.message).not.toMatch(/buy it first/);
    expect(writesSince(from)).toEqual([]);
    // Declared under another sub-account than the one that has it: named too.
    await expect(pn.create({ number: "15551230007", subAccountId: 2002 })).rejects.toThrow(/belongs to sub-account "Acme Support" \(id 2001\), not to sub-account 2002: set subAccountId: 2001/);
    // Owned by nobody here: the plain message stands.
    await expect(pn.create({ number: "19995550001" })).rejects.toThrow(/PhoneNumber 19995550001: number 19995550001 is not owned by the account itself \(wavix-sync never buys numbers; buy it first\)/);
    const { inputs } = await pn.check({}, { number: "15551230007", subAccountId: 2001, callRecordingEnabled: true });
    const created = await pn.create(inputs);
    expect(created.id).toBe("4007");
    expect(sim.store.numbers.get(4007)!.organization).toBe(2001);
    expect(sim.store.numbers.get(4007)!.data.call_recording_enabled).toBe(true);
    expect(JSON.stringify(created.properties)).not.toContain(SUB_KEY);
    const read = await pn.read(created.id, created.properties);
    expect(read.id).toBe("4007");
    expect(JSON.stringify(read)).not.toContain(SUB_KEY);
  });
});

describe("SubAccount", () => {
  it("create, diff, read, update (PUT of the merge), adopt by name, gone, delete disables", async () => {
    const sa = driver("SubAccount");
    const { inputs, failures } = await sa.check({}, { name: "Pulumi Team", defaultDestinations: { smsEndpoint: "https://pt.example/sms" } });
    expect(failures).toEqual([]);
    const created = await sa.create(inputs);
    const id = Number(created.id);
    const rec = sim.store.subAccounts.get(id)!.data;
    expect(rec.name).toBe("Pulumi Team");
    expect(rec.default_destinations.sms_endpoint).toBe("https://pt.example/sms");
    expect(created.properties).toMatchObject({ subAccountId: id, apiKey: rec.api_key, masterOrganization: 1000 });

    expect((await sa.diff(created.id, created.properties, inputs)).changes).toBe(false);
    const read = await sa.read(created.id, created.properties);
    expect(read.id).toBe(created.id);
    expect(read.inputs && stripProvider(read.inputs)).toEqual(stripProvider(inputs));

    // Out of band, an unmanaged field is set; an update of a managed one keeps it (PUT sends the merge).
    rec.default_destinations.dlr_endpoint = "https://pt.example/dlr";
    const news = { ...stripProvider(inputs), status: "disabled" };
    expect(await sa.diff(created.id, created.properties, news)).toMatchObject({ changes: true, replaces: [] });
    await sa.update(created.id, created.properties, news);
    const after = sim.store.subAccounts.get(id)!.data;
    expect(after.status).toBe("disabled");
    expect(after.default_destinations).toMatchObject({ sms_endpoint: "https://pt.example/sms", dlr_endpoint: "https://pt.example/dlr" });

    // A second resource of the same name adopts it: never a duplicate.
    const again = await sa.create(inputs);
    expect(again.id).toBe(created.id);
    expect([...sim.store.subAccounts.values()].filter((s) => s.data.name === "Pulumi Team")).toHaveLength(1);

    // Renaming without a pinned id replaces.
    expect((await sa.diff(created.id, created.properties, { name: "Other" })).replaces).toEqual(["name"]);

    // delete disables (there is no delete operation).
    await sa.delete(created.id, created.properties);
    expect(sim.store.subAccounts.get(id)!.data.status).toBe("disabled");

    sim.store.subAccounts.delete(id);
    expect((await sa.read(created.id, created.properties)).id).toBe("");
  });

  it("a pinned subAccountId adopts that sub-account (a new name renames it), never creates", async () => {
    const sa = driver("SubAccount");
    const from = sim.log.length;
    const { inputs, failures } = await sa.check({}, { name: "Legacy Team 2", subAccountId: 2002 });
    expect(failures).toEqual([]);
    const created = await sa.create(inputs);
    expect(created.id).toBe("2002");
    expect(sim.store.subAccounts.get(2002)!.data.name).toBe("Legacy Team 2");
    expect(writesSince(from)).toEqual(["PUT /v1/sub-organizations/2002"]);
    // With a pin, a new name is an update, and another pin is a replacement.
    expect(await sa.diff("2002", created.properties, { name: "Legacy", subAccountId: 2002 })).toMatchObject({ changes: true, replaces: [] });
    expect((await sa.diff("2002", created.properties, { name: "Legacy Team 2", subAccountId: 2001 })).replaces).toEqual(["subAccountId"]);
    await expect(sa.create({ name: "Ghost", subAccountId: 999999 })).rejects.toThrow(/999999.*does not exist/);
  });
});

describe("CallWebhook", () => {
  it("create, diff, read, update, gone, delete", async () => {
    const cw = driver("CallWebhook");
    const hooks = () => sim.store.webhooksOf(sim.store.masterId);
    const bad = await cw.check({}, { eventType: "on-hangup", url: "not a url" });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["eventType", "url"]);

    const { inputs } = await cw.check({}, { eventType: "on-call", url: "https://hooks.acme.example/on-call" });
    const created = await cw.create(inputs);
    expect(created.id).toBe("on-call");
    expect(hooks().get("on-call")).toBe("https://hooks.acme.example/on-call");
    expect((await cw.diff("on-call", created.properties, inputs)).changes).toBe(false);
    expect((await cw.diff("on-call", created.properties, { ...inputs, eventType: "post-call" })).replaces).toEqual(["eventType"]);

    const news = { eventType: "on-call", url: "https://hooks.acme.example/v2" };
    expect(await cw.diff("on-call", created.properties, news)).toMatchObject({ changes: true, replaces: [] });
    await cw.update("on-call", created.properties, news);
    expect(hooks().get("on-call")).toBe("https://hooks.acme.example/v2");
    const read = await cw.read("on-call", news);
    expect(read.inputs && stripProvider(read.inputs)).toEqual(news);

    expect(created.properties).toMatchObject({ adopted: false, accountId: 1000 });

    // State that does not say whether the stack set it (an earlier version's): left as it is.
    await nextDeployment();
    const quiet = sim.log.length;
    await driver("CallWebhook").delete("on-call", news);
    expect(hooks().get("on-call")).toBe("https://hooks.acme.example/v2");
    expect(sim.log.length).toBe(quiet);
    // The stack set it: deleted.
    await driver("CallWebhook").delete("on-call", { ...news, adopted: false, accountId: 1000 });
    expect(hooks().has("on-call")).toBe(false);
    expect((await driver("CallWebhook").read("on-call", news)).id).toBe("");
  });
});

describe("credentials", () => {
  it("fall back to WAVIX_API_KEY / WAVIX_BASE_URL in the host when config has none", async () => {
    const envHost = await startPulumiHost({ env: { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: sim.url } });
    try {
      await envHost.configure({});
      const cw = envHost.forResource(captured.CallWebhook);
      await cw.create({ eventType: "post-call", url: "https://env.example/post" });
      expect(sim.store.webhooksOf(sim.store.masterId).get("post-call")).toBe("https://env.example/post");
    } finally {
      await envHost.close();
    }
  });
});
