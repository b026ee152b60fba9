/**
 * `wavix-sync show PLANFILE` (issue #36, Terraform's `show`): a plan saved by `plan --save` against
 * the real simulator over HTTP, then shown offline — no key, no server — as text, JSON and Markdown,
 * each the same plan `plan` printed; a damaged plan is refused in one line.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "show-key-5f2a91";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const FILE = `version: 1
numbers:
  - number: "15551230002"
    sms_enabled: true
call_webhooks:
  post-call: https://hooks.acme.example/post-call
`;

async function saved(): Promise<{ dir: string; planFile: string; plan: { stdout: string } }> {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
  const dir = scratch();
  writeYaml(dir, "wavix.yaml", FILE);
  const plan = await runCli(["plan", "--save", "wavix.plan"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url }, dir);
  expect(plan.code).toBe(0);
  return { dir, planFile: join(dir, "wavix.plan"), plan };
}

describe("wavix-sync show PLANFILE", () => {
  it("prints the saved plan as plan printed it, under what it was made against; needs no key and sends no request", async () => {
    const { dir, plan } = await saved();
    const before = sim!.log.length;
    const r = await runCli(["show", "wavix.plan"], {}, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const digest = JSON.parse(readFileSync(join(dir, "wavix.plan"), "utf8")).digest as string;
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([
      `Saved plan ${digest}`,
      expect.stringMatching(new RegExp(`^  made \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z by wavix-sync \\S+, for account 1000 at ${sim!.url.replace(/[.]/g, "\\.")}$`)),
      expect.stringMatching(/^ {2}from wavix\.yaml \(sha256:[0-9a-f]{64}\)$/),
    ]);
    // The plan itself: the very lines `plan --save` printed.
    expect(r.stdout.endsWith(plan.stdout)).toBe(true);
    expect(plan.stdout).toContain('~ number "15551230002"');
    expect(sim!.log.length).toBe(before);
  });

  it("--json: plan --json's object, with saved_plan naming what it was made against", async () => {
    const { dir } = await saved();
    const fresh = JSON.parse((await runCli(["plan", "--json"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim!.url }, dir)).stdout);
    const r = await runCli(["show", "wavix.plan", "--json"], {}, dir);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown.changes).toEqual(fresh.changes);
    expect(shown.summary).toEqual(fresh.summary);
    expect(shown.saved_plan).toMatchObject({ target: { account: "1000", base_url: sim!.url }, file: { path: "wavix.yaml" }, prune: false });
    expect(shown.saved_plan.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("--format md: the pull-request comment, naming the account and the API root", async () => {
    const { dir } = await saved();
    const r = await runCli(["show", "wavix.plan", "--format", "md"], {}, dir);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[1]).toContain("— account 1000 at");
    expect(r.stdout).toContain("**Plan: 0 to create, 2 to update, 0 to delete");
  });

  it("a plan changed after it was saved, or no plan at all: one line, exit 1", async () => {
    const { dir, planFile } = await saved();
    const doc = JSON.parse(readFileSync(planFile, "utf8"));
    doc.plan.changes[0].key = "15559999999";
    writeFileSync(planFile, JSON.stringify(doc));
    const r = await runCli(["show", "wavix.plan"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("Error: this saved plan's contents do not match its digest: it was changed or damaged after it was saved. Make the plan again; nothing to show.\n");
    const none = await runCli(["show", "nope.plan"], {}, dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("Error: cannot read nope.plan: no such file.\n");
  });
});
