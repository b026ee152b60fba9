/**
 * Edges of the native plugin a user met (issue #38 item 3), through the plugin's own gRPC handlers
 * (src/pulumi/plugin/server.ts) with the stubs `@pulumi/pulumi` ships — every request and answer
 * serialised to protobuf bytes and back, as the engine's would be — against the simulator:
 *  - `pulumi import` reads a resource with no state, then checks it with no old inputs as if a
 *    create followed (pulumi/pulumi pkg/resource/deploy/step_generator.go continueStepsFromImport):
 *    no "the create will adopt it" for what was imported (still said for a real first create);
 *  - an imported number's inputs (what the generated program says) name the transport (`sip`),
 *    the schema's enum, not its code; state keeps the code;
 *  - `--replace` of a trunk leaves a routed number's destinations unknown in the preview: no
 *    "removes its routing" (still said when the destinations are known to be emptied).
 * The real engine's own runs of these paths are in native-yaml.test.ts. Runs the built dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import path from "node:path";
import type { Stubs, WavixProvider as Provider } from "../../src/pulumi/plugin/server";
import { SECRET_SIG, SIG_KEY } from "../../src/pulumi/plugin/wire";
import { ROOT } from "../helpers/real-pulumi";

// The built plugin (dist/, which the global set-up builds): its lazy requires load compiled modules;
// the stubs as the plugin loads them.
const { WavixProvider } = require(path.join(ROOT, "dist", "pulumi", "plugin", "server.js")) as { WavixProvider: typeof Provider };

const stubs: Stubs = (require(path.join(ROOT, "dist", "pulumi", "plugin", "main.js")) as { loadStubs(): Stubs }).loadStubs();
const { fastService } = require(path.join(ROOT, "dist", "pulumi", "plugin", "service.js")) as typeof import("../../src/pulumi/plugin/service");
const pb = stubs.provider;
/** The engine's unknown value (pulumi/pulumi sdk/go/common/resource/plugin/rpc.go UnknownStringValue). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

type Handler = (call: { request: unknown }, cb: (err: { details?: string } | null, res?: unknown) => void) => void;

let sim: Simulator;
let warnings: Array<{ message: string; urn: string }>;
let handlers: Record<string, Handler>;

/** One call as the engine makes it: the request as bytes, decoded by the service's own deserializer. */
function call<T>(method: string, req: unknown): Promise<T> {
  // The plugin's own service definition: the calls every instance serves read and written by hand (src/pulumi/plugin/fast-wire.ts, fast-answers.ts).
  const def = (fastService(stubs.service) as unknown as Record<string, { requestSerialize(r: unknown): Buffer; requestDeserialize(b: Buffer): unknown; responseSerialize(r: unknown): Buffer; responseDeserialize(b: Buffer): T }>)[method];
  const request = def.requestDeserialize(def.requestSerialize(req));
  return new Promise((resolve, reject) =>
    handlers[method]({ request }, (err, res) => (err ? reject(new Error(err.details)) : resolve(def.responseDeserialize(def.responseSerialize(res))))),
  );
}

const struct = (o: object) => stubs.Struct.fromJavaScript(o as never);
const urnOf = (type: string, name: string) => `urn:pulumi:dev::p::wavix:index:${type}::${name}`;

/** `pulumi import`'s Read: an id and no state. */
function importReq(type: string, name: string, id: string) {
  const r = new pb.ReadRequest();
  r.setUrn(urnOf(type, name));
  r.setType(`wavix:index:${type}`);
  r.setId(id);
  return r;
}

