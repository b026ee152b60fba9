/**
 * The plugin's calls served without google-protobuf (src/pulumi/plugin/fast-answers.ts writes the
 * answers, src/pulumi/plugin/fast-wire.ts reads the requests) against the referee they replace:
 * the stubs `@pulumi/pulumi` ships. Every answer is the very bytes the stubs write for the same
 * message, whatever it holds; every request reads as the stubs read it; and the spawned plugin
 * serves GetSchema (loading not even the provider), and a stack's no-change calls, without loading
 * google-protobuf at all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckFailureOut, CheckResponseOut, ConfigureResponseOut, DiffResponseOut, EmptyOut, PlainStruct, PluginInfoOut, PropertyDiffOut, SchemaResponseOut, structBytes } from "../../src/pulumi/plugin/fast-answers";
import { RawConfigureRequest, RawMessage, RawStruct } from "../../src/pulumi/plugin/fast-wire";
import { loadStubs } from "../../src/pulumi/plugin/main";
import { fastService, HAND_SERVED } from "../../src/pulumi/plugin/service";
import { ROOT } from "../helpers/real-pulumi";
import { spawnPlugin, type SpawnedPlugin } from "../helpers/spawned-plugin";
import { structArbitraries } from "../helpers/struct-values";

const stubs = loadStubs();
const pb = stubs.provider;
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/**
 * A Struct's key. Not `__proto__`: google-protobuf keeps a map's entries in a plain object, where
 * that key sets the prototype, and so drops the entry, where the hand-written Struct writes it (as
 * protobuf means it: the engine reads it as any other key).
 */
const key = fc.string({ unit: "binary" }).filter((k) => k !== "__proto__");
const { struct } = structArbitraries(key);
const text = fc.string({ unit: "binary" });

describe("a Struct written by hand", () => {
  it("is the bytes google-protobuf's Struct.fromJavaScript writes, keys sorted as it sorts them", () => {
    fc.assert(
      fc.property(struct, (o) => {
        expect(hex(structBytes(o))).toBe(hex(stubs.Struct.fromJavaScript(o as never).serializeBinary()));
        expect(new PlainStruct(o as never).toJavaScript()).toEqual(stubs.Struct.fromJavaScript(o as never).toJavaScript());
      }),
      { numRuns: 300 },
    );
  });

  it("writes a `__proto__` key google-protobuf drops", () => {
    const o = JSON.parse('{"__proto__": 1, "a": true}') as object;
    expect(hex(stubs.Struct.fromJavaScript(o as never).serializeBinary())).toBe(hex(structBytes({ a: true })));
    expect(structBytes(o).includes(Buffer.from("__proto__"))).toBe(true);
  });

  it("writes NaN as a double google-protobuf reads as NaN", () => {
    expect(stubs.Struct.deserializeBinary(structBytes({ n: Number.NaN })).toJavaScript()).toEqual({ n: Number.NaN });
  });

  it("refuses what google-protobuf refuses (undefined, a function), with its message", () => {
    for (const bad of [{ a: undefined }, { a: { b: () => 1 } }]) {
      expect(() => stubs.Struct.fromJavaScript(bad as never)).toThrow("Unexpected struct type.");
      expect(() => structBytes(bad)).toThrow("Unexpected struct type.");
    }
  });
});

