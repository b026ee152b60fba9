/**
 * No write from a configuration with problems, under the real OpenTofu (test/helpers/real-tofu.ts),
 * against the strict server (docs/GUARD-RAILS.md, the table's "no write from a plan with problems"
 * column): values the kinds refuse (a sub-account status that is not one, a callback URL that is not
 * an https URL, a number that is not E.164) fail `tofu plan` and `tofu apply` naming the resource and
 * the attribute, with zero writes and nothing in the state — also for the valid resources beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { providerBlock, initialisedTofuProject, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-problems-key-61ad";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu problem tests skipped: ${unavailable}\n`);
const LONG = 300_000;

let server: StrictServer;
const projects: TofuProject[] = [];
const writes = (from: number): string[] => server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

describe.skipIf(unavailable !== undefined)("a configuration with problems under the real OpenTofu", () => {
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    for (const p of projects) p.remove();
  });

  it("values the kinds refuse fail plan and apply, naming each resource's attribute, with zero writes and no state", async () => {
    const main = `${providerBlock(server.url, "")}
resource "wavix_sub_account" "ok" {
  name = "Tofu Problems Fine"
}

resource "wavix_sub_account" "paused" {
  name   = "Tofu Problems Paused"
  status = "paused"
}

resource "wavix_phone_number" "bad_url" {
  number            = "15551230001"
  call_status_url   = "ftp://hooks.example.com/status"
}
`;
    const p = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, { "main.tf": main });
    projects.push(p);
    const mark = server.sim.log.length;
    const plan = await p.run(["plan", "-no-color"]);
    const planOut = plan.stdout + plan.stderr;
    expect(plan.code, planOut).not.toBe(0);
    expect(planOut).toMatch(/wavix_sub_account\.paused/);
    expect(planOut).toMatch(/status/);
    expect(planOut).toMatch(/wavix_phone_number\.bad_url/);
    expect(planOut).toMatch(/call_status_url/);
    const apply = await p.run(["apply", "-no-color", "-auto-approve"]);
    expect(apply.code, apply.stdout + apply.stderr).not.toBe(0);
    expect(writes(mark)).toEqual([]);
    expect([...server.sim.store.subAccounts.values()].filter((a) => String(a.data.name).startsWith("Tofu Problems"))).toEqual([]);
    expect(p.state().resources.filter((x) => x.mode === "managed")).toEqual([]);
    expect(planOut + apply.stdout + apply.stderr).not.toContain(KEY);
  }, LONG);
});
