// The Pulumi layer as `pulumi up` runs it (docs/CONTRACT.md part 6): each test drives the real
// Pulumi CLI (`npm run pulumi:cli`; test/helpers/real-pulumi.ts `RealStack`: `stack init`, `config
// set`, `up`, `preview`, `refresh`, `destroy` with a file backend) over several runs against the
// simulator, in throwaway projects laid out as users have them (test/helpers/pulumi-project.ts):
// the engine resolves `main` (pkg/engine/project.go getPwdMain), the language host runs the
// program with `@pulumi/pulumi/cmd/run`, the dynamic-provider plugin runs the state's provider text.
import { renameSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_SUB_ACCOUNT_KEYS, generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import { EngineError, RealStack, engineUnavailable, must, type OperationResult } from "../helpers/real-pulumi";
import { checkoutProject, consumerProject, type TempProject } from "../helpers/pulumi-project";
import { PROVIDER_KEY } from "../helpers/pulumi-host";

const KEY = "engine-test-master-key-41d7";
const MAX_PROVIDER_TEXT = 600;
const LONG = 180_000;

let sim: Simulator | undefined;
const projects: TempProject[] = [];

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  for (const p of projects.splice(0)) p.remove();
});

async function simulator(seed: NonNullable<Parameters<typeof startSimulator>[0]>["seed"] = "demo"): Promise<Simulator> {
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }] });
  return sim;
}

function track<T extends TempProject>(p: T): T {
  projects.push(p);
  return p;
}

/** A stack whose credentials come from stack config only (none in the environment). */
function stackOf(p: TempProject, s: Simulator, config: Record<string, string> = {}, env: Record<string, string | undefined> = {}): RealStack {
  return new RealStack({
    projectDir: p.dir,
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": s.url, ...config },
    secretKeys: ["wavix:apiKey"],
    env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, ...env },
  });
}

/** Requests since `from` that could change something, as `METHOD path`. */
function writesSince(s: Simulator, from: number): string[] {
  return s.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
}

const ops = (r: OperationResult): Record<string, string> => Object.fromEntries(r.steps.map((s) => [s.name, s.op]));

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: enabled
numbers:
  - number: "+15551230003"
    sms_enabled: true
    destinations:
      - { destination: sip.acme.example, transport: sip, priority: 1 }
call_webhooks:
  on-call: https://hooks.acme.example/on-call