describe("the answers written by hand", () => {
  it("CheckResponse: the stubs' bytes, whether the inputs are built here, kept as the request's bytes, or the stubs' own", () => {
    fc.assert(
      fc.property(fc.option(struct, { nil: undefined }), fc.array(fc.tuple(text, text), { maxLength: 3 }), (inputs, failures) => {
        const theirs = new pb.CheckResponse();
        if (inputs) theirs.setInputs(stubs.Struct.fromJavaScript(inputs as never));
        for (const [property, reason] of failures) {
          const f = new pb.CheckFailure();
          f.setProperty(property);
          f.setReason(reason);
          theirs.addFailures(f);
        }
        const expected = hex(theirs.serializeBinary());
        const given = inputs ? Buffer.from(stubs.Struct.fromJavaScript(inputs as never).serializeBinary()) : undefined;
        for (const holder of [inputs && new PlainStruct(inputs as never), given && new RawStruct(given), inputs && stubs.Struct.fromJavaScript(inputs as never)]) {
          const ours = new CheckResponseOut().setInputs(holder || undefined);
          for (const [property, reason] of failures) ours.addFailures(new CheckFailureOut(property, reason));
          expect(hex(ours.serializeBinary())).toBe(expected);
          expect(ours.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual(failures);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("DiffResponse: the stubs' bytes, the detailed diff's entries sorted as the stubs sort a map", () => {
    const paths = fc.array(text, { maxLength: 4 });
    const detailed = fc.dictionary(key, fc.tuple(fc.integer({ min: 0, max: 5 }), fc.boolean()), { maxKeys: 5 });
    fc.assert(
      fc.property(paths, paths, fc.boolean(), fc.integer({ min: 0, max: 2 }), paths, detailed, fc.boolean(), (replaces, stables, dbr, changes, diffs, det, has) => {
        const theirs = new pb.DiffResponse();
        theirs.setReplacesList(replaces);
        theirs.setStablesList(stables);
        theirs.setDeletebeforereplace(dbr);
        theirs.setChanges(changes as never);
        theirs.setDiffsList(diffs);
        theirs.setHasdetaileddiff(has);
        const ours = new DiffResponseOut().setReplacesList(replaces).setStablesList(stables).setDeletebeforereplace(dbr).setChanges(changes).setDiffsList(diffs).setHasdetaileddiff(has);
        for (const [k, [kind, inputDiff]] of Object.entries(det)) {
          const d = new pb.PropertyDiff();
          d.setKind(kind as never);
          d.setInputdiff(inputDiff);
          theirs.getDetaileddiffMap().set(k, d);
          ours.getDetaileddiffMap().set(k, new PropertyDiffOut(kind, inputDiff));
        }
        expect(hex(ours.serializeBinary())).toBe(hex(theirs.serializeBinary()));
      }),
      { numRuns: 300 },
    );
  });

  it("ConfigureResponse, PluginInfo, GetSchemaResponse and Empty: the stubs' bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), text, text, ([a, b, c, d, e], version, schema) => {
        const conf = new pb.ConfigureResponse();
        conf.setAcceptsecrets(a);
        conf.setSupportspreview(b);
        conf.setAcceptresources(c);
        conf.setAcceptoutputs(d);
        conf.setSupportsAutonamingConfiguration(e);
        expect(hex(new ConfigureResponseOut({ acceptSecrets: a, supportsPreview: b, acceptResources: c, acceptOutputs: d, supportsAutonamingConfiguration: e }).serializeBinary())).toBe(hex(conf.serializeBinary()));
        const info = new stubs.plugin.PluginInfo();
        info.setVersion(version);
        expect(hex(new PluginInfoOut(version).serializeBinary())).toBe(hex(info.serializeBinary()));
        const s = new pb.GetSchemaResponse();
        s.setSchema(schema);
        expect(hex(new SchemaResponseOut(schema).serializeBinary())).toBe(hex(s.serializeBinary()));
      }),
      { numRuns: 200 },
    );
    expect(hex(new EmptyOut().serializeBinary())).toBe(hex(new stubs.Empty().serializeBinary()));
  });

  it("serves each hand-written method with an answer the stubs read as that method's answer, reads the stubs' request, and refuses another answer", () => {
    type Def = {
      requestType: new () => { serializeBinary(): Uint8Array };
      responseType: new () => unknown;
      responseDeserialize(b: Buffer): { serializeBinary(): Uint8Array };
      responseSerialize(v: unknown): Buffer;
      requestDeserialize(b: Buffer): unknown;
    };
    const theirs = stubs.service as unknown as Record<string, Def>;
    const ours = fastService(theirs);
    // One answer of each method, with something in it where it can hold something.
    const answers: Record<string, { serializeBinary(): Uint8Array }> = {
      getPluginInfo: new PluginInfoOut("1.2.3"),
      getSchema: new SchemaResponseOut('{"name":"wavix"}'),
      checkConfig: new CheckResponseOut().setInputs(new PlainStruct({ baseUrl: "http://127.0.0.1:9" })).addFailures(new CheckFailureOut("apiKey", "missing")),
      diffConfig: new DiffResponseOut().setChanges(1),
      configure: new ConfigureResponseOut({ acceptSecrets: true, supportsPreview: true, acceptResources: false, acceptOutputs: false }),
      check: new CheckResponseOut().setInputs(new PlainStruct({ number: "15550001111" })),
      diff: (() => {
        const d = new DiffResponseOut().setChanges(2).setDiffsList(["smsEnabled"]).setHasdetaileddiff(true);
        d.getDetaileddiffMap().set("smsEnabled", new PropertyDiffOut(4, true));
        return d;
      })(),
      cancel: new EmptyOut(),
    };
    expect(Object.keys(answers).sort()).toEqual(Object.keys(HAND_SERVED).sort());
    for (const method of Object.keys(HAND_SERVED)) {
      const def = theirs[method];
      expect(def, method).toBeDefined();
      // The stubs' request (empty, as the engine may send it) reads without a refusal.
      expect(() => ours[method].requestDeserialize(Buffer.from(new def.requestType().serializeBinary())), method).not.toThrow();
      // Our answer's bytes read, with the stubs, as that method's answer, and write back the same.
      const bytes = ours[method].responseSerialize(answers[method]);
      const read = def.responseDeserialize(Buffer.from(bytes));
      expect(read, method).toBeInstanceOf(def.responseType);
      expect(hex(read.serializeBinary()), method).toBe(hex(bytes));
      // An answer of another method's class is refused, as the generated serializers refuse it.
      const other = method === "cancel" ? answers.getSchema : answers.cancel;
      expect(() => ours[method].responseSerialize(other), method).toThrow(/Expected argument of type/);
    }
  });
});

describe("the requests read by hand", () => {
  it("ConfigureRequest: the fields the stubs read", () => {
    fc.assert(
      fc.property(fc.dictionary(key, text, { maxKeys: 4 }), fc.option(struct, { nil: undefined }), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.array(text, { minLength: 4, maxLength: 4 }), (vars, args, flags, strings) => {
        const r = new pb.ConfigureRequest();
        for (const [k, v] of Object.entries(vars)) r.getVariablesMap().set(k, v);
        if (args) r.setArgs(stubs.Struct.fromJavaScript(args as never));
        r.setAcceptsecrets(flags[0]);
        r.setAcceptresources(flags[1]);
        r.setSendsOldInputs(flags[2]);
        r.setSendsOldInputsToDelete(flags[3]);
        r.setId(strings[0]);
        r.setUrn(strings[1]);
        r.setName(strings[2]);
        r.setType(strings[3]);
        const bytes = Buffer.from(r.serializeBinary());
        const back = pb.ConfigureRequest.deserializeBinary(bytes);
        const ours = RawConfigureRequest.read(bytes);
        expect(new Map(ours.getVariablesMap().entries())).toEqual(new Map(back.getVariablesMap().entries()));
        expect(ours.getArgs()?.toJavaScript()).toEqual(back.getArgs()?.toJavaScript());
        expect([ours.getAcceptsecrets(), ours.getAcceptresources(), ours.getSendsOldInputs(), ours.getSendsOldInputsToDelete()]).toEqual([back.getAcceptsecrets(), back.getAcceptresources(), back.getSendsOldInputs(), back.getSendsOldInputsToDelete()]);
        expect([ours.getId(), ours.getUrn(), ours.getName(), ours.getType()]).toEqual([back.getId(), back.getUrn(), back.getName(), back.getType()]);
      }),
      { numRuns: 200 },
    );
  });

  it("GetSchemaRequest (a negative version too) and Empty: the fields the stubs read; bytes that are no message refused", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), text, text, (version, name, v) => {
        const r = new pb.GetSchemaRequest();
        r.setVersion(version);
        r.setSubpackageName(name);
        r.setSubpackageVersion(v);
        const ours = RawMessage.read(Buffer.from(r.serializeBinary()), true);
        expect([ours.getVersion(), ours.getSubpackageName(), ours.getSubpackageVersion()]).toEqual([version, name, v]);
      }),
      { numRuns: 200 },
    );
    expect(() => RawMessage.read(Buffer.from(new stubs.Empty().serializeBinary()))).not.toThrow();
    expect(() => RawMessage.read(Buffer.from([0x0a, 0x05, 0x01]))).toThrow(/truncated/);
    expect(() => stubs.Empty.deserializeBinary(Buffer.from([0x0a, 0x05, 0x01]))).toThrow();
  });
});

