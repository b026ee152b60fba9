/**
 * `import` under the real OpenTofu (test/helpers/real-tofu.ts) against the strict server seeded with
 * the demo account, for one object of each kind, by the ids `pulumi import` takes (docs/TERRAFORM.md,
 * "Import ids"), both ways users import: `import` blocks planned and applied, and `tofu import ADDRESS
 * ID`. Importing sends no write; the two ways give the same state; a plan then changes nothing
 * (`-detailed-exitcode` 0) — but for the Sender ID, whose `usecase` the strict server does not show
 * (the official SenderID leaves it optional): the import leaves it unknown (null), not guessed, and
 * the plan records the declared value in place, once, sending no write (a null prior and a declared
 * value are a change to OpenTofu whatever a provider says: docs/TERRAFORM.md, "Import ids"). Then a
 * `moved` block renames an address with no change, and destroy leaves every imported object as it
 * is (an import adopts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { pulumiWordsIn, providerBlock, initialisedTofuProject, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-import-key-41d7";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu import tests skipped: ${unavailable}\n`);
const LONG = 300_000;

const IMPORTS: [address: string, id: string, body: string][] = [
  ["wavix_sub_account.support", "Acme Support", `name = "Acme Support"`],
  ["wavix_phone_number.main", "15551230001", `number = "15551230001"`],
  ["wavix_call_webhook.post_call", "post-call", `event_type = "post-call"\n  url = "https://hooks.demo.example/post-call"`],
  ["wavix_sip_trunk.pbx", "acme-pbx", `label = "acme-pbx"`],
  ["wavix_sender_id.acme", "ACME", `sender_id = "ACME"\n  type = "alphanumeric"\n  countries = ["GB", "FR"]\n  usecase = "promo"`],
  ["wavix_ten_dlc_campaign_number.link", "B6AI7PA/CSIM001/15551230003", `brand_id = "B6AI7PA"\n  campaign_id = "CSIM001"\n  number = "15551230003"`],
  ["wavix_account_callbacks.account", "profile", ``],
];

const resourceBlock = (address: string, body: string, name = address.split(".")[1]): string => `resource "${address.split(".")[0]}" "${name}" {\n  ${body}\n}\n`;

function config(url: string, o: { importBlocks: boolean; moved?: boolean }): string {
  return `${providerBlock(url, "  account_id = 1000\n")}
${IMPORTS.map(([address, id, body]) => {
    const block = o.importBlocks ? `import {\n  to = ${address}\n  id = ${JSON.stringify(id)}\n}\n\n` : "";
    if (o.moved && address === "wavix_call_webhook.post_call") return `moved {\n  from = ${address}\n  to   = wavix_call_webhook.after_call\n}\n\n${resourceBlock(address, body, "after_call")}`;
    return block + resourceBlock(address, body);
  }).join("\n")}`;
}

const KEPT = ["id", "sub_account_id", "number", "event_type", "url", "label", "trunk_id", "login", "sender_id", "type", "countries", "usecase", "brand_id", "campaign_id", "adopted", "account_id"];
/** The state's resources as (address → the attributes an import decides), to compare the two ways of importing. */
function imported(project: TofuProject): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of project.state().resources.filter((x) => x.mode === "managed")) {
    const a = r.instances[0].attributes;
    out[`${r.type}.${r.name}`] = Object.fromEntries(KEPT.filter((k) => k in a).map((k) => [k, a[k]]));
  }
  return out;
}

const writes = (server: StrictServer, from: number): string[] => server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

/** The plan after an import: the Sender ID's usecase recorded in place (the strict server does not show it), nothing else. */
function expectOnlyUsecaseRecorded(stdout: string): void {
  expect(stdout).toMatch(/wavix_sender_id\.acme will be updated in-place/);
  expect(stdout).toMatch(/\+ usecase\s+= "promo"/);
  expect(stdout).not.toMatch(/must be replaced|will be created|will be destroyed/);
}

let fromBlocks: Record<string, Record<string, unknown>> | undefined;

