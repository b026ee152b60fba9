/**
 * What Pulumi never deletes (issue #27 item 7; docs/GUARD-RAILS.md "Under Pulumi"), under the REAL
 * engine (test/helpers/real-pulumi.ts `RealStack`: the CLI built from its Go module, a file
 * backend, the root `Pulumi.yaml`'s program in a copy of the checkout) against the strict simulator:
 *
 * - a stack adopting existing sub-accounts, a trunk, a Sender ID, an APPROVED 10DLC link and a
 *   webhook: preview says "adopt" for each, up records `adopted`, sends no trunk password, refresh
 *   and a preview afterwards show no change (every kind, money "0.18" against the API's "0.1800"),
 *   a preview of destructive edits names their effects, `up --replace` of the trunks sends no
 *   password; destroy leaves every pre-existing object exactly as it was (the simulator's records
 *   compared, no write to them) and deletes what the stack made;
 * - a stack moved to another account (its key now another organisation's): destroy deletes nothing
 *   there, saying why; pointed back, it deletes what it made;
 * - a destroy is never blocked by a number that left the state and still routes to the stack's trunk;
 * - a number a sub-account owns, declared as the account's own, is named with its owner;
 * - `passwordVersion` (stack config `wavix:trunkPasswordVersions.<label>`) sends an adopted trunk's password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SUB_ACCOUNT_KEYS, startSimulator, type Simulator } from "../../src/simulator";
import { EngineError, RealStack, engineUnavailable, must, type OperationResult } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";

const KEY = "real-engine-guards-key-7a31";
const ACME_PASSWORD = "acme-pbx-config-password-1";
const MADE_PASSWORD = "made-pbx-config-password-2";
const LONG = 300_000;
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine guard tests skipped: ${unavailable}\n`);

const writes = (s: Simulator, from = 0): string[] => s.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const warnings = (r: OperationResult): string[] => r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message.trim());
const projects: TempProject[] = [];
const sims: Simulator[] = [];

afterAll(async () => {
  for (const s of sims) await s.close();
  for (const p of projects) p.remove();
});

async function simulator(): Promise<Simulator> {
  const s = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
  sims.push(s);
  return s;
}

function stackFor(s: Simulator, file: string, config: Record<string, string> = {}): { stack: RealStack; project: TempProject } {
  const project = checkoutProject({ "wavix.yaml": file });
  projects.push(project);
  const stack = new RealStack({
    projectDir: project.dir,
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": s.url, ...config },
    secretKeys: ["wavix:apiKey"],
    env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, ACME_PBX_PASSWORD: ACME_PASSWORD, MADE_PBX_PASSWORD: MADE_PASSWORD },
  });
  return { stack, project };
}

// Every kind. Pre-existing in the demo account: sub-accounts "Acme Support" (2001) and "Legacy
// Team" (2002), trunk "acme-pbx" (144, max_call_cost "0.1800"), Sender ID ACME, the APPROVED link
// of 15551230003, the post-call webhook. Declared exactly as they are (so the up changes nothing
// of them), some spelled otherwise than the API keeps them ("0.18", countries out of order, "+").
const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: enabled
  - name: Legacy Team
  - name: Pulumi Made
    status: enabled
sip_trunks:
  - label: acme-pbx
    password_env: ACME_PBX_PASSWORD
    cost_limit: true
    max_call_cost: "0.18"
    allowed_ips: [203.0.113.11, 203.0.113.10]
  - label: made-pbx
    password_env: MADE_PBX_PASSWORD
    multiple_numbers: true
    max_call_cost: "0.2"
numbers:
  - number: "+15551230002"
    sms_enabled: true
    destinations:
      - { destination: sip.made.example, transport: sip, priority: 2 }
      - { destination: "15557654321", transport: pstn, priority: 1 }
sender_ids:
  - sender_id: ACME
    type: alphanumeric
    countries: [GB, FR]
    usecase: promo
    samples: ["Acme: 20% off today"]
  - sender_id: NEWSDESK
    type: alphanumeric
    countries: [GB]
    usecase: transactional
ten_dlc_campaign_numbers:
  - brand_id: B6AI7PA
    campaign_id: CSIM001
    numbers: ["15551230003", "15551230004"]
call_webhooks:
  post-call: https://hooks.demo.example/post-call
  on-call: https://hooks.made.example/on-call
account_callbacks:
  sms_relay_url: https://hooks.made.example/account-sms
  dlr_relay_url: https://hooks.made.example/account-dlr
`;

/** The pre-existing objects as the simulator holds them (the trunk's write-only password included). */
function preExisting(s: Simulator): string {
  const trunk = s.store.trunks.get(144)!;
  return JSON.stringify({
    subAccounts: [2001, 2002].map((id) => s.store.subAccounts.get(id)!.data),
    trunk: { ...trunk.data, password: trunk.password },
    acme: [...s.store.messaging.senderIds.values()].find((x) => x.sender_id === "ACME"),
    link: s.store.messaging.campaigns.get("B6AI7PA/CSIM001")!.numbers.get("15551230003"),
    postCall: s.store.webhooksOf(s.store.masterId).get("post-call"),
  });
}

