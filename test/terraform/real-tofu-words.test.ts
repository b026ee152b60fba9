/**
 * The kinds' messages under the real OpenTofu (test/helpers/real-tofu.ts) speak Terraform's words
 * (src/terraform/plugin/server.ts TERRAFORM_WORDS; src/kit/provider/words.ts): the refusals and
 * warnings a user acts on name the resource's attributes (`on_delete = "delete"`, `replace = true`,
 * `password`, `password_version`), the configuration, and OpenTofu's commands — never a Pulumi
 * command, stack config key (`wavix:…`), camelCase argument or stack. Against the strict server
 * seeded with the demo account: a password version with no password (refused at plan), a trunk with
 * no password (refused at create), an adopted webhook (the plan says the create adopts it; destroy
 * leaves it, saying how to opt in), a Sender ID changed without `replace = true` (refused at plan).
 * The pin and the blast radius: test/terraform/real-tofu-guard-rails.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { initialisedTofuProject, providerBlock, pulumiWordsIn, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-words-key-77a1";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu wording tests skipped: ${unavailable}\n`);
const LONG = 300_000;

const WEBHOOK = `resource "wavix_call_webhook" "post_call" {
  event_type = "post-call"
  url        = "https://hooks.demo.example/post-call"
}
`;
const trunk = (extra: string) => `resource "wavix_sip_trunk" "pbx" {
  label    = "tofu-words-pbx"
  callerid = "15551230001"
${extra}}
`;
const sender = (usecase: string) => `resource "wavix_sender_id" "words" {
  sender_id = "TOFUWORDS"
  type      = "alphanumeric"
  countries = ["GB"]
  usecase   = ${JSON.stringify(usecase)}
}
`;

let server: StrictServer;
let project: TofuProject;
const writes = (from: number): string[] => server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const main = (...blocks: string[]) => ({ "main.tf": `${providerBlock(server.url, "  account_id = 1000\n")}\n${blocks.join("\n")}` });

describe.skipIf(unavailable !== undefined)("the kinds' messages under the real OpenTofu", () => {
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
    project = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, main(trunk(`  password_version = "2"\n`)));
  }, LONG);

  afterAll(async () => {
    await server?.close();
    project?.remove();
  });

  it("a password version with no password is refused at plan, naming password_version and password", async () => {
    const r = await project.run(["plan", "-no-color"]);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(1);
    expect(out).toContain("password_version asks for the password to be sent again, but no password is given");
    expect(pulumiWordsIn(out)).toEqual([]);
  }, LONG);

  it("a trunk with no password is refused at create, saying to set password; an adopted webhook is said to be adopted", async () => {
    project.write(main(WEBHOOK, trunk("")));
    const plan = await project.must(["plan", "-no-color"]);
    expect(plan.stdout + plan.stderr).toMatch(/CallWebhook post-call: .*exists already: the create will adopt it, not make it; a destroy will leave it as it is \(on_delete = "delete" to delete it\)/);
    expect(pulumiWordsIn(plan.stdout + plan.stderr)).toEqual([]);
    const mark = server.sim.log.length;
    const r = await project.run(["apply", "-no-color", "-auto-approve"]);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(1);
    expect(out).toContain('SipTrunk "tofu-words-pbx": no password to create it with: set `password` on the resource (from a sensitive variable)');
    expect(pulumiWordsIn(out)).toEqual([]);
    expect(writes(mark).filter((w) => w.includes("/v1/trunks"))).toEqual([]);
  }, LONG);

  it("a Sender ID changed without replace = true is refused at plan, saying replace = true", async () => {
    project.write(main(WEBHOOK, sender("promo")));
    await project.must(["apply", "-no-color", "-auto-approve"]);
    project.write(main(WEBHOOK, sender("transactional")));
    const mark = server.sim.log.length;
    const r = await project.run(["plan", "-no-color"]);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(1);
    expect(out).toMatch(/Sender ID TOFUWORDS differs \(usecase\), but the API has no update: .*set `replace = true` on the resource to allow that/s);
    expect(pulumiWordsIn(out)).toEqual([]);
    expect(writes(mark)).toEqual([]);
  }, LONG);

  it("destroy leaves the adopted webhook, saying on_delete = \"delete\" opts in; deletes the Sender ID it made", async () => {
    project.write(main(WEBHOOK, sender("promo")));
    const mark = server.sim.log.length;
    const r = await project.must(["destroy", "-no-color", "-auto-approve"]);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(
      /CallWebhook post-call: left as it is, not deleted: this configuration adopted it \(it existed before the configuration took it on: found by its create, or imported\); set on_delete = "delete" on the resource for a delete to delete it/,
    );
    expect(pulumiWordsIn(out)).toEqual([]);
    const w = writes(mark);
    expect(w.some((x) => x.startsWith("DELETE /v3/messages/sender-ids/"))).toBe(true);
    expect(w.some((x) => x.includes("webhooks"))).toBe(false);
  }, LONG);
});