function checkReq(type: string, name: string, news: object, olds: object = {}) {
  const r = new pb.CheckRequest();
  r.setUrn(urnOf(type, name));
  r.setType(`wavix:index:${type}`);
  r.setOlds(struct(olds));
  r.setNews(struct(news));
  return r;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  warnings = [];
  handlers = new WavixProvider(stubs, { warn: (message, urn) => warnings.push({ message, urn }) }).handlers() as unknown as Record<string, Handler>;
  const configure = new pb.ConfigureRequest();
  configure.setArgs(struct({ apiKey: { [SIG_KEY]: SECRET_SIG, value: "sim-demo-key" }, baseUrl: sim.url }));
  await call("configure", configure);
});

afterAll(async () => {
  await sim?.close();
});

describe("pulumi import", () => {
  it("says nothing of a create adopting what it imported; a real first create still hears it", async () => {
    const got = await call<InstanceType<typeof pb.ReadResponse>>("read", importReq("CallWebhook", "imported", "post-call"));
    const inputs = got.getInputs()!.toJavaScript();
    expect(inputs).toMatchObject({ eventType: "post-call" });
    warnings.length = 0;
    await call("check", checkReq("CallWebhook", "imported", inputs));
    expect(warnings.filter((w) => /adopt/.test(w.message))).toEqual([]);
    // The same declaration under a name not imported: its create will adopt the webhook, and says so.
    await call("check", checkReq("CallWebhook", "declared", inputs));
    expect(warnings.filter((w) => /the create will adopt it/.test(w.message)).map((w) => w.urn)).toEqual([urnOf("CallWebhook", "declared")]);
  });

  it("writes a destination's transport by its name in the inputs it hands the generated program; state keeps the code", async () => {
    const got = await call<InstanceType<typeof pb.ReadResponse>>("read", importReq("PhoneNumber", "main", "15551230001"));
    const inputs = got.getInputs()!.toJavaScript() as { destinations: Array<{ transport: unknown }> };
    const state = got.getProperties()!.toJavaScript() as { destinations: Array<{ transport: unknown }> };
    expect(inputs.destinations.map((d) => d.transport).sort()).toEqual(["pstn", "sip", "trunk"]);
    expect(state.destinations.map((d) => d.transport).sort()).toEqual([1, 4, 5]);
    // Checked again (as the import does, and as the pasted program is), the names become the state's codes: no diff.
    const checked = await call<InstanceType<typeof pb.CheckResponse>>("check", checkReq("PhoneNumber", "main", inputs, inputs));
    expect(checked.getFailuresList()).toEqual([]);
    const diff = new pb.DiffRequest();
    diff.setUrn(urnOf("PhoneNumber", "main"));
    diff.setType("wavix:index:PhoneNumber");
    diff.setId(got.getId());
    diff.setOlds(got.getProperties());
    diff.setOldInputs(got.getInputs());
    diff.setNews(checked.getInputs());
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diff);
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  });
});

describe("--replace of a trunk", () => {
  const olds = { number: "15551230001", wavixId: 4001, destinations: [{ destination: "acme-trunk", transport: 5, priority: 1, trunkId: 144 }] };

  function diffReq(news: object) {
    const r = new pb.DiffRequest();
    r.setUrn(urnOf("PhoneNumber", "routed"));
    r.setType("wavix:index:PhoneNumber");
    r.setId("4001");
    r.setOlds(struct(olds));
    r.setOldInputs(struct({ number: olds.number, destinations: olds.destinations }));
    r.setNews(struct(news));
    return r;
  }

  it("does not preview a routed number's update as removing its routing while the trunk's login and id are unknown", async () => {
    warnings.length = 0;
    const d = await call<InstanceType<typeof pb.DiffResponse>>("diff", diffReq({ number: olds.number, destinations: [{ destination: UNKNOWN, transport: 5, priority: 1, trunkId: UNKNOWN }] }));
    expect(d.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(warnings.map((w) => w.message).filter((m) => /routing/.test(m))).toEqual([]);
  });

  it("still warns when the destinations are known to be emptied", async () => {
    warnings.length = 0;
    await call("diff", diffReq({ number: olds.number, destinations: [] }));
    expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/this update removes its routing/));
  });
});
