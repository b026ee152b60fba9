/**
 * `import` under the real OpenTofu (test/helpers/real-tofu.ts) against the strict server seeded with
 * the demo account: `import` blocks for one object of each kind, by the ids `pulumi import` takes
 * (docs/TERRAFORM.md, "Import ids"); importing sends no write; then a plan with no changes
 * (`-detailed-exitcode` 0); and destroy leaves every imported object as it is (an import adopts).
 *
 * Left out: the Sender ID. The strict server does not show a Sender ID's `usecase` (the official
 * answer does not require it), so an import cannot know it, and a configuration declaring it is a
 * replacement to the kind (docs/TERRAFORM.md, "Import ids").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { providerBlock, initialisedTofuProject, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-import-key-41d7";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu import tests skipped: ${unavailable}\n`);
const LONG = 300_000;

const IMPORTS: [address: string, id: string, body: string][] = [
  ["wavix_sub_account.support", "Acme Support", `name = "Acme Support"`],
  ["wavix_phone_number.main", "15551230001", `number = "15551230001"`],
  ["wavix_call_webhook.post_call", "post-call", `event_type = "post-call"\n  url = "https://hooks.demo.example/post-call"`],
  ["wavix_sip_trunk.pbx", "acme-pbx", `label = "acme-pbx"`],
  ["wavix_ten_dlc_campaign_number.link", "B6AI7PA/CSIM001/15551230003", `brand_id = "B6AI7PA"\n  campaign_id = "CSIM001"\n  number = "15551230003"`],
  ["wavix_account_callbacks.account", "profile", ``],
];

function config(url: string): string {
  return `${providerBlock(url, "  account_id = 1000\n")}
${IMPORTS.map(([address, id, body]) => {
    const [type, name] = address.split(".");
    return `import {\n  to = ${address}\n  id = ${JSON.stringify(id)}\n}\n\nresource "${type}" "${name}" {\n  ${body}\n}\n`;
  }).join("\n")}`;
}

let server: StrictServer;
let project: TofuProject;
const writes = (from: number): string[] => server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

describe.skipIf(unavailable !== undefined)("import under the real OpenTofu", () => {
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    project = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, { "main.tf": config(server.url) });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    project?.remove();
  });

  it("imports one object of each kind by its documented id, sending no write; then plans no change", async () => {
    const mark = server.sim.log.length;
    const plan = await project.must(["plan", "-no-color", "-out=tfplan"]);
    expect(plan.stdout).toContain(`Plan: ${IMPORTS.length} to import, 0 to add, 0 to change, 0 to destroy.`);
    expect(plan.stdout + plan.stderr).not.toContain(KEY);
    await project.must(["apply", "-no-color", "tfplan"]);
    expect(writes(mark)).toEqual([]);
    const again = await project.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(writes(mark)).toEqual([]);
    const state = project.state();
    expect(state.resources.filter((r) => r.mode === "managed")).toHaveLength(IMPORTS.length);
    const sub = state.resources.find((r) => r.type === "wavix_sub_account")!.instances[0];
    expect(sub.attributes).toMatchObject({ id: "2001", sub_account_id: 2001, adopted: true, account_id: 1000 });
  }, LONG);

  it("destroy leaves every imported object as it is", async () => {
    const mark = server.sim.log.length;
    const r = await project.must(["destroy", "-no-color", "-auto-approve"]);
    expect(writes(mark)).toEqual([]);
    expect(r.stdout + r.stderr).toMatch(/adopted/);
    expect(server.sim.store.callWebhooks.get(server.sim.store.masterId)!.get("post-call")).toBe("https://hooks.demo.example/post-call");
    expect(project.state().resources.filter((x) => x.mode === "managed")).toEqual([]);
  }, LONG);
});
