/**
 * The dynamic path as a user's own program uses it (issue #28 item 8), under the REAL engine
 * (test/helpers/real-pulumi.ts `RealStack`: `pulumi up/preview` run by the CLI in a project that
 * installed wavix-sync, the program started by the language host beside the CLI):
 *
 * - `SipTrunk`, `SenderId`, `TenDlcCampaignNumber`, `AccountCallbacks` imported from
 *   `wavix-sync/pulumi` with camelCase arguments make their objects; a second preview is quiet;
 * - no secret (the trunk password, its access token, a sub-account's API key, the stack's key) in
 *   the state, `stack export`, the normal output, `--diff`, `--json` or `--debug` output of that
 *   program (src/kit/pulumi/debug-logs.ts: the SDK's per-registration debug message carried every
 *   output of the registration, secrets in clear);
 * - an error names `wavix:apiKey`, printed once, without a stack trace: a create without a key, a
 *   delete the API refuses (the dynamic-provider host's own print of it, message again and stack,
 *   dropped: src/pulumi/provider-host.ts `REPORTED_BY_ENGINE`), and an error the program of ours
 *   throws (a `RunError`, src/kit/pulumi/sdk.ts);
 * - contract drift follows the CLI's rule: a field the API added says nothing unless
 *   WAVIX_SYNC_VERBOSE is set in the environment of `pulumi` (src/kit/provider/session.ts `driftNotes`).
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { EngineError, RealStack, engineUnavailable, must } from "../helpers/real-pulumi";
import { consumerProject, type TempProject } from "../helpers/pulumi-project";
import { startHostileServer, type HostileServer } from "../helpers/hostile-server";
import { AccountCallbacks, SenderId, SipTrunk, TenDlcCampaignNumber, type SipTrunkArgs } from "../../src/pulumi";

const KEY = "real-engine-idiomatic-key-5c02";
const PASSWORD = "consumer-trunk-password-93f1";
const LONG = 300_000;
const ROOT = path.resolve(__dirname, "..", "..");
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine idiomatic tests skipped: ${unavailable}\n`);

const projects: TempProject[] = [];
const servers: Array<Simulator | HostileServer> = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const p of projects) p.remove();
});

async function simulator(): Promise<Simulator> {
  const s = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
  servers.push(s);
  return s;
}

function project(files: Record<string, string>): TempProject {
  const p = consumerProject(ROOT, { "Pulumi.yaml": "name: consumer\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n", "package.json": '{"name":"consumer","private":true}\n', ...files });
  projects.push(p);
  return p;
}

function stackOf(p: TempProject, baseUrl: string, config: Record<string, string> = {}, env: Record<string, string | undefined> = {}): RealStack {
  return new RealStack({
    projectDir: p.dir,
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": baseUrl, ...config },
    secretKeys: ["wavix:apiKey", "trunkPassword"],
    env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, WAVIX_SYNC_VERBOSE: undefined, ...env },
  });
}

/** The four classes (and a sub-account, for its key), camelCase arguments, values from stack config. */
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const { SipTrunk, SenderId, TenDlcCampaignNumber, AccountCallbacks, SubAccount } = require("wavix-sync/pulumi");
const config = new pulumi.Config();
const trunk = new SipTrunk("edge", {
  label: "edge-pbx",
  password: config.requireSecret("trunkPassword"),
  multipleNumbers: true,
  costLimit: true,
  maxCallCost: config.get("maxCallCost") || "0.25",
  allowedIps: ["203.0.113.20"],
  ipRestrict: true,
});
const sender = new SenderId("newsdesk", { senderId: "NEWSDESK", type: "alphanumeric", countries: ["GB"], usecase: "transactional" });
const link = new TenDlcCampaignNumber("link", { brandId: "B6AI7PA", campaignId: "CSIM001", number: "15551230004" });
const callbacks = new AccountCallbacks("callbacks", { smsRelayUrl: "https://hooks.consumer.example/sms", dlrRelayUrl: "https://hooks.consumer.example/dlr" });
const tenant = new SubAccount("tenant", { name: "Consumer Tenant", status: "enabled" });
exports.trunkId = trunk.trunkId;
exports.login = trunk.login;
exports.accessToken = trunk.accessToken;
exports.senderId = sender.senderId;
exports.link = link.number;
exports.tenantKey = tenant.apiKey;
`;

/**
 * Never called: the consumer program above, in TypeScript, is type-checked by `npm run typecheck`
 * (camelCase arguments typed; the file's snake_case spelling refused).
 */
export function typedConsumer(password: string): void {
  const args: SipTrunkArgs = { label: "edge-pbx", password, multipleNumbers: true, costLimit: true, maxCallCost: "0.25", allowedIps: ["203.0.113.20"] };
  new SipTrunk("edge", args);
  new SenderId("newsdesk", { senderId: "NEWSDESK", type: "alphanumeric", countries: ["GB"], usecase: "transactional" });
  new TenDlcCampaignNumber("link", { brandId: "B6AI7PA", campaignId: "CSIM001", number: "15551230004" });
  new AccountCallbacks("callbacks", { smsRelayUrl: "https://hooks.consumer.example/sms", dlrRelayUrl: "https://hooks.consumer.example/dlr" });
  // @ts-expect-error the file's snake_case names are not the resources' arguments
  new SenderId("bad", { sender_id: "NEWSDESK", type: "alphanumeric", countries: ["GB"], usecase: "transactional" });
}

const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

describe.skipIf(unavailable !== undefined)("a program of one's own under the real engine", () => {
  it("uses SipTrunk, SenderId, TenDlcCampaignNumber and AccountCallbacks; no secret in state, export, normal, --diff, --json or --debug output", async () => {
    const sim = await simulator();
    const p = project({ "index.js": PROGRAM });
    const stack = stackOf(p, sim.url, { trunkPassword: PASSWORD });

    const up = await must(stack.up());
    const ops = Object.fromEntries(up.steps.map((s) => [s.name, s.op]));
    expect(ops).toEqual({ "consumer-dev": "create", edge: "create", newsdesk: "create", link: "create", callbacks: "create", tenant: "create" } as Record<string, string>);
    const trunk = [...sim.store.trunks.values()].find((t) => t.data.label === "edge-pbx")!;
    expect(trunk.password).toBe(PASSWORD);
    expect(trunk.data.max_call_cost).toMatch(/^0\.25/);
    expect(sim.store.messaging.campaigns.get("B6AI7PA/CSIM001")!.numbers.has("15551230004")).toBe(true);
    expect([...sim.store.messaging.senderIds.values()].some((x) => x.sender_id === "NEWSDESK")).toBe(true);
    const tenant = [...sim.store.subAccounts.values()].find((s) => s.data.name === "Consumer Tenant")!;
    expect(up.outputs.login).toBe(trunk.data.name);
    expect(up.secretOutputs.sort()).toEqual(["accessToken", "tenantKey"]);
    await must(stack.preview({ expectNoChanges: true }));

    const secrets = { password: PASSWORD, accessToken: String(trunk.data.access_token), tenantKey: String(tenant.data.api_key), apiKey: KEY };
    expect(secrets.accessToken).toMatch(/^sip/);
    expect(secrets.tenantKey.length).toBeGreaterThan(8);

    // An update of the trunk (its money limit), shown with --diff and --json, applied with --json;
    // then a no-change up with --debug (every registration's debug message). The two ups skip
    // their preview: that preview is the one `previewJson` prints (same state, same config) and,
    // with --debug, the one `upDiffDebug` runs, both scanned below; each up's own output is.
    const set = await stack.cli(["config", "set", "maxCallCost", "0.3"]);
    expect(set.code, set.stderr).toBe(0);
    const outputs: Record<string, { code: number; stdout: string; stderr: string }> = {
      normal: await stack.cli(["preview"]),
      diff: await stack.cli(["preview", "--diff"]),
      previewJson: await stack.cli(["preview", "--json"]),
      upJson: await stack.cli(["up", "--yes", "--skip-preview", "--json"]),
      debug: await stack.cli(["up", "--yes", "--skip-preview", "--debug"]),
      upDiffDebug: await stack.cli(["up", "--yes", "--diff", "--debug", "--refresh"]),
      export: await stack.cli(["stack", "export"]),
    };
    for (const [name, r] of Object.entries(outputs)) expect(r.code, `${name}: ${r.stderr}`).toBe(0);
    // Each output is what it claims (not vacuous): the diff names the change, --json is JSON, the
    // debug output holds our registrations' messages.
    expect(outputs.diff.stdout).toMatch(/maxCallCost[\s\S]*0\.3/);
    expect(() => JSON.parse(outputs.previewJson.stdout)).not.toThrow();
    expect(outputs.upJson.stdout).toContain('"maxCallCost"');
    expect(outputs.debug.stdout).toMatch(/RegisterResource RPC finished: resource:edge\[pulumi-nodejs:dynamic\/wavix:SipTrunk\]/);
    expect(sim.store.trunks.get(trunk.data.id)!.data.max_call_cost).toMatch(/^0\.3/);

    const texts: Record<string, string> = { state: stack.checkpointText(), up: up.programOutput };
    for (const [name, r] of Object.entries(outputs)) texts[name] = r.stdout + r.stderr;
    const leaks = Object.entries(texts).flatMap(([where, text]) => Object.entries(secrets).filter(([, v]) => text.includes(v)).map(([what]) => `${what} in ${where}`));
    expect(leaks).toEqual([]);
    expect(outputs.debug.stdout).toContain("not shown by wavix-sync");
  }, LONG);

  it("an error names wavix:apiKey, printed once, without a stack trace; so does an error of the program", async () => {
    const sim = await simulator();
    const noKey = project({ "index.js": PROGRAM });
    const stack = new RealStack({
      projectDir: noKey.dir,
      config: { "wavix:baseUrl": sim.url, trunkPassword: PASSWORD },
      secretKeys: ["trunkPassword"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
    const err = await stack.up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(err).toBeInstanceOf(EngineError);
    const out = err!.result.programOutput;
    expect(out).toContain("pulumi config set --secret wavix:apiKey");
    // Once per resource that failed (the engine stops at the first ones): never twice for one.
    const errors = err!.result.diagnostics.filter((d) => d.severity === "error" && d.urn !== "" && /wavix:apiKey/.test(d.message));
    expect(errors.length).toBeGreaterThan(0);
    for (const d of errors) expect(d.message.match(/wavix:apiKey/g)!.length, d.message).toBe(1);
    expect(new Set(errors.map((d) => d.urn)).size).toBe(errors.length);
    expect(out).not.toMatch(STACK_LINE);
    expect(out).not.toContain("WAVIX_API_KEY is not set");
    expect(sim.log.filter((e) => e.method !== "GET")).toEqual([]);

    // A delete that fails (the API refuses the key for it): the dynamic-provider host prints such a
    // failure itself (`${err}: ${err.stack}` on its stderr, which the engine shows) besides the
    // engine's error on the resource; shown once, without a stack trace.
    const proxy = await startHostileServer(sim.url);
    servers.push(proxy);
    const made = stackOf(project({ "index.js": `const { SenderId } = require("wavix-sync/pulumi");\nnew SenderId("news", { senderId: "NEWSDESK", type: "alphanumeric", countries: ["GB"], usecase: "transactional" });\n` }), proxy.url);
    await must(made.up());
    proxy.set({ before: (req) => (req.method === "DELETE" ? { status: 401, body: { error: true, message: "Unauthorized" } } : undefined) });
    const deleteErr = await made.destroy().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(deleteErr).toBeInstanceOf(EngineError);
    const deleteOut = deleteErr!.result.programOutput;
    const deleteErrors = deleteErr!.result.diagnostics.filter((d) => d.severity !== "debug" && /wavix:apiKey|401|nauthori[sz]ed/.test(d.message));
    expect(deleteErrors.map((d) => [d.severity, d.urn.split("::").pop()]), deleteOut).toEqual([["error", "news"]]);
    expect(deleteErrors[0].message).toContain("wavix:apiKey");
    expect(deleteOut).not.toMatch(STACK_LINE);

    // An error the file-driven program throws for the user to fix: the message alone.
    const bad = project({ "index.js": `module.exports = require("wavix-sync/pulumi").runProgram();\n`, "wavix.yaml": "version: 1\nsub_accounts:\n  - name: Acme\n    status: maybe\n" });
    const badErr = await stackOf(bad, sim.url).up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(badErr).toBeInstanceOf(EngineError);
    const badOut = badErr!.result.programOutput;
    expect(badOut).toMatch(/wavix\.yaml:4:\d+: /);
    // One error diagnostic (the engine shows it in the progress and again in its summary).
    expect(badErr!.result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.trim()), badOut).toEqual([
      expect.stringMatching(/^\S*wavix\.yaml has 1 problem\(s\):\n\S*wavix\.yaml:4:13: unknown status "maybe"[^\n]*$/),
    ]);
    expect(badOut).not.toMatch(STACK_LINE);
    expect(badOut).not.toContain("unhandled exception");
  }, LONG);

  it("contract drift: a field the API added says nothing unless WAVIX_SYNC_VERBOSE is set", async () => {
    const sim = await simulator();
    const proxy = await startHostileServer(sim.url);
    servers.push(proxy);
    const add = (x: unknown) => ({ ...(x as object), carrier_hint: "x" });
    proxy.set({
      rewrite: (req, status, body) => {
        if (status !== 200 || !req.path.startsWith("/v1/trunks")) return body;
        const o = body as Record<string, unknown>;
        return Array.isArray(o.items) ? { ...o, items: o.items.map(add) } : "label" in o ? add(o) : body;
      },
    });
    const program = `const { SipTrunk } = require("wavix-sync/pulumi");\nnew SipTrunk("acme", { label: "acme-pbx" });\n`;
    const quiet = await must(stackOf(project({ "index.js": program }), proxy.url).up());
    expect(quiet.steps.find((s) => s.name === "acme")?.op).toBe("create");
    expect(proxy.requests.some((r) => r.path.startsWith("/v1/trunks"))).toBe(true);
    expect(quiet.programOutput).not.toContain("carrier_hint");
    expect(quiet.diagnostics.filter((d) => d.severity === "warning" && /drift|schema/.test(d.message))).toEqual([]);

    const verbose = await must(stackOf(project({ "index.js": program }), proxy.url, {}, { WAVIX_SYNC_VERBOSE: "1" }).up());
    expect(verbose.diagnostics.filter((d) => d.severity === "warning" && d.message.includes('new property "carrier_hint"')).length).toBeGreaterThan(0);
    expect(verbose.programOutput).not.toContain(KEY);
  }, LONG);
});
