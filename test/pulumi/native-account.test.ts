/**
 * `wavix:index:Account` (issue #38 item 2; docs/PULUMI.md, "One resource for a whole account")
 * through the plugin's own gRPC handlers (src/pulumi/plugin/server.ts) with the stubs
 * `@pulumi/pulumi` ships — every request and answer serialised to protobuf bytes and back, as the
 * engine's would be — against the simulator on a loopback port, its requests counted:
 *  - Check reads the file and gives the declared state as maps keyed by identity; a bad file is a
 *    failure worded FILE:LINE:COL;
 *  - Diff is the CLI's plan: listing pages, not a read per number; no change is DIFF_NONE; one
 *    edited number among 250 is that one property in the detailed diff;
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
import { kindsInFileOrder } from "../../src/kinds";

const { WavixProvider } = require(path.join(ROOT, "dist", "pulumi", "plugin", "server.js")) as { WavixProvider: typeof Provider };
const stubs: Stubs = (require(path.join(ROOT, "dist", "pulumi", "plugin", "main.js")) as { loadStubs(): Stubs }).loadStubs();
const { fastService } = require(path.join(ROOT, "dist", "pulumi", "plugin", "fast-wire.js")) as typeof import("../../src/pulumi/plugin/fast-wire");
const pb = stubs.provider;

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
  // The plugin's own service definition: Check and Diff read from their bytes (src/pulumi/plugin/fast-wire.ts).
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
  it("Check reads the file into maps keyed by identity; a bad file is a failure at its line and column", async () => {
    const file = path.join(dir, "same.yaml");
    writeFileSync(file, fileText());
    const inputs = await checked({ file });
    expect(inputs.file).toBe(file);
    const numbers = inputs.numbers as Record<string, { smsEnabled: boolean }>;
    expect(Object.keys(numbers)).toHaveLength(N);
    expect(numbers[digits(off)]).toEqual({ smsEnabled: false });

    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, 'version: 1\nnumbers:\n  - number: "15550000001"\n    sms_enabled: yes please\n');
    const c = await check({ file: bad });
    expect(c.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["file", expect.stringMatching(/bad\.yaml:4:\d+: .*\(at numbers\[0\]\.sms_enabled\)$/)]]);

    const both = await check({ file, numbers: { [digits(0)]: { smsEnabled: true } } });
    expect(both.getFailuresList().map((f) => f.getReason())).toEqual([expect.stringContaining("give file or the inline numbers, not both")]);
  });

  it("Check gives the last declared state again for an unchanged file (its SHA-256 in the inputs), and reads a changed one anew", async () => {
    const file = path.join(dir, "fast.yaml");
    writeFileSync(file, fileText());
    const first = await checked({ file });
    expect(first.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    // Old inputs marked so that a reading of the file would undo the mark: the same file keeps it.
    const marked = { ...first, numbers: { ...(first.numbers as object), [digits(0)]: { smsEnabled: "from the old inputs" } } };
    const again = (await check({ file }, marked)).getInputs()!.toJavaScript() as Record<string, Record<string, unknown>>;
    expect(again.numbers[digits(0)]).toEqual({ smsEnabled: "from the old inputs" });
    // What else the Check gives stands beside the old maps: a prune now asked, an old input no longer known.
    const pruned = (await check({ file, prune: true }, marked)).getInputs()!.toJavaScript() as Record<string, unknown>;
    expect(pruned).toEqual({ ...marked, prune: true });
    const stray = (await check({ file }, { ...marked, stray: 1 })).getInputs()!.toJavaScript() as Record<string, unknown>;
    expect(stray).toEqual(marked);
    writeFileSync(file, fileText([0]));
    const changed = (await check({ file }, marked)).getInputs()!.toJavaScript() as Record<string, Record<string, unknown>>;
    expect(changed.numbers[digits(0)]).toEqual({ smsEnabled: !NUMBERS[0].sms_enabled });
    expect(changed.fileSha256).not.toBe(first.fileSha256);
  });

  it("Diff is the CLI's plan: no change is DIFF_NONE, from listing pages (not a read per number), and writes nothing", async () => {
    const file = path.join(dir, "same.yaml");
    const news = await checked({ file });
    const mark = sim.log.length;
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(news));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    expect([...d.getDetaileddiffMap().keys()]).toEqual([]);
    const requests = sim.log.slice(mark);
    expect(writes(mark)).toEqual([]);
    // 250 numbers in pages of 100 (and the profile): a handful of requests, not 250.
    expect(requests.length).toBeLessThanOrEqual(6);
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

  it("inline maps plan as the file does", async () => {
    const fromFile = await checked({ file: path.join(dir, "one.yaml") });
    const inline = await checked({ numbers: fromFile.numbers });
    expect(inline.numbers).toEqual(fromFile.numbers);
    expect(inline.file).toBeUndefined();
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(inline));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("a Check of an existing resource starts the Diff's reads once answered: the Diff then sends none, the pair sends what a Diff alone does; a create's Check reads nothing", async () => {
    const settled = async () => {
      // The reads are done when the log stops growing (the simulator answers at once here).
      for (let n = -1; n !== sim.log.length; ) {
        n = sim.log.length;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    for (const mode of ["file", "inline"] as const) {
      // one.yaml: the account as it is since the Update above.
      const fromFile = await checked({ file: path.join(dir, "one.yaml") });
      const news = mode === "file" ? { file: path.join(dir, "one.yaml") } : { numbers: fromFile.numbers };
      const inputs = await checked(news); // no old inputs: a create follows, nothing read
      await settled();
      let mark = sim.log.length;
      await check(news);
      await settled();
      expect(sim.log.length, `${mode}: a create's Check`).toBe(mark);

      // A Diff alone (no Check before it) reads the account itself.
      await call("diff", diffReq(inputs));
      const alone = sim.log.slice(mark).map((e) => `${e.method} ${e.path}`);
      expect(alone.length).toBeGreaterThan(0);

      mark = sim.log.length;
      const c = await check(news, inputs);
      expect(c.getFailuresList()).toEqual([]);
      await settled();
      // Read once the Check was answered, before any Diff: the same requests as the Diff alone.
      expect(sim.log.slice(mark).map((e) => `${e.method} ${e.path}`), `${mode}: read ahead`).toEqual(alone);
      const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq(c.getInputs()!.toJavaScript() as object, inputs));
      expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
      expect(sim.log.length, `${mode}: the Diff after it sends nothing more`).toBe(mark + alone.length);

      // Taken once: a second Diff reads again.
      await call("diff", diffReq(inputs));
      expect(sim.log.length).toBe(mark + 2 * alone.length);
    }
  });

  it("the reads a Check started are for its inputs only: a Diff of other inputs reads for itself and plans those", async () => {
    const same = await checked({ file: path.join(dir, "same.yaml") });
    const one = await checked({ file: path.join(dir, "one.yaml") });
    await check({ file: path.join(dir, "same.yaml") }, same); // reads ahead for same.yaml
    await new Promise((r) => setTimeout(r, 200));
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