`;

/**
 * FILE with a sub-account the demo account does not hold, so the stack creates it (and, since
 * Pulumi deletes only what it made, a destroy disables it). `subAccountNamed` finds it afterwards.
 */
const STACK_MADE = "Acme Layout";
const FILE_MADE = FILE.replace("name: Acme Support", `name: ${STACK_MADE}`);
function subAccountNamed(s: Simulator, name: string) {
  const found = [...s.store.subAccounts.values()].filter((a) => a.data.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const unavailable = engineUnavailable();

describe.skipIf(unavailable)("the root Pulumi.yaml", () => {
  it("applies wavix.yaml of the project root although the program runs in dist/pulumi, then stays quiet", async () => {
    const s = await simulator();
    const p = track(checkoutProject({ "wavix.yaml": FILE }));
    const stack = stackOf(p, s);

    const first = await must(stack.up());
    expect(ops(first)).toEqual({
      "wavix-sync-dev": "create",
      "sub-account:Acme Support": "create",
      "number:15551230003": "create",
      "call-webhook:on-call": "create",
    });
    expect(s.store.numbers.get(4003)!.data.sms_enabled).toBe(true);
    expect(first.outputs.numberIds).toEqual({ "15551230003": 4003 });
    expect(first.outputs.subAccountIds).toEqual({ "Acme Support": 2001 });
    expect(first.secretOutputs).toContain("subAccountApiKeys");

    // No change: every step `same`, not one request that writes.
    const mark = s.log.length;
    const second = await must(stack.up());
    expect(new Set(Object.values(ops(second)))).toEqual(new Set(["same"]));
    expect(writesSince(s, mark)).toEqual([]);

    // State: no key in clear, a small provider text, stored inputs normalised.
    const text = stack.checkpointText();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(DEMO_SUB_ACCOUNT_KEYS.acmeSupport);
    expect(text).not.toContain(p.dir);
    for (const r of stack.state().filter((x) => x.custom)) {
      expect(String(r.inputs[PROVIDER_KEY]).length).toBeLessThanOrEqual(MAX_PROVIDER_TEXT);
    }
    expect(stack.resource("number:15551230003")!.inputs.number).toBe("15551230003");
  }, LONG);

  it("applies the file named by `pulumi config set configFile`, relative to the project root", async () => {
    const s = await simulator();
    const prod = 'version: 1\nnumbers:\n  - number: "15551230004"\n    call_recording_enabled: true\naudit:\n  ten_dlc:\n    brands: [B6AI7PA]\n';
    const p = track(checkoutProject({ "conf/prod.yaml": prod }));
    const stack = stackOf(p, s, { configFile: "conf/prod.yaml" });
    const r = await must(stack.up());
    expect(ops(r)["number:15551230004"]).toBe("create");
    expect(s.store.numbers.get(4004)!.data.call_recording_enabled).toBe(true);
    // The audit section's data source ran in the program with the stack's credentials.
    expect(r.outputs.audit).toMatchObject({ tenDlc: { brands: [{ brandId: "B6AI7PA" }] } });
  }, LONG);

  it("previews without writing anything or keeping any state", async () => {
    const s = await simulator();
    const p = track(checkoutProject({ "wavix.yaml": FILE }));
    const stack = stackOf(p, s);
    const r = await must(stack.preview());
    expect(ops(r)["number:15551230003"]).toBe("create");
    expect(writesSince(s, 0)).toEqual([]);
    expect(stack.state()).toEqual([]);
  }, LONG);

  it("with `wavix:accountId` of another account, up stops naming both ids: one GET /v1/profile a provider process, nothing written", async () => {
    const s = await simulator();
    const p = track(checkoutProject({ "wavix.yaml": FILE }));
    const master = s.store.masterId;
    const err = await stackOf(p, s, { "wavix:accountId": String(master + 1) }).up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err!.message).toContain(`the API key belongs to account ${master}, but wavix:accountId pins account ${master + 1}`);
    expect(writesSince(s, 0)).toEqual([]);
    expect(new Set(s.log.map((e) => `${e.method} ${e.path}`))).toEqual(new Set(["GET /v1/profile"]));
  }, LONG);

  it("names `wavix:apiKey` when no key is set", async () => {
    const s = await simulator();
    const p = track(checkoutProject({ "wavix.yaml": FILE }));
    const stack = new RealStack({ projectDir: p.dir, config: { "wavix:baseUrl": s.url }, env: { WAVIX_API_KEY: undefined } });
    const err = await stack.up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err!.message).toContain("wavix:apiKey");
  }, LONG);
});

describe.skipIf(unavailable)("a sub-account pinned with id:", () => {
  it("renamed in the file, is renamed in place and stays enabled; a refresh keeps the pin", async () => {
    const s = await simulator();
    const p = track(checkoutProject({ "wavix.yaml": "version: 1\nsub_accounts:\n  - name: Acme Support\n    id: 2001\n    status: enabled\n" }));
    const stack = stackOf(p, s);
    expect(ops(await must(stack.up()))["sub-account:id:2001"]).toBe("create");

    p.write("wavix.yaml", "version: 1\nsub_accounts:\n  - name: Acme Help Desk\n    id: 2001\n    status: enabled\n");
    expect(ops(await must(stack.preview()))).toMatchObject({ "sub-account:id:2001": "update" });
    const mark = s.log.length;
    const r = await must(stack.up());
    expect(r.steps.filter((x) => x.name.startsWith("sub-account")).map((x) => x.op)).toEqual(["update"]);
    expect(writesSince(s, mark)).toEqual(["PUT /v1/sub-organizations/2001"]);
    expect(s.store.subAccounts.get(2001)!.data).toMatchObject({ name: "Acme Help Desk", status: "enabled" });

    // read keeps the pin in the inputs it returns; the next up has nothing to do.
    const refreshed = await must(stack.refresh());
    expect(refreshed.steps.find((x) => x.name === "sub-account:id:2001")!.op).toBe("refresh");
    expect(stack.resource("sub-account:id:2001")!.inputs.subAccountId).toBe(2001);
    const again = s.log.length;
    expect(ops(await must(stack.up()))["sub-account:id:2001"]).toBe("same");
    expect(writesSince(s, again)).toEqual([]);
  }, LONG);

  it("state written when pinned sub-accounts were named by name is taken over (alias), not disabled", async () => {
    const s = await simulator();
    const p = track(
      consumerProject(path.resolve(__dirname, "..", ".."), {
        "Pulumi.yaml": "name: legacy\nruntime: nodejs\nmain: index.js\n",
        "index.js": `const { SubAccount } = require("wavix-sync/pulumi");\nnew SubAccount("sub-account:Acme Support", { name: "Acme Support", subAccountId: 2001 });\n`,
      }),
    );
    const stack = stackOf(p, s);
    await must(stack.up());
    p.write("index.js", `const { declareResources } = require("wavix-sync/pulumi");\ndeclareResources({ version: 1, sub_accounts: [{ name: "Acme Support", id: 2001, path: "sub_accounts[0]" }] });\n`);
    const mark = s.log.length;
    const r = await must(stack.up());
    expect(ops(r)).toMatchObject({ "sub-account:id:2001": "same" });
    expect(r.steps.some((x) => x.op === "delete")).toBe(false);
    expect(writesSince(s, mark)).toEqual([]);
    expect(s.store.subAccounts.get(2001)!.data.status).toBe("enabled");
  }, LONG);
});

describe.skipIf(unavailable)("state written before a change of main or build layout", () => {
  it("still refreshes, updates and deletes after dist/ moves to build/ and main follows", async () => {
    const s = await simulator();
    // The sub-account is one the stack creates (an adopted one would be left by the destroy).
    const p = track(checkoutProject({ "wavix.yaml": FILE_MADE }));
    const stack = stackOf(p, s);
    await must(stack.up());
    expect(subAccountNamed(s, STACK_MADE).data.status).toBe("enabled");

    // The build now lands in build/: exports, main and Pulumi.yaml follow; dist/ is gone.
    renameSync(path.join(p.dir, "dist"), path.join(p.dir, "build"));
    for (const f of ["package.json", "Pulumi.yaml"]) writeFileSync(path.join(p.dir, f), readFileSync(path.join(p.dir, f), "utf8").replaceAll("dist/", "build/"));

    const refreshed = await must(stack.refresh());
    expect(refreshed.steps.every((x) => x.op === "refresh")).toBe(true);

    // The webhook leaves the file: deleted at the end, by the provider text of its state.
    p.write("wavix.yaml", FILE_MADE.replace(/call_webhooks:\n.*\n/, ""));
    const mark = s.log.length;
    const r = await must(stack.up());
    expect(ops(r)["call-webhook:on-call"]).toBe("delete");
    expect(writesSince(s, mark)).toEqual(["DELETE /v1/calls/webhooks"]);

    // destroy: the sub-account it made is disabled (no delete in the API), the number kept (retain).
    const d = await must(stack.destroy());
    expect(d.steps.map((x) => x.op)).toContain("delete");
    expect(stack.state()).toEqual([]);
    expect(subAccountNamed(s, STACK_MADE).data.status).toBe("disabled");
    expect(s.store.numbers.has(4003)).toBe(true);
  }, LONG);

  it("state written with the version-1 provider text moves to version 2 without a step or a write, and still deletes", async () => {
    const s = await simulator();
    const root = path.resolve(__dirname, "..", "..");
    const v1Text = (kind: string) => readFileSync(path.join(root, "test", "fixtures", "pulumi-shim-v1", `${kind}.js`), "utf8");
    const v2Text = (kind: string) => readFileSync(path.join(root, "test", "fixtures", "pulumi-shim-v2", `${kind}.js`), "utf8");
    // What wavix-sync declared before version 2: pulumi.dynamic.Resource serializing the shim.
    const before = `const pulumi = require("@pulumi/pulumi");
