/**
 * terraform-provider-wavix under the real OpenTofu (test/helpers/real-tofu.ts), against the strict
 * server (test/helpers/strict-server.ts) seeded with the demo account: one of each kind through
 * init / plan / apply, a second plan with no changes (`-detailed-exitcode` 0), an edit, a
 * replacement, refresh-only, and destroy — which deletes what the configuration made and leaves
 * what it adopted (and a trunk an adopted number still routes to). The API key and the trunk's password appear in no plan output, and in state only
 * as sensitive attributes. The account callbacks, which the strict server's profile cannot take (its
 * answer lacks fields a whole-profile PUT would reset: refused, nothing sent), go through init / plan /
 * apply / edit / destroy against the simulator, whose profile answer holds every field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startSimulator, type Simulator } from "../../src/simulator";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { providerBlock, initialisedTofuProject, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-lifecycle-key-8c31";
const PASSWORD = "trunk-pass-Q7v9x2-secret";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu tests skipped: ${unavailable}\n`);

const LONG = 300_000;

/** One of each kind: made (a sub-account, a trunk, a Sender ID, a 10DLC link, the on-call webhook) or adopted (a number, the post-call webhook). */
const CALLBACKS = `resource "wavix_account_callbacks" "account" {
  sms_relay_url = "https://hooks.tofu.example/account-sms"
  dlr_relay_url = "https://hooks.tofu.example/account-dlr"
}
`;

function config(url: string, o: { subName?: string; smsEndpoint?: string; onCall?: string; callbacks?: boolean } = {}): string {
  return `${providerBlock(url)}
variable "trunk_password" {
  type      = string
  sensitive = true
}

resource "wavix_sub_account" "tenant" {
  name   = ${JSON.stringify(o.subName ?? "Tofu Tenant")}
  status = "enabled"
  default_destinations = {
    sms_endpoint = ${JSON.stringify(o.smsEndpoint ?? "https://hooks.tofu.example/sms")}
  }
}

resource "wavix_sip_trunk" "pbx" {
  label        = "tofu-pbx"
  password     = var.trunk_password
  callerid     = "15551230001"
  ip_restrict  = true
  allowed_ips  = ["203.0.113.10", "203.0.113.11"]
}

resource "wavix_phone_number" "main" {
  number      = "15551230002"
  sms_enabled = true
  destinations = [
    { destination = "sip.tofu.example", transport = "sip", priority = 1 },
    { destination = wavix_sip_trunk.pbx.login, transport = "trunk", trunk_id = wavix_sip_trunk.pbx.trunk_id, priority = 2 },
  ]
}

resource "wavix_call_webhook" "on_call" {
  event_type = "on-call"
  url        = ${JSON.stringify(o.onCall ?? "https://hooks.tofu.example/on-call")}
}

resource "wavix_call_webhook" "post_call" {
  event_type = "post-call"
  url        = "https://hooks.demo.example/post-call"
}

resource "wavix_sender_id" "acme" {
  sender_id = "TOFUACME"
  type      = "alphanumeric"
  countries = ["GB", "FR"]
  usecase   = "promo"
  samples   = ["Acme: 20% off today"]
}

resource "wavix_ten_dlc_campaign_number" "link" {
  brand_id    = "B6AI7PA"
  campaign_id = "CSIM001"
  number      = "15551230004"
}

${o.callbacks ? CALLBACKS : ""}
output "tenant_key" {
  value     = wavix_sub_account.tenant.api_key
  sensitive = true
}
`;
}

