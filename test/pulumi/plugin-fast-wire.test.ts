/**
 * The plugin's hand reading of Check and Diff (src/pulumi/plugin/fast-wire.ts) against the referee
 * it replaces: google-protobuf and the stubs `@pulumi/pulumi` ships. Whatever a Struct holds, read
 * from the bytes the stubs write it gives the values (and key order) google-protobuf's
 * `toJavaScript` gives; a request's fields read as the stubs read them (the answers, and the other
 * requests read by hand: test/pulumi/plugin-fast-answers.test.ts). And the spawned plugin answers a
 * Check and a Diff through it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RawStruct, readCheckRequest, readDiffRequest } from "../../src/pulumi/plugin/fast-wire";
import { loadStubs } from "../../src/pulumi/plugin/main";
import { SECRET_SIG, SIG_KEY } from "../../src/pulumi/plugin/wire";
import { spawnPlugin } from "../helpers/spawned-plugin";
import { structArbitraries } from "../helpers/struct-values";

const stubs = loadStubs();
const pb = stubs.provider;
const bytesOf = (o: object): Buffer => Buffer.from(stubs.Struct.fromJavaScript(o as never).serializeBinary());

const { struct } = structArbitraries();

describe("a Struct read from its bytes", () => {
  it("gives what google-protobuf's toJavaScript gives, keys in the same order", () => {
    fc.assert(
      fc.property(struct, (o) => {
        const bytes = bytesOf(o);
        const expected = stubs.Struct.deserializeBinary(bytes).toJavaScript();
        const got = new RawStruct(bytes).toJavaScript();
        expect(got).toEqual(expected);
        expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps secrets and the engine's unknowns as the values they are", () => {
    const o = { apiKey: { [SIG_KEY]: SECRET_SIG, value: "k" }, label: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", n: [1.5, -0, 1e300] };
    expect(new RawStruct(bytesOf(o)).toJavaScript()).toEqual(stubs.Struct.fromJavaScript(o as never).toJavaScript());
  });

  it("refuses bytes that are not a Struct, saying why", () => {
    expect(() => new RawStruct(Buffer.from([0x0a, 0x05, 0x0a])).toJavaScript()).toThrow(/truncated/);
  });
});

describe("Check and Diff requests read by hand", () => {
  it("give the fields the stubs give", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), struct, struct, struct, (urn, type, name, id, olds, news, oldInputs) => {
        const c = new pb.CheckRequest();
        c.setUrn(urn);
        c.setType(type);
        c.setName(name);
        c.setOlds(stubs.Struct.fromJavaScript(olds as never));
        c.setNews(stubs.Struct.fromJavaScript(news as never));
        c.setRandomseed(Buffer.alloc(32, 3));
        const rc = readCheckRequest(Buffer.from(c.serializeBinary()));
        const back = pb.CheckRequest.deserializeBinary(c.serializeBinary());
        expect([rc.getUrn(), rc.getType(), rc.getName()]).toEqual([back.getUrn(), back.getType(), back.getName()]);
        expect(rc.getOlds()?.toJavaScript()).toEqual(back.getOlds()?.toJavaScript());
        expect(rc.getNews()?.toJavaScript()).toEqual(back.getNews()?.toJavaScript());

        const d = new pb.DiffRequest();
        d.setId(id);
        d.setUrn(urn);
        d.setType(type);
        d.setName(name);
        d.setOlds(stubs.Struct.fromJavaScript(olds as never));
        d.setNews(stubs.Struct.fromJavaScript(news as never));
        d.setOldInputs(stubs.Struct.fromJavaScript(oldInputs as never));
        d.setIgnorechangesList(["a", "b"]);
        const rd = readDiffRequest(Buffer.from(d.serializeBinary()));
        expect([rd.getId(), rd.getUrn(), rd.getType(), rd.getName()]).toEqual([id, urn, type, name]);
        expect(rd.getOlds()?.toJavaScript()).toEqual(olds === undefined ? undefined : stubs.Struct.fromJavaScript(olds as never).toJavaScript());
        expect(rd.getNews()?.toJavaScript()).toEqual(stubs.Struct.fromJavaScript(news as never).toJavaScript());
        expect(rd.getOldInputs()?.toJavaScript()).toEqual(stubs.Struct.fromJavaScript(oldInputs as never).toJavaScript());
      }),
      { numRuns: 100 },
    );
  });

  it("leave a Struct the engine did not send unset, as the stubs do", () => {
    const d = new pb.DiffRequest();
    d.setId("1");
    const rd = readDiffRequest(Buffer.from(d.serializeBinary()));
    expect(rd.getOldInputs()).toBeUndefined();
    expect(rd.getOlds()).toBeUndefined();
  });
});

describe("the spawned plugin", () => {
  it("answers Check with the inputs as sent (a secret still wrapped) and Diff naming the changed property, through the hand-read requests", async () => {
    const plugin = await spawnPlugin();
    try {
      const rpc = plugin.call;
      try {
        const conf = new pb.ConfigureRequest();
        conf.setArgs(stubs.Struct.fromJavaScript({ apiKey: { [SIG_KEY]: SECRET_SIG, value: "test-key" }, baseUrl: "http://127.0.0.1:9" } as never));
        await rpc("configure", conf);
        const news = { number: "15550001111", smsEnabled: true, smsRelayUrl: { [SIG_KEY]: SECRET_SIG, value: "https://hooks.example.com/sms" } };
        const check = new pb.CheckRequest();
        check.setUrn("urn:pulumi:dev::p::wavix:index:PhoneNumber::n");
        check.setType("wavix:index:PhoneNumber");
        check.setNews(stubs.Struct.fromJavaScript(news as never));
        check.setOlds(stubs.Struct.fromJavaScript(news as never));
        const res = await rpc<InstanceType<typeof pb.CheckResponse>>("check", check);
        expect(res.getFailuresList()).toEqual([]);
        // The secret stays wrapped: the engine keeps it out of the state in clear.
        expect(res.getInputs()?.toJavaScript()).toEqual(news);
        const bad = new pb.CheckRequest();
        bad.setUrn("urn:pulumi:dev::p::wavix:index:PhoneNumber::bad");
        bad.setType("wavix:index:PhoneNumber");
        bad.setNews(stubs.Struct.fromJavaScript({ number: "not a number" } as never));
        const refused = await rpc<InstanceType<typeof pb.CheckResponse>>("check", bad);
        expect(refused.getFailuresList().length).toBeGreaterThan(0);
        const diff = new pb.DiffRequest();
        diff.setId("15550001111");
        diff.setUrn("urn:pulumi:dev::p::wavix:index:PhoneNumber::n");
        diff.setType("wavix:index:PhoneNumber");
        diff.setOlds(stubs.Struct.fromJavaScript({ number: "15550001111", smsEnabled: true } as never));
        diff.setOldInputs(stubs.Struct.fromJavaScript({ number: "15550001111", smsEnabled: true } as never));
        diff.setNews(stubs.Struct.fromJavaScript({ number: "15550001111", smsEnabled: false } as never));
        const changed = await rpc<InstanceType<typeof pb.DiffResponse>>("diff", diff);
        expect(changed.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
        expect(changed.getDiffsList()).toEqual(["smsEnabled"]);
      } finally {
        plugin.closeClient();
      }
    } finally {
      plugin.child.kill("SIGINT");
    }
  }, 30_000);
});