const { shimFor } = require("wavix-sync/pulumi");
new pulumi.dynamic.Resource(shimFor("PhoneNumber"), "line", { number: "15551230003", smsEnabled: true, wavixId: undefined }, {}, "wavix", "PhoneNumber");
new pulumi.dynamic.Resource(shimFor("CallWebhook"), "hook", { eventType: "on-call", url: "https://h.example/1" }, {}, "wavix", "CallWebhook");
`;
    const after = (withHook: boolean) => `const { CallWebhook, PhoneNumber } = require("wavix-sync/pulumi");
new PhoneNumber("line", { number: "15551230003", smsEnabled: true });
${withHook ? 'new CallWebhook("hook", { eventType: "on-call", url: "https://h.example/1" });' : ""}
`;
    const p = track(consumerProject(root, { "Pulumi.yaml": "name: upgrade\nruntime: nodejs\nmain: index.js\n", "index.js": before }));
    const stack = stackOf(p, s);
    await must(stack.up());
    expect(stack.resource("line")!.inputs[PROVIDER_KEY]).toBe(v1Text("PhoneNumber"));

    p.write("index.js", after(true));
    const mark = s.log.length;
    const r = await must(stack.up());
    expect(ops(r)).toMatchObject({ line: "same", hook: "same" });
    expect(writesSince(s, mark)).toEqual([]);
    // The new inputs hold version 2; the outputs keep the text they were written with until an update.
    expect(stack.resource("line")!.inputs[PROVIDER_KEY]).toBe(v2Text("PhoneNumber"));

    // Refresh and delete run the state's texts (version 1 outputs) in the host: both still load.
    expect((await must(stack.refresh())).steps.every((x) => x.op === "refresh")).toBe(true);
    p.write("index.js", after(false));
    const del = s.log.length;
    expect(ops(await must(stack.up())).hook).toBe("delete");
    expect(writesSince(s, del)).toEqual(["DELETE /v1/calls/webhooks"]);
  }, LONG);

  it("the root program sends the engine no per-registration debug message; a program of one's own still does", async () => {
    const s = await simulator();
    const root = track(checkoutProject({ "wavix.yaml": FILE }));
    const pkg = track(checkoutProject());
    const own = track(
      consumerProject(pkg.dir, {
        "Pulumi.yaml": "name: infra\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
        "index.js": `module.exports = require("wavix-sync/pulumi").runProgram();\n`,
        "wavix.yaml": FILE,
      }),
    );
    // The three messages, per our resource (the file declares three): counted in `preview --debug`,
    // which shows the program's debug messages (src/pulumi/registration-logs.ts).
    const messages = [/Registering resource: t=pulumi-nodejs:dynamic\/wavix:/g, /RegisterResource RPC prepared: t=pulumi-nodejs:dynamic\/wavix:/g, /RegisterResource RPC finished: resource:[^\s]+\[pulumi-nodejs:dynamic\/wavix:/g];
    const registrations = async (p: TempProject): Promise<number[]> => {
      const stack = stackOf(p, s);
      await stack.init();
      const r = await stack.cli(["preview", "--debug"]);
      expect(r.code, r.stderr).toBe(0);
      return messages.map((m) => (r.stdout.match(m) ?? []).length);
    };
    for (const count of await registrations(own)) expect(count).toBeGreaterThanOrEqual(3);
    expect(await registrations(root)).toEqual([0, 0, 0]);
  }, LONG);

  it("works from a project that installed wavix-sync, whatever folder main names", async () => {
    const s = await simulator();
    const pkg = track(checkoutProject());
    const program = `module.exports = require("wavix-sync/pulumi").runProgram();\n`;
    const p = track(
      consumerProject(pkg.dir, {
        "Pulumi.yaml": "name: infra\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: deploy/index.js\n",
        "deploy/index.js": program,
        // A sub-account the stack creates, so the destroy disables it (an adopted one is left).
        "wavix.yaml": FILE_MADE,
      }),
    );
    const stack = stackOf(p, s);
    await must(stack.up());
    expect(subAccountNamed(s, STACK_MADE).data.status).toBe("enabled");

    // main moves to the project root: the host now starts there; old state still loads.
    p.write("Pulumi.yaml", "name: infra\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n");
    p.write("index.js", program);
    expect((await must(stack.refresh())).steps.every((x) => x.op === "refresh")).toBe(true);
    await must(stack.destroy());
    expect(subAccountNamed(s, STACK_MADE).data.status).toBe("disabled");
  }, LONG);
});

/** A consumer program: a sub-account and one of its numbers, the pin coming from config. */
function tenantProject(): TempProject {
  return track(
    consumerProject(path.resolve(__dirname, "..", ".."), {
      "Pulumi.yaml": "name: tenant\nruntime: nodejs\nmain: index.js\n",
      "index.js": `
