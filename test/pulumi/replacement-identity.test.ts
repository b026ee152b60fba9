/**
 * Issue #19, fixes 1 and 2, through the real dynamic-provider host over gRPC against the simulator.
 *
 * 1. A replacement whose create adopted the very Wavix object the old resource names
 *    (`pulumi up --replace`, `pulumi state taint`, a targeted replace: the engine creates the new
 *    resource first and deletes the old one at the end of the same deployment, without asking the
 *    provider's Diff — pulumi/pulumi pkg/resource/deploy/step_generator.go) must not release,
 *    disable or delete it: the old half is dropped without touching the account, with a warning.
 * 2. An id stored in state that now names another object (the stack pointed at another account or
 *    base URL) is refused on read, update and delete, naming both, with no write.
 * The real engine's own `--replace` / `state taint` runs are in the engine tests.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources, startPulumiHost, stripProvider, type CapturedResource, type PulumiHost } from "../helpers/pulumi-host";

const KEY = "pulumi-replace-key-9d2f";
const RESOURCES = "dist/pulumi/resources.js";
const captured: Record<"SubAccount" | "PhoneNumber" | "CallWebhook", CapturedResource> = {} as never;
let sim: Simulator | undefined;
let host: PulumiHost | undefined;

beforeAll(async () => {
  const [sa, pn, cw] = await Promise.all([
    capturePulumiResources(RESOURCES, "SubAccount", { args: { name: "sub-account:Acme Support", args: { name: "Acme Support" } } }),
    capturePulumiResources(RESOURCES, "PhoneNumber", { args: { name: "number:15551230003", args: { number: "15551230003" } } }),
    capturePulumiResources(RESOURCES, "CallWebhook", { args: { name: "call-webhook:on-call", args: { eventType: "on-call", url: "https://h.example/x" } } }),
  ]);
  captured.SubAccount = sa[0];
  captured.PhoneNumber = pn[0];
  captured.CallWebhook = cw[0];
});

afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = sim = undefined;
});

async function start(): Promise<{ sim: Simulator; host: PulumiHost }> {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
  return { sim, host };
}

/** A new deployment: a new host process (what a create of the last one took over is forgotten). */
async function nextDeployment(s: Simulator): Promise<PulumiHost> {
  await host?.close();
  host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
  await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": s.url }, { secretKeys: ["wavix:apiKey"] });
  return host;
}

const writes = (s: Simulator, from = 0): string[] => s.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const driver = (h: PulumiHost, kind: keyof typeof captured) => h.forResource(captured[kind]);