describe.skipIf(unavailable !== undefined)("adopted objects under the real engine", () => {
  let sim: Simulator;
  let stack: RealStack;
  let project: TempProject;
  let before: string;

  beforeAll(async () => {
    sim = await simulator();
    ({ stack, project } = stackFor(sim, FILE));
    before = preExisting(sim);
  });

  it("preview names each object the creates will adopt, and writes nothing", async () => {
    const r = await must(stack.preview());
    const w = warnings(r).join("\n");
    for (const what of [
      /SubAccount "Acme Support": the sub-account \(id 2001\) exists already: the create will adopt it, not make it; a destroy will leave it as it is/,
      /SubAccount "Legacy Team": the sub-account \(id 2002\) exists already: the create will adopt it/,
      /SipTrunk "acme-pbx": the trunk \(id 144\) exists already: the create will adopt it, not make it; its password will not be sent/,
      /SenderId ACME: the Sender ID \(id [0-9a-f-]+\) exists already: the create will adopt it/,
      /TenDlcCampaignNumber B6AI7PA\/CSIM001\/15551230003: the link \(status APPROVED\) exists already: the create will adopt it/,
      /CallWebhook post-call: the account's post-call webhook exists already: the create will adopt it/,
    ]) {
      expect(w).toMatch(what);
    }
    // What the stack will make is not called adopted.
    expect(w).not.toMatch(/Pulumi Made|made-pbx|NEWSDESK|15551230004|CallWebhook on-call/);
    expect(writes(sim)).toEqual([]);
  }, LONG);

  it("up records adopted (true for what existed, false for what it made) and sends no password to the adopted trunk", async () => {
    const mark = sim.log.length;
    await must(stack.up());
    const w = writes(sim, mark);
    // Nothing written to what existed: the file declares them as they are.
    expect(w.filter((x) => /\/v1\/sub-organizations\/200[12]$|\/v1\/trunks\/144$/.test(x))).toEqual([]);
    expect(w.filter((x) => x.startsWith("POST /v3/messages/sender-ids"))).toHaveLength(1);
    expect(w.filter((x) => x.startsWith("POST /v3/10dlc/"))).toEqual(["POST /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004"]);
    expect(w.filter((x) => x === "POST /v1/calls/webhooks")).toHaveLength(1);
    expect(preExisting(sim)).toBe(before);
    const adopted = Object.fromEntries(stack.state().map((r) => [r.urn.split("::").pop(), r.outputs.adopted]));
    expect(adopted).toMatchObject({
      "sub-account:Acme Support": true,
      "sub-account:Legacy Team": true,
      "sub-account:Pulumi Made": false,
      "sip-trunk:acme-pbx": true,
      "sip-trunk:made-pbx": false,
      "sender-id:ACME": true,
      "sender-id:NEWSDESK": false,
      "ten-dlc-number:B6AI7PA/CSIM001/15551230003": true,
      "ten-dlc-number:B6AI7PA/CSIM001/15551230004": false,
      "call-webhook:post-call": true,
      "call-webhook:on-call": false,
      "number:15551230002": true,
    });
    const made = [...sim.store.trunks.values()].find((t) => t.data.label === "made-pbx")!;
    expect(made.password).toBe(MADE_PASSWORD);
  }, LONG);

  it("refresh, then a preview with --expect-no-changes: no perpetual diff for any kind", async () => {
    const mark = sim.log.length;
    await must(stack.refresh());
    expect(writes(sim, mark)).toEqual([]);
    // The API keeps "0.1800" and "0.2000"; state keeps the file's spelling: equal as decimals.
    expect(sim.store.trunks.get(144)!.data.max_call_cost).toBe("0.1800");
    expect(stack.resource("sip-trunk:acme-pbx")!.inputs.maxCallCost).toBe("0.18");
    await must(stack.preview({ expectNoChanges: true }));
  }, LONG);

  it("a preview of destructive edits names each effect (disable, routing removed, a limit lifted)", async () => {
    const edited = FILE.replace("  - name: Pulumi Made\n    status: enabled", "  - name: Pulumi Made\n    status: disabled")
      .replace("    sms_enabled: true\n    destinations:\n      - { destination: sip.made.example, transport: sip, priority: 2 }\n      - { destination: \"15557654321\", transport: pstn, priority: 1 }", "    sms_enabled: true\n    destinations: []")
      .replace("    cost_limit: true\n", "    cost_limit: false\n");
    expect(edited).not.toBe(FILE);
    project.write("wavix.yaml", edited);
    try {
      const mark = sim.log.length;
      const w = warnings(await must(stack.preview())).join("\n");
      expect(w).toMatch(/SubAccount "Pulumi Made": this update disables it/);
      expect(w).toMatch(/PhoneNumber 15551230002: this update removes its routing \(no destination left\)/);
      expect(w).toMatch(/SipTrunk "acme-pbx": this update lifts a limit \(cost_limit: true → false\)/);
      expect(writes(sim, mark)).toEqual([]);
    } finally {
      project.write("wavix.yaml", FILE);
    }
  }, LONG);

  it("`up --replace` of the trunks sends no password (each replacement finds its trunk in place)", async () => {
    const urns = stack.state().filter((r) => r.type.endsWith(":SipTrunk")).map((r) => r.urn);
    expect(urns).toHaveLength(2);
    const made = [...sim.store.trunks.values()].find((t) => t.data.label === "made-pbx")!;
    made.password = "rotated-outside-pulumi";
    const mark = sim.log.length;
    const r = await stack.cli(["up", "--yes", "--skip-preview", ...urns.flatMap((u) => ["--replace", u])]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(writes(sim, mark).filter((x) => x.includes("/v1/trunks"))).toEqual([]);
    expect(made.password).toBe("rotated-outside-pulumi");
    expect(preExisting(sim)).toBe(before);
    // Replaced delete first (src/kinds/sip-trunk/pulumi.ts): each old half's delete leaves its trunk
    // for the replacement, which keeps its origin — made-pbx stays made, acme-pbx stays adopted
    // (test/pulumi/real-engine-replace-origin.test.ts has the case of a routed trunk).
    expect(stack.resource("sip-trunk:made-pbx")!.outputs.adopted).toBe(false);
    expect(stack.resource("sip-trunk:acme-pbx")!.outputs.adopted).toBe(true);
    expect(r.stdout + r.stderr).toMatch(/SipTrunk "made-pbx" \(id \d+\): not deleted: its replacement in this deployment looks up the same Wavix object/);
  }, LONG);

  it("destroy leaves every pre-existing object exactly as it was, with no write to them, and deletes what it made", async () => {
    const made = {
      sub: [...sim.store.subAccounts.values()].find((x) => x.data.name === "Pulumi Made")!.data.id,
      trunk: [...sim.store.trunks.values()].find((t) => t.data.label === "made-pbx")!.data.id,
      newsdesk: [...sim.store.messaging.senderIds.values()].find((x) => x.sender_id === "NEWSDESK")!.id,
    };
    const mark = sim.log.length;
    const r = await must(stack.destroy());
    const w = writes(sim, mark);
    expect(w.sort()).toEqual(
      [
        "DELETE /v1/calls/webhooks",
        // Made by the stack, and still made after its `up --replace` above: deleted.
        `DELETE /v1/trunks/${made.trunk}`,
        `DELETE /v3/messages/sender-ids/${made.newsdesk}`,
        "DELETE /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004",
        `PUT /v1/sub-organizations/${made.sub}`,
      ].sort(),
    );
    expect(preExisting(sim)).toBe(before);
    const hooks = sim.store.webhooksOf(sim.store.masterId);
    expect(hooks.has("on-call")).toBe(false);
    expect(sim.store.subAccounts.get(made.sub)!.data.status).toBe("disabled");
    expect(sim.store.messaging.campaigns.get("B6AI7PA/CSIM001")!.numbers.has("15551230004")).toBe(false);
    const w2 = warnings(r).join("\n");
    for (const what of [
      /SubAccount "Acme Support" \(id 2001\): left as it is, not disabled: this stack adopted it/,
      /SubAccount "Legacy Team" \(id 2002\): left as it is, not disabled/,
      /SipTrunk "acme-pbx" \(id 144\): left as it is, not deleted: this stack adopted it/,
      /SenderId ACME \(id [0-9a-f-]+\): left as it is, not deleted: this stack adopted it/,
      /TenDlcCampaignNumber B6AI7PA\/CSIM001\/15551230003: left as it is, not unlinked: this stack adopted it/,
      /CallWebhook post-call: left as it is, not deleted: this stack adopted it/,
    ]) {
      expect(w2).toMatch(what);
    }
    expect(stack.state()).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("a stack moved to another account", () => {
  it("destroy deletes nothing of the other account, saying why; pointed back, it deletes what it made", async () => {
    const sim = await simulator();
    const file = "version: 1\ncall_webhooks:\n  on-call: https://hooks.made.example/on-call\nsip_trunks:\n  - label: moved-pbx\n    password_env: MADE_PBX_PASSWORD\n    multiple_numbers: true\n";
    const { stack } = stackFor(sim, file);
    await must(stack.up());
    const master = sim.store.masterId;
    expect(sim.store.webhooksOf(master).get("on-call")).toBe("https://hooks.made.example/on-call");
    // The other organisation (sub-account "Acme Support", its own key) has its own on-call webhook.
    const tenant = sim.store.webhooksOf(2001);
    tenant.set("on-call", "https://hooks.made.example/on-call");
    const trunkId = [...sim.store.trunks.values()].find((t) => t.data.label === "moved-pbx")!.data.id;
    stack.setConfig("wavix:apiKey", DEMO_SUB_ACCOUNT_KEYS.acmeSupport, true);
    // The engine keeps the provider configuration of the last up for destroy: an up with nothing
    // to change stores the new one (and calls no resource method that writes).
    await must(stack.up());
    const mark = sim.log.length;
    const err = await stack.destroy().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err!.message).toMatch(/CallWebhook on-call: not deleted: it belongs to account 1000 \(recorded when the stack took it on\), but the stack's API key \(wavix:apiKey\) now belongs to account 2001; nothing was written/);
    expect(writes(sim, mark)).toEqual([]);
    expect(tenant.get("on-call")).toBe("https://hooks.made.example/on-call");
    expect(sim.store.webhooksOf(master).get("on-call")).toBe("https://hooks.made.example/on-call");
    expect(sim.store.trunks.has(trunkId)).toBe(true);
    expect(stack.state().filter((r) => r.custom).length).toBe(2);

    stack.setConfig("wavix:apiKey", KEY, true);
    await must(stack.up());
    await must(stack.destroy());
    expect(sim.store.webhooksOf(master).has("on-call")).toBe(false);
    expect(sim.store.trunks.has(trunkId)).toBe(false);
    expect(tenant.get("on-call")).toBe("https://hooks.made.example/on-call");
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("references that left the state", () => {
  it("a destroy is not blocked by a number that left the state and still routes to the stack's trunk: the trunk is left, saying so", async () => {
    const sim = await simulator();
    const trunk = "sip_trunks:\n  - label: routed-pbx\n    password_env: MADE_PBX_PASSWORD\n    multiple_numbers: true\n";
    const number = 'numbers:\n  - number: "15551230004"\n    destinations:\n      - { transport: trunk, trunk: routed-pbx, priority: 1 }\n';
    const { stack, project } = stackFor(sim, `version: 1\n${trunk}${number}`);
    await must(stack.up());
    const trunkId = [...sim.store.trunks.values()].find((t) => t.data.label === "routed-pbx")!.data.id;
    expect(sim.store.numbers.get(4004)!.data.destination.map((d) => d.trunk_id)).toEqual([trunkId]);
    // The number leaves the stack (it is retained: numbers are never released), still routed.
    project.write("wavix.yaml", `version: 1\n${trunk}`);
    await must(stack.up());
    expect(stack.resource("number:15551230004")).toBeUndefined();
    const mark = sim.log.length;
    const r = await must(stack.destroy());
    expect(writes(sim, mark)).toEqual([]);
    expect(sim.store.trunks.has(trunkId)).toBe(true);
    expect(warnings(r).join("\n")).toMatch(new RegExp(`SipTrunk "routed-pbx" \\(id ${trunkId}\\): left as it is, not deleted: number 15551230004 routes to it; route them elsewhere, then delete the trunk`));
    expect(stack.state()).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("a trunk's password under the real engine", () => {
  it("adopting sends none; a new passwordVersion in stack config sends the configured one, once", async () => {
    const sim = await simulator();
    const { stack } = stackFor(sim, "version: 1\nsip_trunks:\n  - label: acme-pbx\n    password_env: ACME_PBX_PASSWORD\n    cost_limit: true\n");
    const seeded = sim.store.trunks.get(144)!.password;
    await must(stack.up());
    expect(sim.store.trunks.get(144)!.password).toBe(seeded);
    // `config set --path` makes the map the program reads (RealStack's setConfig sets plain keys).
    const set = await stack.cli(["config", "set", "--path", "wavix:trunkPasswordVersions.acme-pbx", "1"]);
    expect(set.code, set.stderr).toBe(0);
    const mark = sim.log.length;
    await must(stack.up());
    expect(writes(sim, mark)).toEqual(["PUT /v1/trunks/144"]);
    expect(sim.store.trunks.get(144)!.password).toBe(ACME_PASSWORD);
    const again = sim.log.length;
    await must(stack.up());
    expect(writes(sim, again)).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("a number another organisation owns", () => {
  it("declared as the account's own, up fails naming the sub-account that owns it and what to write, with no write", async () => {
    const sim = await simulator();
    const { stack } = stackFor(sim, 'version: 1\nnumbers:\n  - number: "15551230007"\n    sms_enabled: true\n');
    const err = await stack.up().then(
      () => undefined,
      (e: unknown) => e as EngineError,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err!.message).toMatch(/PhoneNumber 15551230007: the number belongs to sub-account "Acme Support" \(id 2001\), not to the account itself: set subAccountId: 2001 on the resource \(in the file: sub_account: "Acme Support"\)/);
    expect(err!.message).not.toMatch(/buy it first/);
    expect(writes(sim)).toEqual([]);
  }, LONG);
});