const pulumi = require("@pulumi/pulumi");
const { PhoneNumber, SubAccount } = require("wavix-sync/pulumi");
const config = new pulumi.Config();
const tenant = new SubAccount("tenant", { name: "Acme Support", status: config.get("status") || "enabled" });
const line = new PhoneNumber("line", {
  number: "+15551230007",
  subAccountId: config.get("sub") ? Number(config.get("sub")) : tenant.subAccountId,
  smsEnabled: true,
  destinations: [{ destination: "sip.acme.example", transport: "sip", priority: 1 }],
  onDelete: "release",
});
// Declared outputs are defined even when their inputs are omitted.
const bare = new PhoneNumber("bare", { number: "15551230003" });
exports.bareCallStatusUrl = bare.callStatusUrl.apply((v) => v ?? null);
exports.bareSubAccountId = bare.subAccountId.apply((v) => v ?? null);
exports.lineId = line.wavixId;
`,
    }),
  );
}

describe.skipIf(unavailable)("numbers of sub-accounts", () => {
  it("the file's sub_account: on a number: declareResources manages it with that sub-account's key", async () => {
    const s = await simulator();
    const p = track(
      checkoutProject({
        "wavix.yaml": `version: 1
sub_accounts:
  - name: Acme Support
numbers:
  - number: "15551230007"
    sub_account: Acme Support
    sms_enabled: true
