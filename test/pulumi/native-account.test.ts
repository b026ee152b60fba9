/**
 * `wavix:index:Account` (issue #38 item 2; docs/PULUMI.md, "One resource for a whole account")
 * through the plugin's own gRPC handlers (src/pulumi/plugin/server.ts) with the stubs
 * `@pulumi/pulumi` ships — every request and answer serialised to protobuf bytes and back, as the
 * engine's would be — against the simulator on a loopback port, its requests counted:
 *  - Check reads the file and plans it: its inputs are the file, its digest and what the plan
 *    changes (maps keyed by identity), not the declared state; a bad file is a failure worded
 *    FILE:LINE:COL;
 *  - Diff is the CLI's plan (the Check's): listing pages, not a read per number; no change is
 *    DIFF_NONE; one edited number among 250 is that one property in the detailed diff;
 *  - Update applies that plan through the write gate: the one PATCH; past the blast radius, the
 *    Diff and the Update refuse with zero writes, naming wavix:maxDestructive and wavix:force;
 *  - inline maps plan as the file does; Delete sends nothing and says so; import by the file's path
 *    sends no write. The real engine's runs are in real-engine-account.test.ts. Runs the built dist/.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import type { Stubs, WavixProvider as Provider } from "../../src/pulumi/plugin/server";
import { SECRET_SIG, SIG_KEY } from "../../src/pulumi/plugin/wire";
import { ROOT } from "../helpers/real-pulumi";
import { accountSchema } from "../../src/pulumi/plugin/account-schema";
import type { changedView as ChangedView } from "../../src/pulumi/plugin/account";
import { kindsInFileOrder } from "../../src/kinds";

const { WavixProvider } = require(path.join(ROOT, "dist", "pulumi", "plugin", "server.js")) as { WavixProvider: typeof Provider };
const stubs: Stubs = (require(path.join(ROOT, "dist", "pulumi", "plugin", "main.js")) as { loadStubs(): Stubs }).loadStubs();
const { fastService } = require(path.join(ROOT, "dist", "pulumi", "plugin", "service.js")) as typeof import("../../src/pulumi/plugin/service");
const pb = stubs.provider;
const { changedView } = require(path.join(ROOT, "dist", "pulumi", "plugin", "account.js")) as { changedView: typeof ChangedView };

type Handler = (call: { request: unknown }, cb: (err: { details?: string } | null, res?: unknown) => void) => void;

const KEY = "native-account-key-5f2c";
const N = 250;
const seed = generateAccount({ numbers: N, seed: 7 });
const NUMBERS = seed.numbers!;
const digits = (i: number) => NUMBERS[i].number;
/** A number whose SMS is off in the seed, and 25 whose SMS is on. */
const off = NUMBERS.findIndex((n) => !n.sms_enabled);
const on = NUMBERS.map((n, i) => (n.sms_enabled ? i : -1)).filter((i) => i >= 0).slice(0, 25);

/** The file declaring every number's SMS setting as the account has it; `flip` indexes are turned the other way. */
function fileText(flip: number[] = []): string {
  const lines = ["version: 1", "numbers:"];
  NUMBERS.forEach((n, i) => lines.push(`  - number: "${n.number}"`, `    sms_enabled: ${flip.includes(i) ? !n.sms_enabled : n.sms_enabled}`));
  return `${lines.join("\n")}\n`;
}

let sim: Simulator;
let dir: string;
let handlers: Record<string, Handler>;
let warnings: string[];
const writes = (from = 0) => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const URN = "urn:pulumi:dev::p::wavix:index:Account::account";

function call<T>(method: string, req: unknown): Promise<T> {
  // The plugin's own service definition: the calls every instance serves read and written by hand (src/pulumi/plugin/fast-wire.ts, fast-answers.ts).
  const def = (fastService(stubs.service) as unknown as Record<string, { requestSerialize(r: unknown): Buffer; requestDeserialize(b: Buffer): unknown; responseSerialize(r: unknown): Buffer; responseDeserialize(b: Buffer): T }>)[method];
  const request = def.requestDeserialize(def.requestSerialize(req));
  return new Promise((resolve, reject) => handlers[method]({ request }, (err, res) => (err ? reject(new Error(err.details)) : resolve(def.responseDeserialize(def.responseSerialize(res))))));
}
const struct = (o: object) => stubs.Struct.fromJavaScript(o as never);

async function check(news: object, olds: object = {}): Promise<InstanceType<typeof pb.CheckResponse>> {
  const r = new pb.CheckRequest();
  r.setUrn(URN);
  r.setType("wavix:index:Account");
  r.setOlds(struct(olds));
  r.setNews(struct(news));
  return call("check", r);
}