describe.skipIf(unavailable !== undefined)("import blocks under the real OpenTofu", () => {
  let server: StrictServer;
  let project: TofuProject;
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    project = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, { "main.tf": config(server.url, { importBlocks: true }) });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    project?.remove();
  });

  it("imports one object of each kind by its documented id, sending no write; then plans no change", async () => {
    const mark = server.sim.log.length;
    const plan = await project.must(["plan", "-no-color", "-out=tfplan"]);
    expect(plan.stdout).toContain(`Plan: ${IMPORTS.length} to import, 0 to add, 1 to change, 0 to destroy.`);
    expectOnlyUsecaseRecorded(plan.stdout);
    expect(plan.stdout + plan.stderr).not.toContain(KEY);
    await project.must(["apply", "-no-color", "tfplan"]);
    expect(writes(server, mark)).toEqual([]);
    const again = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(writes(server, mark)).toEqual([]);
    const state = project.state();
    expect(state.resources.filter((r) => r.mode === "managed")).toHaveLength(IMPORTS.length);
    const sub = state.resources.find((r) => r.type === "wavix_sub_account")!.instances[0];
    expect(sub.attributes).toMatchObject({ id: "2001", sub_account_id: 2001, adopted: true, account_id: 1000 });
    const sender = state.resources.find((r) => r.type === "wavix_sender_id")!.instances[0];
    expect(sender.attributes).toMatchObject({ id: "3c7a5a90-43e0-43e0-b006-fdfea30c5a7c", sender_id: "ACME", usecase: "promo", adopted: true });
    fromBlocks = imported(project);
  }, LONG);

  it("destroy leaves every imported object as it is", async () => {
    const mark = server.sim.log.length;
    const r = await project.must(["destroy", "-no-color", "-auto-approve"]);
    expect(writes(server, mark)).toEqual([]);
    expect(r.stdout + r.stderr).toMatch(/this configuration adopted it/);
    expect(pulumiWordsIn(r.stdout + r.stderr)).toEqual([]);
    expect(server.sim.store.callWebhooks.get(server.sim.store.masterId)!.get("post-call")).toBe("https://hooks.demo.example/post-call");
    expect(server.sim.store.messaging.senderIds.has("3c7a5a90-43e0-43e0-b006-fdfea30c5a7c")).toBe(true);
    expect(project.state().resources.filter((x) => x.mode === "managed")).toEqual([]);
  }, LONG);
});

describe.skipIf(unavailable !== undefined)("tofu import under the real OpenTofu", () => {
  let server: StrictServer;
  let project: TofuProject;
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    project = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, { "main.tf": config(server.url, { importBlocks: false }) });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    project?.remove();
  });

  it("`tofu import ADDRESS ID` of each kind takes the same ids, sends no write and gives the state import blocks give", async () => {
    const mark = server.sim.log.length;
    for (const [address, id] of IMPORTS) {
      const r = await project.must(["import", "-no-color", address, id]);
      expect(r.stdout).toContain("Import successful!");
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
    expect(writes(server, mark)).toEqual([]);
    const plan = await project.must(["plan", "-no-color", "-detailed-exitcode"], [2]);
    expect(plan.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    expectOnlyUsecaseRecorded(plan.stdout);
    await project.must(["apply", "-no-color", "-auto-approve"]);
    expect(writes(server, mark)).toEqual([]);
    const again = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    if (fromBlocks) expect(imported(project)).toEqual(fromBlocks);
  }, LONG);

  it("a `moved` block renames an address with no change and no write", async () => {
    project.write({ "main.tf": config(server.url, { importBlocks: false, moved: true }) });
    const mark = server.sim.log.length;
    const plan = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    // A move alone is a change of state only: exit 2, "has moved to", nothing to add, change or destroy.
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/wavix_call_webhook\.post_call has moved to wavix_call_webhook\.after_call/);
    expect(plan.stdout).toContain("Plan: 0 to add, 0 to change, 0 to destroy.");
    await project.must(["apply", "-no-color", "-auto-approve"]);
    expect(writes(server, mark)).toEqual([]);
    expect(project.state().resources.map((r) => `${r.type}.${r.name}`)).toContain("wavix_call_webhook.after_call");
    const again = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, LONG);
});