`,
      }),
    );
    const stack = stackOf(p, s);
    const first = await must(stack.up());
    expect(ops(first)).toMatchObject({ "sub-account:Acme Support": "create", "number:15551230007": "create" });
    expect(s.store.numbers.get(4007)!.data.sms_enabled).toBe(true);
    expect(s.store.numbers.get(4007)!.organization).toBe(2001);
    expect(stack.resource("number:15551230007")!.outputs.subAccountId).toBe(2001);
    expect(stack.checkpointText()).not.toContain(DEMO_SUB_ACCOUNT_KEYS.acmeSupport);
    const mark = s.log.length;
    const second = await must(stack.up());
    expect(new Set(Object.values(ops(second)))).toEqual(new Set(["same"]));
    expect(writesSince(s, mark)).toEqual([]);
  }, LONG);

  // One stack for both: the first `up` is where each starts, not what either tests.
  it("preview with unknown inputs shows updates, not replaces (check normalises what is known); moving a number to another sub-account then updates it and never releases it", async () => {
    const s = await simulator();
    const p = tenantProject();
    const stack = stackOf(p, s);
    const first = await must(stack.up());
    expect(first.outputs).toMatchObject({ lineId: 4007, bareCallStatusUrl: null, bareSubAccountId: null });
    expect(stack.resource("line")!.inputs.number).toBe("15551230007");
    expect(stack.resource("line")!.outputs.subAccountId).toBe(2001);

    // The sub-account changes, so its subAccountId is unknown during preview.
    stack.setConfig("status", "disabled");
    const r = await must(stack.preview());
    expect(ops(r)).toMatchObject({ tenant: "update", line: "update", bare: "same" });
    expect(r.steps.some((x) => x.op === "replace")).toBe(false);
    stack.setConfig("status", "enabled");

    // The number is moved to Legacy Team (2002) in Wavix; the program follows.
    s.store.numbers.get(4007)!.organization = 2002;
    s.store.numberIdsByOrg.set(2001, s.store.numberIdsOf(2001).filter((id) => id !== 4007));
    s.store.numberIdsOf(2002).push(4007);
    stack.setConfig("sub", "2002");
    expect(ops(await must(stack.preview())).line).toBe("update");
    const mark = s.log.length;
    const moved = await must(stack.up());
    expect(ops(moved).line).toBe("update");
    expect(writesSince(s, mark).filter((w) => w.startsWith("DELETE"))).toEqual([]);
    expect(s.store.numbers.has(4007)).toBe(true);
    expect(stack.resource("line")!.outputs.subAccountId).toBe(2002);
  }, LONG);
});

describe.skipIf(unavailable)("engine rules the providers rely on", () => {
  it("protect blocks a delete, retainOnDelete skips the provider, a replace creates before it deletes", async () => {
    const s = await simulator();
    const program = (hooks: string) => `
const { CallWebhook, SubAccount } = require("wavix-sync/pulumi");
${hooks}
`;
    const p = track(
      consumerProject(path.resolve(__dirname, "..", ".."), {
        "Pulumi.yaml": "name: rules\nruntime: nodejs\nmain: index.js\n",
        "index.js": program(`