async function checked(news: object): Promise<Record<string, unknown>> {
  const c = await check(news);
  expect(c.getFailuresList().map((f) => f.getReason())).toEqual([]);
  return c.getInputs()!.toJavaScript() as Record<string, unknown>;
}

function diffReq(news: object, oldInputs: object = news) {
  const r = new pb.DiffRequest();
  r.setUrn(URN);
  r.setType("wavix:index:Account");
  r.setId("1000");
  r.setOlds(struct({ digest: "x" }));
  r.setOldInputs(struct(oldInputs));
  r.setNews(struct(news));
  return r;
}

function updateReq(news: object) {
  const r = new pb.UpdateRequest();
  r.setUrn(URN);
  r.setType("wavix:index:Account");
  r.setId("1000");
  r.setOlds(struct({ digest: "x" }));
  r.setNews(struct(news));
  return r;
}

async function configure(extra: object = {}): Promise<void> {
  const c = new pb.ConfigureRequest();
  c.setArgs(struct({ apiKey: { [SIG_KEY]: SECRET_SIG, value: KEY }, baseUrl: sim.url, ...extra }));
  await call("configure", c);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }] });
  dir = mkdtempSync(path.join(tmpdir(), "wavix-account-"));
  warnings = [];
  handlers = new WavixProvider(stubs, { warn: (m) => warnings.push(m) }).handlers() as unknown as Record<string, Handler>;
  await configure();
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("wavix:index:Account", () => {
  it("Check reads the file and plans it: the inputs are the file, its digest and the new value of each changed property; a bad file is a failure at its line and column", async () => {
    const file = path.join(dir, "same.yaml");
    writeFileSync(file, fileText());
    const inputs = await checked({ file });
    // The account is as the file declares it: nothing else (not 250 entries).
    expect(inputs).toEqual({ file, fileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Old inputs of an earlier version (the whole declared state) are not carried over.
    const old = { file, fileSha256: inputs.fileSha256, numbers: { [digits(0)]: { smsEnabled: "from the old inputs" } } };
    expect((await check({ file }, old)).getInputs()!.toJavaScript()).toEqual(inputs);

    const one = path.join(dir, "one.yaml");
    writeFileSync(one, fileText([off]));
    const changed = await checked({ file: one, prune: false });
    expect(changed).toEqual({ file: one, prune: false, fileSha256: expect.stringMatching(/^[0-9a-f]{64}$/), numbers: { [digits(off)]: { smsEnabled: true } } });
    expect(changed.fileSha256).not.toBe(inputs.fileSha256);

    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, 'version: 1\nnumbers:\n  - number: "15550000001"\n    sms_enabled: yes please\n');
    const c = await check({ file: bad });
    expect(c.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["file", expect.stringMatching(/bad\.yaml:4:\d+: .*\(at numbers\[0\]\.sms_enabled\)$/)]]);

    const both = await check({ file, numbers: { [digits(0)]: { smsEnabled: true } } });
    expect(both.getFailuresList().map((f) => f.getReason())).toEqual([expect.stringContaining("give file or the inline numbers, not both")]);
  });

  it("what a plan changes, in the inputs' form: an object added whole, each changed property's new value (null when unset), a deletion by its path alone", () => {
    const state = {
      version: 1,
      numbers: [{ number: "15551230001", sms_enabled: true, call_recording_enabled: true }],
      sub_accounts: [{ name: "eu", status: "enabled", default_destinations: { sms_endpoint: "https://h.example/sms" } }, { name: "us", status: "enabled", default_destinations: { sms_endpoint: "https://h.example/us" } }],
      account_callbacks: { dlr_relay_url: "https://h.example/dlr" },
    };
    const desired = (require(path.join(ROOT, "dist", "config", "index.js")) as typeof import("../../src/config")).checkDesiredData(state, "t.yaml");
    if (!desired.ok) throw new Error(JSON.stringify(desired.problems));
    const d = (p: string, after: unknown) => ({ path: p, before: "x", after });
    const view = changedView(desired.state, [
      { kind: "number", key: "15551230001", action: "update", diff: [d("sms_enabled", true), d("sms_relay_url", null)] },
      { kind: "sub_account", key: "eu", action: "create", diff: [] },
      { kind: "sub_account", key: "us", action: "update", diff: [d("default_destinations.sms_endpoint", "https://h.example/us")] },
      { kind: "sub_account", key: "old", action: "delete", diff: [] },
      { kind: "account_callbacks", key: "account", action: "update", diff: [d("dlr_relay_url", "https://h.example/dlr")] },
    ] as never);
    expect(view).toEqual({
      numbers: { "15551230001": { smsEnabled: true, smsRelayUrl: null } },
      subAccounts: { eu: { status: "enabled", defaultDestinations: { smsEndpoint: "https://h.example/sms" } }, us: { defaultDestinations: { smsEndpoint: "https://h.example/us" } } },
      accountCallbacks: { dlrRelayUrl: "https://h.example/dlr" },
    });
    expect(changedView(desired.state, [])).toEqual({});
  });

  it("Diff is the CLI's plan: no change is DIFF_NONE, from listing pages (not a read per number), and writes nothing", async () => {
    const file = path.join(dir, "same.yaml");
    const mark = sim.log.length;
    const news = await checked({ file });
    const checkedAt = sim.log.length;
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(news));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    expect([...d.getDetaileddiffMap().keys()]).toEqual([]);
    // The Check read the account (250 numbers in pages of 100, and the profile: a handful of
    // requests, not 250); its Diff planned from those reads and sent nothing.
    expect(checkedAt - mark).toBeGreaterThan(0);
    expect(checkedAt - mark).toBeLessThanOrEqual(6);
    expect(sim.log.length).toBe(checkedAt);
    expect(writes(mark)).toEqual([]);
  });

  it("one edited number among 250 is that one property in the detailed diff; Update writes exactly it", async () => {
    const before = path.join(dir, "same.yaml");
    const file = path.join(dir, "one.yaml");
    writeFileSync(file, fileText([off]));
    const oldInputs = await checked({ file: before });
    const news = await checked({ file });
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(news, oldInputs));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    const detailed = d.getDetaileddiffMap();
    const path1 = `numbers["${digits(off)}"].smsEnabled`;
    expect([...detailed.keys()]).toEqual([path1]);
    expect(detailed.get(path1)!.getKind()).toBe(pb.PropertyDiff.Kind.UPDATE);
    expect(d.getReplacesList()).toEqual([]);

    const mark = sim.log.length;
    const u = await call<InstanceType<typeof pb.UpdateResponse>>("update", updateReq(news));
    expect(writes(mark)).toEqual([expect.stringMatching(new RegExp(`^PATCH /v1/numbers(/${NUMBERS[off].id})?$`))]);
    expect(sim.store.numbers.get(NUMBERS[off].id!)!.data.sms_enabled).toBe(true);
    const outs = u.getProperties()!.toJavaScript() as Record<string, unknown>;
    expect(outs).toMatchObject({ file, accountId: 1000, declared: { numbers: N }, lastApply: { update: 1, unchanged: N - 1 } });
    expect(outs.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(outs)).not.toContain(KEY);

    // Applied: the same file now plans nothing.
    const again = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(news));
    expect(again.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("past the blast radius (25 numbers' SMS disabled, the limit 20): the Diff and the Update refuse with zero writes, naming the limit and the override", async () => {
    const file = path.join(dir, "blast.yaml");
    writeFileSync(file, fileText([off, ...on]));
    const news = await checked({ file });
    const mark = sim.log.length;
    await expect(call("diff", diffReq(news))).rejects.toThrow(/nothing was written: 25 destructive changes in all pass wavix:maxDestructive 20.*wavix:force/);
    await expect(call("update", updateReq(news))).rejects.toThrow(/wavix:maxDestructive/);
    expect(writes(mark)).toEqual([]);
    expect(on.every((i) => sim.store.numbers.get(NUMBERS[i].id!)!.data.sms_enabled)).toBe(true);
  });

  it("inline maps are the inputs as given, and plan as the file does", async () => {
    // one.yaml's numbers, inline: the account as it is since the Update above.
    const numbers = Object.fromEntries(NUMBERS.map((n, i) => [n.number, { smsEnabled: i === off ? !n.sms_enabled : n.sms_enabled }]));
    const inline = await checked({ numbers });
    expect(inline).toEqual({ numbers });
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(inline));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    const d2 = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq({ numbers: { ...numbers, [digits(off)]: { smsEnabled: false } } }, inline));
    expect([...d2.getDetaileddiffMap().keys()]).toEqual([`numbers["${digits(off)}"].smsEnabled`]);
  });

  it("a Check of the file plans (GETs only): the Diff or the Create after it sends no request, the pair what a Diff alone sends; an inline Check reads nothing", async () => {
    const file = path.join(dir, "one.yaml"); // the account as it is since the Update above
    const inputs = await checked({ file });
    await call("diff", diffReq(inputs)); // takes the Check's plan
    // A Diff alone (no Check before it) reads the account itself.
    let mark = sim.log.length;
    await call("diff", diffReq(inputs));
    const alone = sim.log.slice(mark).map((e) => `${e.method} ${e.path}`);
    expect(alone.length).toBeGreaterThan(0);

    mark = sim.log.length;
    const c = await check({ file }, inputs);
    expect(c.getFailuresList()).toEqual([]);
    expect(sim.log.slice(mark).map((e) => `${e.method} ${e.path}`), "the Check's reads").toEqual(alone);
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(c.getInputs()!.toJavaScript() as object, inputs));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    expect(sim.log.length, "the Diff after it sends nothing more").toBe(mark + alone.length);
    // Taken once: a second Diff reads again.
    await call("diff", diffReq(inputs));
    expect(sim.log.length).toBe(mark + 2 * alone.length);

    // A create: its Check plans (the same reads), the Create applies that plan (nothing to write
    // here) without reading again.
    mark = sim.log.length;
    const created = await check({ file });
    expect(sim.log.slice(mark).map((e) => `${e.method} ${e.path}`), "a create's Check reads").toEqual(alone);
    const create = new pb.CreateRequest();
    create.setUrn(URN);
    create.setType("wavix:index:Account");
    create.setProperties(created.getInputs()!);
    const made = await call<InstanceType<typeof pb.CreateResponse>>("create", create);
    expect(made.getId()).toBe("1000");
    // The Create asks whose account the key is (the id), nothing else.
    expect(sim.log.slice(mark + alone.length).filter((e) => !/\/profile/.test(e.path))).toEqual([]);
    expect(writes(mark)).toEqual([]);

    // Inline maps are a value: their Check sends nothing.
    mark = sim.log.length;
    await check({ numbers: { [digits(0)]: { smsEnabled: NUMBERS[0].sms_enabled } } });
    expect(sim.log.length).toBe(mark);
  });

  it("an Update applies the plan of the file as its Check read it; planning afresh, a file changed since fails naming it, and writes nothing", async () => {
    const file = path.join(dir, "moving.yaml");
    writeFileSync(file, fileText([off])); // the account as it is since the Update above
    const news = await checked({ file });
    // Rewritten after the Check: one number's SMS turned off.
    writeFileSync(file, fileText([off, on[0]]));
    const mark = sim.log.length;
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(news));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    await call("update", updateReq(news)); // the Diff's plan: nothing to write
    expect(writes(mark)).toEqual([]);
    // No plan left to take: the Update reads the file, whose digest is not the Check's.
    await expect(call("update", updateReq(news))).rejects.toThrow(/moving\.yaml changed since this deployment checked it.*nothing was written/);
    expect(writes(mark)).toEqual([]);
    expect(sim.store.numbers.get(NUMBERS[on[0]].id!)!.data.sms_enabled).toBe(true);
  });

  it("the plan a Check made is for its inputs only: a Diff of other inputs plans those, reading for itself", async () => {
    const same = await checked({ file: path.join(dir, "same.yaml") });
    const one = await checked({ file: path.join(dir, "one.yaml") });
    await check({ file: path.join(dir, "same.yaml") }, same); // plans same.yaml
    const mark = sim.log.length;
    // one.yaml is the account as it is since the Update above; same.yaml is not.
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(one, same));
    expect(sim.log.length).toBeGreaterThan(mark);
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("Delete sends nothing and says the account is left as it is; import by the file's path reads, writes nothing", async () => {
    const mark = sim.log.length;
    warnings.length = 0;
    const del = new pb.DeleteRequest();
    del.setUrn(URN);
    del.setType("wavix:index:Account");
    del.setId("1000");
    del.setProperties(struct({ digest: "x" }));
    await call("delete", del);
    expect(sim.log.length).toBe(mark);
    expect(warnings).toEqual([expect.stringContaining("the account is left as it is")]);

    const file = path.join(dir, "one.yaml");
    const r = new pb.ReadRequest();
    r.setUrn("urn:pulumi:dev::p::wavix:index:Account::imported");
    r.setType("wavix:index:Account");
    r.setId(file);
    const got = await call<InstanceType<typeof pb.ReadResponse>>("read", r);
    expect(got.getId()).toBe("1000");
    expect(got.getInputs()!.toJavaScript()).toEqual({ file });
    expect(got.getProperties()!.toJavaScript()).toMatchObject({ file, accountId: 1000, declared: { numbers: N } });
    expect(writes(mark)).toEqual([]);

    const missing = new pb.ReadRequest();
    missing.setUrn("urn:pulumi:dev::p::wavix:index:Account::nope");
    missing.setType("wavix:index:Account");
    missing.setId("1000");
    await expect(call("read", missing)).rejects.toThrow(/the import id of an Account is the path of its desired-state file/);
  });
});

describe("wavix:index:Account carries every kind of the registry", () => {
  it("its schema has an inline input for each kind's part of the file, named in camelCase", () => {
    const inputs = Object.keys(accountSchema.resource.inputProperties ?? {});
    const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const kind of kindsInFileOrder()) expect(inputs, kind.file.key).toContain(camel(kind.file.key));
    // And nothing else besides the file's pin and limits: a Check tells the inline inputs apart by the schema's list alone.
    expect(inputs.filter((k) => k !== "file" && k !== "prune").sort()).toEqual(["accountId", ...kindsInFileOrder().map((k) => camel(k.file.key)), "safety"].sort());
  });
});
