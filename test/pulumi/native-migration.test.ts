/**
 * Migrating a stack from the dynamic resources to the native provider under the real engine
 * (docs/PULUMI.md, "Migrating from the dynamic resources"): the root `Pulumi.yaml`'s program in a
 * copy of the checkout, every kind declared, `up` with the dynamic resources; then
 * `pulumi config set wavix-sync:provider native` and `up`: each resource registers as
 * `wavix:index:<Kind>`, aliased to its dynamic twin, so the engine hands the old state to the
 * native provider (its DiffConfig replaces nothing: pkg/resource/deploy/step_generator.go
 * `providerChanged`) — no create, no delete, no replace, and NOT ONE write request (the simulator's
 * log). The plugin is found by `plugins.providers[].path` (this checkout's bin/).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { RealStack, engineUnavailable, must } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";
import { PROJECT_ROOT } from "../helpers/pulumi-host";

const KEY = "native-migration-key-7c3a";
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`native migration tests skipped: ${unavailable}\n`);

// Every kind; the trunk and the Sender ID exist in the demo account (adopted), the rest is created.
const FILE = `version: 1
sub_accounts:
  - name: Migration Desk
    status: enabled
sip_trunks:
  - label: office-phones
    password_env: OFFICE_PHONES_PASSWORD
    multiple_numbers: true
    channels_restrict: true
    max_channels: 8
numbers:
  - number: "15551230003"
    sms_enabled: true
    on_delete: release
call_webhooks:
  on-call: https://hooks.acme.example/on-call
sender_ids:
  - sender_id: NEWSDESK
    type: alphanumeric
    countries: [GB]
    usecase: transactional
    monthly_volume: 1-1000
ten_dlc_campaign_numbers:
  - brand_id: B6AI7PA
    campaign_id: CSIM001
    numbers: ["15551230004"]
account_callbacks:
  sms_relay_url: https://hooks.demo.example/account-sms
  dlr_relay_url: https://hooks.demo.example/account-dlr
`;

const KINDS = ["AccountCallbacks", "CallWebhook", "PhoneNumber", "SenderId", "SipTrunk", "SubAccount", "TenDlcCampaignNumber"];

let sim: Simulator;
let project: TempProject;
let stack: RealStack;
const writes = (from: number): string[] => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const LONG = 300_000;
const ours = (prefix: string) =>
  stack
    .state()
    .filter((r) => r.type.startsWith(prefix))
    .map((r) => ({ kind: r.type.split(":").pop()!, id: r.id }))
    .sort((a, b) => a.kind.localeCompare(b.kind) || String(a.id).localeCompare(String(b.id)));

describe.skipIf(unavailable !== undefined)("migrating a stack from the dynamic resources to the native provider", () => {
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    project = checkoutProject({ "wavix.yaml": FILE });
    project.write("Pulumi.yaml", `${project.read("Pulumi.yaml")}plugins:\n  providers:\n    - name: wavix\n      path: ${path.join(PROJECT_ROOT, "bin")}\n`);
    stack = new RealStack({
      projectDir: project.dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, OFFICE_PHONES_PASSWORD: "Office-Phones-Pass-1" },
    });
  });

  afterAll(async () => {
    await sim?.close();
    project?.remove();
  });

  it("the dynamic stack moves to wavix:index:<Kind> in place: the same ids, no create, delete or replace, zero write requests", async () => {
    await must(stack.up());
    const before = ours("pulumi-nodejs:dynamic/wavix:");
    expect([...new Set(before.map((r) => r.kind))].sort()).toEqual(KINDS);

    stack.setConfig("wavix-sync:provider", "native");
    const mark = sim.log.length;
    const preview = await must(stack.preview());
    expect(new Set(preview.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    const up = await must(stack.up());
    expect(new Set(up.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(writes(mark)).toEqual([]);
    expect(ours("pulumi-nodejs:dynamic/")).toEqual([]);
    expect(ours("wavix:index:")).toEqual(before);

    // Settled on the native provider: a no-change preview and up, still no write.
    const clean = sim.log.length;
    const again = await must(stack.up());
    expect(new Set(again.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(writes(clean)).toEqual([]);
  }, LONG);

  it("refresh reads every native resource back; destroy then deletes what the stack created, as the dynamic one would", async () => {
    const mark = sim.log.length;
    const r = await must(stack.refresh());
    expect(r.steps.length).toBeGreaterThanOrEqual(KINDS.length);
    expect(writes(mark)).toEqual([]);
    // The dynamic provider's text, kept in the outputs a "same" step carries over, is gone once read back.
    expect(stack.checkpointText()).not.toContain("__provider");
    await must(stack.destroy());
    expect(stack.state()).toEqual([]);
    expect(sim.store.numbers.has(4003)).toBe(false);
  }, LONG);
});