new CallWebhook("hook", { eventType: "on-call", url: "https://h.example/1" });
new SubAccount("guarded", { name: "Acme Support" }, { protect: true });
new SubAccount("kept", { name: "Legacy Team" }, { retainOnDelete: true });`),
      }),
    );
    const stack = stackOf(p, s);
    await must(stack.up());

    // hook: new event type = replace, create-before-delete: POST (new) before DELETE (old).
    p.write("index.js", program(`
new CallWebhook("hook", { eventType: "post-call", url: "https://h.example/1" });
new SubAccount("guarded", { name: "Acme Support", status: "enabled" }, { protect: true });`));
    const mark = s.log.length;
    const r = await stack.up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    // `kept` leaves state without a PUT (retainOnDelete).
    expect(r).toBeUndefined();
    expect(stack.resource("kept")).toBeUndefined();
    const writes = writesSince(s, mark);
    expect(writes.indexOf("POST /v1/calls/webhooks")).toBeLessThan(writes.indexOf("DELETE /v1/calls/webhooks"));
    expect(s.store.subAccounts.get(2002)!.data.status).toBe("enabled");

    // A protected resource leaving the program stops the update; it stays in state and account.
    p.write("index.js", program(`new CallWebhook("hook", { eventType: "post-call", url: "https://h.example/1" });`));
    const failed = await stack.up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(failed?.message).toMatch(/cannot be deleted\s+because it is protected/);
    expect(stack.resource("guarded")).toBeDefined();
    expect(s.store.subAccounts.get(2001)!.data.status).toBe("enabled");
  }, LONG);

  it("reports the providers' contract-drift notices as Pulumi warnings", async () => {
    // This simulator answers outside the contract on purpose: its answers are not checked against
    // the response schemas (the suite's contract check would rightly count them).
    const s = (sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }], checkResponses: false }));
    const p = track(checkoutProject({ "wavix.yaml": 'version: 1\nnumbers:\n  - number: "15551230004"\n    sms_enabled: true\n' }));
    // The API starts answering a field in a shape the contract does not allow.
    (s.store.numbers.get(4004)!.data as unknown as Record<string, unknown>).call_recording_enabled = "sometimes";
    // Drift notes are quiet unless WAVIX_SYNC_VERBOSE=1 is in the environment of the engine/provider.
    const r = await must(stackOf(p, s, {}, { WAVIX_SYNC_VERBOSE: "1" }).up());
    const warnings = r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message);
    expect(warnings.some((w) => /drift/.test(w) && /call_recording_enabled/.test(w))).toBe(true);
  }, LONG);

  it("reports check failures with the camelCase property name", async () => {
    const s = await simulator();
    const p = track(
      consumerProject(path.resolve(__dirname, "..", ".."), {
        "Pulumi.yaml": "name: bad\nruntime: nodejs\nmain: index.js\n",
        "index.js": `const { SubAccount } = require("wavix-sync/pulumi");\nnew SubAccount("x", { name: "X", subAccountId: -5, defaultDestinations: { smsEndpoint: "ftp://x" } });\n`,
      }),
    );
    const err = await stackOf(p, s).up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    // The engine words a check failure as `property <name> value {…} has a problem: <reason>`.
    expect(err?.message).toMatch(/property subAccountId value .* has a problem: subAccountId must be at least 1/);
    expect(err?.message).toMatch(/property defaultDestinations\.smsEndpoint value .* has a problem: expected an http\(s\) URL/);
    expect(err?.message).not.toMatch(/\bid: |sms_endpoint/);
  }, LONG);
});

describe.skipIf(unavailable)("checkpoint size", () => {
  it("holds at most 1 KB per adopted number (a 140-character provider text, no stack traces)", async () => {
    const n = 200;
    const seed = generateAccount({ numbers: n, subAccounts: 0 });
    const s = await simulator(seed);
    const numbers = (seed.numbers ?? []).map((x) => `  - number: "${x.number}"\n    sms_enabled: ${x.sms_enabled === true}\n`).join("");
    const p = track(checkoutProject({ "wavix.yaml": `version: 1\nnumbers:\n${numbers}` }));
    // Made by `pulumi stack init` with a passphrase, as a user's file-backend stack is: the
    // checkpoint then holds the passphrase provider's state, not the longer one of the Vault
    // stand-in the other tests use (test/helpers/real-pulumi.ts), so the figure is a user's.
    // PULUMI_SKIP_CHECKPOINTS: the engine writes the checkpoint once, at the end, not after each of
    // the 200 steps (a rewrite of the growing file each time); the one measured is that last one.
    const stack = new RealStack({ projectDir: p.dir, config: { "wavix:apiKey": KEY, "wavix:baseUrl": s.url }, secretKeys: ["wavix:apiKey"], env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, PULUMI_SKIP_CHECKPOINTS: "true" }, cliSetup: true });
    await must(stack.up());
    const text = stack.checkpointText();
    const bytes = Buffer.byteLength(text);
    if (process.env.DUMP_CHECKPOINT) writeFileSync(process.env.DUMP_CHECKPOINT, text);
    const parsed = JSON.parse(text) as { checkpoint: { latest: { resources: Array<Record<string, unknown>> } } };
    const resources = parsed.checkpoint.latest.resources;
    const ours = resources.filter((r) => String(r.type).includes(":dynamic/wavix:"));
    expect(ours).toHaveLength(n);
    // What a number costs: the whole checkpoint less its fixed part (manifest, secrets provider,
    // the stack's and the default provider's records, the stack's outputs without the numbers'
    // entries), which does not grow with the file. The fixed part is measured by writing the
    // checkpoint again without the numbers (it holds no character Go's encoder escapes). The
    // engine writes the checkpoint compact; each number's record carries the provider text twice
    // (inputs and outputs), its provider's URN, two timestamps to the nanosecond (Go drops their
    // trailing zeros, so the size moves by a few bytes from run to run) and its entry in the
    // stack's `numberIds`.
    const fixedPart = structuredClone(parsed);
    fixedPart.checkpoint.latest.resources = resources.filter((r) => !ours.includes(r)).map((r) => (r.type === "pulumi:pulumi:Stack" ? { ...r, outputs: { ...(r.outputs as object), numberIds: {} } } : r));
    const fixed = Buffer.byteLength(JSON.stringify(fixedPart));
    const perNumber = (bytes - fixed) / n;
    process.stdout.write(`checkpoint: ${bytes} bytes for ${n} numbers, ${fixed} of them fixed (${Math.round(perNumber)} B a number; ~${((perNumber * 10_000 + fixed) / 1e6).toFixed(1)} MB for 10,000)\n`);
    expect(fixed).toBeGreaterThan(0);
    expect(perNumber).toBeLessThanOrEqual(1024);
    // No call stack stored for our resources (the stack resource itself is the runner's).
    expect(ours.filter((r) => "stackTrace" in r || "sourcePosition" in r)).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable)("examples/pulumi", () => {
  it("runs as `pulumi up` runs it (TypeScript through the runner), twice, the second time quietly", async () => {
    const s = await simulator();
    const root = path.resolve(__dirname, "..", "..");
    const files: Record<string, string> = { "examples/multi-tenant.yaml": readFileSync(path.join(root, "examples", "multi-tenant.yaml"), "utf8") };
    for (const f of ["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]) {
      files[`examples/pulumi/${f}`] = readFileSync(path.join(root, "examples", "pulumi", f), "utf8");
    }
    // The file pins the demo account's own Legacy Team (id 2002) and creates the three tenants.
    // As after `npm install` in examples/pulumi: wavix-sync (file:../..) and @pulumi/pulumi installed.
    const p = track(consumerProject(root, files));
    const stack = new RealStack({
      projectDir: path.join(p.dir, "examples", "pulumi"),
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": s.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
    const first = await must(stack.up());
    expect(ops(first)).toMatchObject({
      "sub-account:Acme Support": "create",
      "number:15551230007": "create",
      "sub-account:Tenant Gamma": "create",
      "sub-account:id:2002": "create",
    });
    // Adopted, not duplicated: one of each name.
    const names = [...s.store.subAccounts.values()].map((r) => r.data.name).sort();
    expect(names).toEqual(["Acme Support", "Legacy Team", "Tenant Alpha", "Tenant Beta", "Tenant Gamma"]);
    expect(first.outputs).toMatchObject({ tenantId: 2001, stack: "dev" });
    expect(first.secretOutputs).toContain("tenantApiKey");
    const mark = s.log.length;
    const second = await must(stack.up());
    expect(new Set(Object.values(ops(second)))).toEqual(new Set(["same"]));
    expect(writesSince(s, mark)).toEqual([]);
  }, LONG);
});