let server: StrictServer;
let project: TofuProject;
const ENV = { TF_VAR_wavix_api_key: KEY, TF_VAR_trunk_password: PASSWORD };
const writes = (from: number): string[] =>
  server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""}`);
const noSecrets = (text: string) => {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toMatch(/sim-[a-z0-9-]*-key/); // no sub-account key either
};

describe.skipIf(unavailable !== undefined)("terraform-provider-wavix under the real OpenTofu", () => {
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    project = await initialisedTofuProject(ENV, { "main.tf": config(server.url) });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    project?.remove();
  });

  it("plan shows one of each kind to create; apply makes or adopts them; a second plan has no changes", async () => {
    const plan = await project.must(["plan", "-no-color", "-detailed-exitcode", "-out=tfplan"], [2]);
    noSecrets(plan.stdout + plan.stderr);
    expect(plan.stdout).toContain("Plan: 7 to add, 0 to change, 0 to destroy.");
    expect(plan.stdout).toMatch(/password\s+= \(sensitive value\)/);
    const mark = server.sim.log.length;
    const apply = await project.must(["apply", "-no-color", "tfplan"]);
    noSecrets(apply.stdout + apply.stderr);
    const w = writes(mark);
    expect(w).toContain("POST /v1/sub-organizations");
    expect(w).toContain("POST /v1/trunks");
    expect(w.some((x) => x.startsWith("PATCH /v1/numbers"))).toBe(true);
    expect(w).toContain("POST /v1/calls/webhooks");
    expect(w).toContain("POST /v3/messages/sender-ids");
    expect(w).toContain("POST /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004");
    const again = server.sim.log.length;
    const second = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(writes(again)).toEqual([]);
  }, LONG);

  it("state holds the secrets only as sensitive attributes", () => {
    const state = project.state();
    const trunk = state.resources.find((r) => r.type === "wavix_sip_trunk")!.instances[0];
    const sub = state.resources.find((r) => r.type === "wavix_sub_account")!.instances[0];
    const sensitivePaths = (inst: { sensitive_attributes: unknown[] }) => JSON.stringify(inst.sensitive_attributes);
    expect(sensitivePaths(trunk)).toContain("password");
    expect(sensitivePaths(trunk)).toContain("access_token");
    expect(sensitivePaths(sub)).toContain("api_key");
    // The provider's private part of each resource holds no secret.
    for (const r of state.resources) for (const i of r.instances) if (i.private) noSecrets(Buffer.from(i.private, "base64").toString("utf8"));
  });

  it("an edit is an update in place; a new name replaces the sub-account", async () => {
    project.write({ "main.tf": config(server.url, { smsEndpoint: "https://hooks.tofu.example/sms2", onCall: "https://hooks.tofu.example/on-call-2" }) });
    const plan = await project.must(["plan", "-no-color", "-detailed-exitcode"], [2]);
    expect(plan.stdout).toContain("Plan: 0 to add, 2 to change, 0 to destroy.");
    const mark = server.sim.log.length;
    await project.must(["apply", "-no-color", "-auto-approve"]);
    expect(writes(mark)).toEqual(expect.arrayContaining(["PUT /v1/sub-organizations/" + project.state().resources.find((r) => r.type === "wavix_sub_account")!.instances[0].attributes.sub_account_id, "POST /v1/calls/webhooks"]));
    expect((await project.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);

    project.write({ "main.tf": config(server.url, { subName: "Tofu Tenant Two", smsEndpoint: "https://hooks.tofu.example/sms2", onCall: "https://hooks.tofu.example/on-call-2" }) });
    const replace = await project.must(["plan", "-no-color", "-detailed-exitcode"], [2]);
    expect(replace.stdout).toMatch(/wavix_sub_account\.tenant must be replaced/);
    expect(replace.stdout).toMatch(/# forces replacement/);
    await project.must(["apply", "-no-color", "-auto-approve"]);
    const names = [...server.sim.store.subAccounts.values()].map((s) => `${s.data.name}:${s.data.status}`);
    expect(names).toEqual(expect.arrayContaining(["Tofu Tenant:disabled", "Tofu Tenant Two:enabled"]));
    expect((await project.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
  }, LONG);

  it("a refresh-only plan shows what changed outside, and changes nothing", async () => {
    const hooks = server.sim.store.callWebhooks.get(server.sim.store.masterId)!;
    hooks.set("on-call", "https://elsewhere.example/hook");
    const mark = server.sim.log.length;
    const r = await project.must(["plan", "-refresh-only", "-no-color"]);
    expect(r.stdout).toContain("https://elsewhere.example/hook");
    expect(writes(mark)).toEqual([]);
    const fix = await project.must(["plan", "-no-color", "-detailed-exitcode"], [2]);
    expect(fix.stdout).toContain("1 to change");
    await project.must(["apply", "-no-color", "-auto-approve"]);
    expect(hooks.get("on-call")).toBe("https://hooks.tofu.example/on-call-2");
  }, LONG);

  it("account callbacks: the strict server's profile lacks what a PUT would reset, so the apply refuses and sends nothing", async () => {
    project.write({ "main.tf": config(server.url, { smsEndpoint: "https://hooks.tofu.example/sms2", onCall: "https://hooks.tofu.example/on-call-2", subName: "Tofu Tenant Two", callbacks: true }) });
    const mark = server.sim.log.length;
    const r = await project.run(["apply", "-no-color", "-auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/account callbacks are not sent \(PUT \/v1\/profile may replace the whole profile\)/);
    expect(writes(mark)).toEqual([]);
    project.write({ "main.tf": config(server.url, { smsEndpoint: "https://hooks.tofu.example/sms2", onCall: "https://hooks.tofu.example/on-call-2", subName: "Tofu Tenant Two" }) });
    expect((await project.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
  }, LONG);

  it("-replace of the trunk it made, against the strict server, writes nothing and keeps it made", async () => {
    const trunkOf = () => project.state().resources.find((r) => r.type === "wavix_sip_trunk")!.instances[0].attributes;
    const was = trunkOf();
    expect(was.adopted).toBe(false);
    const mark = server.sim.log.length;
    // Destroy first, then create (Terraform's default for -replace): the delete leaves the trunk
    // (a number routes to it, or the replacement looks it up), and the replacement that finds it
    // keeps it made. The strict server's record hides ip_restrict and more (the official
    // SIPTrunkResponse requires few fields): settings the stack last wrote and the file still
    // declares are not a reason for a PUT, which the sparse record could not build safely.
    const r = await project.must(["apply", "-no-color", "-auto-approve", "-replace=wavix_sip_trunk.pbx"]);
    noSecrets(r.stdout + r.stderr);
    expect(writes(mark).filter((x) => x.includes("/v1/trunks"))).toEqual([]);
    expect(r.stdout + r.stderr).toMatch(/tofu-pbx.*not deleted/);
    expect(trunkOf().trunk_id).toBe(was.trunk_id);
    expect(trunkOf().adopted).toBe(false);
    expect((await project.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
  }, LONG);

  it("destroy deletes what the configuration made and leaves what it adopted", async () => {
    const mark = server.sim.log.length;
    const r = await project.must(["destroy", "-no-color", "-auto-approve"]);
    noSecrets(r.stdout + r.stderr);
    const w = writes(mark);
    // Made here: deleted (the sub-account disabled: the API has no delete).
    expect(w).toContain("DELETE /v1/calls/webhooks?event_type=on-call");
    // The trunk it made stays too: the adopted number, left as it is, still routes to it.
    expect(w.some((x) => x.startsWith("DELETE /v1/trunks/"))).toBe(false);
    expect(w.some((x) => x.startsWith("DELETE /v3/messages/sender-ids/"))).toBe(true);
    expect(w).toContain("DELETE /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004");
    // Adopted: the post-call webhook of the demo account, the number (never released) stay.
    expect(w).not.toContain("DELETE /v1/calls/webhooks?event_type=post-call");
    expect(w.some((x) => x.startsWith("DELETE /v1/numbers"))).toBe(false);
    expect(r.stdout + r.stderr).toMatch(/adopted/);
    expect(project.state().resources.filter((x) => x.mode === "managed")).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("wavix_account_callbacks under the real OpenTofu, against a profile that shows every field", () => {
  let sim: Simulator;
  let callbacks: TofuProject;
  const tf = (dlr: string) => ({ "main.tf": `${providerBlock(sim.url, "  account_id = 1000\n")}\nresource "wavix_account_callbacks" "account" {\n  sms_relay_url = "https://hooks.tofu.example/account-sms"\n  dlr_relay_url = ${JSON.stringify(dlr)}\n}\n` });
  const puts = (from: number) => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    callbacks = await initialisedTofuProject(ENV, tf("https://hooks.tofu.example/account-dlr"));
  }, LONG);

  afterAll(async () => {
    await sim?.close();
    callbacks?.remove();
  });

  it("applies, plans no change, sends an edit, and destroy leaves them as they are", async () => {
    let mark = sim.log.length;
    await callbacks.must(["plan", "-no-color", "-detailed-exitcode"], [2]);
    await callbacks.must(["apply", "-no-color", "-auto-approve"]);
    expect(puts(mark)).toEqual(["PUT /v1/profile"]);
    expect((await callbacks.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
    callbacks.write(tf("https://hooks.tofu.example/account-dlr-2"));
    mark = sim.log.length;
    const edit = await callbacks.must(["apply", "-no-color", "-auto-approve"]);
    expect(edit.stdout).toContain("0 added, 1 changed, 0 destroyed");
    expect(puts(mark)).toEqual(["PUT /v1/profile"]);
    expect((await callbacks.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
    mark = sim.log.length;
    const destroy = await callbacks.must(["destroy", "-no-color", "-auto-approve"]);
    expect(destroy.stdout + destroy.stderr).toContain("leaves the account's sms_relay_url and dlr_relay_url as they are");
    expect(puts(mark)).toEqual([]);
  }, LONG);
});