describe("a replacement that adopted the same Wavix object (fix 1)", () => {
  it("PhoneNumber with onDelete: release — the old half's delete releases nothing", async () => {
    const { sim, host: first } = await start();
    const pn = driver(first, "PhoneNumber");
    const inputs = { number: "15551230003", smsEnabled: true, onDelete: "release" };
    // The old resource, created in an earlier deployment (its state is all the engine keeps).
    const old = await pn.create(inputs);
    // A new deployment (a new host process): `up --replace` creates the replacement, then deletes the old.
    await first.close();
    host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
    await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
    const pn2 = driver(host, "PhoneNumber");
    const mark = sim.log.length;
    const replacement = await pn2.create(inputs);
    expect(replacement.id).toBe(old.id);
    await pn2.delete(old.id, stripProvider(old.properties));
    expect(writes(sim, mark).filter((w) => w.startsWith("DELETE"))).toEqual([]);
    expect(sim.store.numbers.has(Number(old.id))).toBe(true);
  });

  it("SubAccount — the old half's delete does not disable it", async () => {
    const { sim, host } = await start();
    const sa = driver(host, "SubAccount");
    const old = await sa.create({ name: "Acme Support", status: "enabled" });
    const mark = sim.log.length;
    const replacement = await sa.create({ name: "Acme Support", status: "enabled" });
    expect(replacement.id).toBe(old.id);
    await sa.delete(old.id, stripProvider(old.properties));
    expect(writes(sim, mark)).toEqual([]);
    expect(sim.store.subAccounts.get(Number(old.id))!.data.status).toBe("enabled");
  });

  it("CallWebhook — the old half's delete does not delete it", async () => {
    const { sim, host } = await start();
    const cw = driver(host, "CallWebhook");
    const old = await cw.create({ eventType: "on-call", url: "https://h.example/x" });
    const replacement = await cw.create({ eventType: "on-call", url: "https://h.example/x" });
    expect(replacement.id).toBe(old.id);
    const mark = sim.log.length;
    await cw.delete(old.id, stripProvider(old.properties));
    expect(writes(sim, mark)).toEqual([]);
    const hooks = await fetch(`${sim.url}/v1/calls/webhooks`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.json());
    expect(JSON.stringify(hooks)).toContain("https://h.example/x");
  });

  it("a plain delete (no replacement in this deployment) still acts", async () => {
    const { sim, host: first } = await start();
    const pn = driver(first, "PhoneNumber");
    const old = await pn.create({ number: "15551230003", onDelete: "release" });
    await first.close();
    host = await startPulumiHost({ env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
    await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
    const mark = sim.log.length;
    await driver(host, "PhoneNumber").delete(old.id, stripProvider(old.properties));
    expect(writes(sim, mark)).toEqual(["DELETE /v1/numbers"]);
  });
});

describe("a stored id that now names something else (fix 2)", () => {
  it("PhoneNumber: read, update and release refuse, naming both numbers, with no write", async () => {
    const { sim, host: first } = await start();
    const created = await driver(first, "PhoneNumber").create({ number: "15551230003", smsEnabled: true, onDelete: "release" });
    const pn = driver(await nextDeployment(sim), "PhoneNumber");
    const props = stripProvider(created.properties);
    // The stack now points at an account where that id is another number.
    sim.store.numbers.get(Number(created.id))!.data.number = "15559990000";
    const mark = sim.log.length;
    await expect(pn.read(created.id, props)).rejects.toThrow(/PhoneNumber id \d+ now names number 15559990000, not number 15551230003/);
    await expect(pn.update(created.id, props, { ...props, smsEnabled: false })).rejects.toThrow(/now names number 15559990000/);
    await expect(pn.delete(created.id, props)).rejects.toThrow(/now names number 15559990000/);
    expect(writes(sim, mark)).toEqual([]);
  });

  it("SubAccount: another master account's or another name's sub-account is refused", async () => {
    const { sim, host: first } = await start();
    const created = await driver(first, "SubAccount").create({ name: "Acme Support", status: "enabled" });
    const sa = driver(await nextDeployment(sim), "SubAccount");
    const props = stripProvider(created.properties);
    const rec = sim.store.subAccounts.get(Number(created.id))!.data;
    rec.name = "Someone Else";
    const mark = sim.log.length;
    await expect(sa.read(created.id, props)).rejects.toThrow(/SubAccount id \d+ now names "Someone Else", not "Acme Support"/);
    await expect(sa.update(created.id, props, { name: "Acme Support", status: "disabled" })).rejects.toThrow(/now names "Someone Else"/);
    // Adopted ("Acme Support" existed): a delete leaves it without a request; opted in, it is checked first.
    expect(props.adopted).toBe(true);
    const quiet = sim.log.length;
    await sa.delete(created.id, props);
    expect(sim.log.length).toBe(quiet);
    await expect(sa.delete(created.id, { ...props, onDelete: "delete" })).rejects.toThrow(/now names "Someone Else"/);
    rec.name = "Acme Support";
    await expect(sa.read(created.id, { ...props, masterOrganization: 999999 })).rejects.toThrow(/master account 999999/);
    expect(writes(sim, mark)).toEqual([]);
  });

  it("CallWebhook: state whose id and event type disagree is refused", async () => {
    const { sim, host } = await start();
    const cw = driver(host, "CallWebhook");
    await cw.create({ eventType: "on-call", url: "https://h.example/x" });
    const mark = sim.log.length;
    await expect(cw.delete("on-call", { eventType: "post-call", url: "https://h.example/x" })).rejects.toThrow(/CallWebhook id on-call now names event type on-call, not event type post-call/);
    expect(writes(sim, mark)).toEqual([]);
  });
});