describe("the spawned plugin", () => {
  /** The modules a plugin process loaded by the time the engine stopped it (a preload writes them at exit). */
  async function modulesAfter(drive: (call: <T>(method: string, req: unknown) => Promise<T>) => Promise<void>): Promise<string[]> {
    const dir = mkdtempSync(path.join(tmpdir(), "wavix-plugin-modules-"));
    const out = path.join(dir, "modules.json");
    const preload = path.join(dir, "preload.js");
    writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));\n`);
    let plugin: SpawnedPlugin | undefined;
    try {
      plugin = await spawnPlugin({ nodeArgs: ["--require", preload], cwd: dir });
      try {
        await drive(plugin.call);
      } finally {
        plugin.closeClient();
      }
      const { child } = plugin;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
      return (JSON.parse(readFileSync(out, "utf8")) as string[]).map((m) => m.split(path.sep).join("/"));
    } finally {
      plugin?.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const protobuf = (mods: string[]) => mods.filter((m) => /\/google-protobuf\/|\/@pulumi\/pulumi\/proto\//.test(m));

  it("answers the language host's GetPluginInfo and GetSchema without loading google-protobuf, or the provider", async () => {
    let schema = "";
    let version = "";
    const mods = await modulesAfter(async (call) => {
      version = (await call<{ getVersion(): string }>("getPluginInfo", new stubs.Empty())).getVersion();
      schema = (await call<{ getSchema(): string }>("getSchema", new pb.GetSchemaRequest())).getSchema();
    });
    expect(version).toBe((require(path.join(ROOT, "package.json")) as { version: string }).version);
    expect(JSON.parse(schema)).toMatchObject({ name: "wavix" });
    // The instance the language host starts for the schema alone loads no more (src/pulumi/plugin/main.ts).
    expect(mods.filter((m) => /\/dist\/(pulumi\/plugin\/server|kit|kinds|client|config)[./]/.test(m))).toEqual([]);
    expect(protobuf(mods)).toEqual([]);
  }, 30_000);

  it("serves a stack's no-change calls (CheckConfig, DiffConfig, Configure, Check, Diff, Cancel) without loading google-protobuf; a write loads it", async () => {
    const config = stubs.Struct.fromJavaScript({ baseUrl: "http://127.0.0.1:9" } as never);
    const inputs = stubs.Struct.fromJavaScript({ number: "15550001111", smsEnabled: true } as never);
    const urn = "urn:pulumi:dev::p::wavix:index:PhoneNumber::n";
    const noChange = async (call: <T>(method: string, req: unknown) => Promise<T>) => {
      const cc = new pb.CheckRequest();
      cc.setUrn("urn:pulumi:dev::p::pulumi:providers:wavix::default");
      cc.setNews(config);
      cc.setOlds(config);
      expect((await call<InstanceType<typeof pb.CheckResponse>>("checkConfig", cc)).getFailuresList()).toEqual([]);
      const dc = new pb.DiffRequest();
      dc.setOlds(config);
      dc.setNews(config);
      dc.setOldInputs(config);
      expect((await call<InstanceType<typeof pb.DiffResponse>>("diffConfig", dc)).getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
      const conf = new pb.ConfigureRequest();
      conf.setArgs(config);
      conf.getVariablesMap().set("wavix:config:baseUrl", "http://127.0.0.1:9");
      const configured = await call<InstanceType<typeof pb.ConfigureResponse>>("configure", conf);
      expect([configured.getAcceptsecrets(), configured.getSupportspreview()]).toEqual([true, true]);
      const check = new pb.CheckRequest();
      check.setUrn(urn);
      check.setType("wavix:index:PhoneNumber");
      check.setOlds(inputs);
      check.setNews(inputs);
      expect((await call<InstanceType<typeof pb.CheckResponse>>("check", check)).getInputs()?.toJavaScript()).toEqual(inputs.toJavaScript());
      const diff = new pb.DiffRequest();
      diff.setId("15550001111");
      diff.setUrn(urn);
      diff.setType("wavix:index:PhoneNumber");
      diff.setOlds(stubs.Struct.fromJavaScript({ number: "15550001111", smsEnabled: true, id: "15550001111" } as never));
      diff.setOldInputs(inputs);
      diff.setNews(inputs);
      expect((await call<InstanceType<typeof pb.DiffResponse>>("diff", diff)).getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
      await call("cancel", new stubs.Empty());
    };
    expect(protobuf(await modulesAfter(noChange))).toEqual([]);
    // A preview's Create (it sends nothing) answers with the stubs' CreateResponse: they load then.
    const withWrite = await modulesAfter(async (call) => {
      await noChange(call);
      const create = new pb.CreateRequest();
      create.setUrn("urn:pulumi:dev::p::wavix:index:PhoneNumber::m");
      create.setType("wavix:index:PhoneNumber");
      create.setProperties(inputs);
      create.setPreview(true);
      expect((await call<InstanceType<typeof pb.CreateResponse>>("create", create)).getProperties()?.toJavaScript()).toMatchObject({ number: "15550001111" });
    });
    expect(protobuf(withWrite).some((m) => m.endsWith("/proto/provider_pb.js"))).toBe(true);
  }, 30_000);
});
