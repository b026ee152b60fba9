/**
 * The write gate's rails under the real OpenTofu (test/helpers/real-tofu.ts), against the strict
 * server seeded with the demo account (master account 1000), as docs/TERRAFORM.md "Guard rails"
 * states them:
 *  - `account_id` naming another account than the key's: refused, zero writes, the message naming
 *    `account_id` in the provider block and both accounts;
 *  - a configuration disabling more sub-accounts than `max_destructive`: refused at plan (the kind's
 *    diff counts each destructive update), zero writes, naming the limit and `force`;
 *    with `force = true` they all go, each past the limit a warning;
 *  - a destroy disabling more than `max_destructive`: refused at apply at the change past the limit,
 *    no write past it (deletes are counted at apply: Terraform plans a destroy without the provider).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSeed } from "../../src/simulator/demo";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";
import { providerBlock, initialisedTofuProject, pulumiWordsIn, tofuUnavailable, type TofuProject } from "../helpers/real-tofu";

const KEY = "tofu-gate-key-5e02";
const unavailable = tofuUnavailable();
if (unavailable) process.stdout.write(`real OpenTofu guard-rail tests skipped: ${unavailable}\n`);
const LONG = 300_000;
const NAMES = ["Tofu Gate 1", "Tofu Gate 2", "Tofu Gate 3"];

function config(url: string, o: { status: "enabled" | "disabled"; extra?: string }): string {
  return `${providerBlock(url, o.extra ?? "")}
${NAMES.map((name, i) => `resource "wavix_sub_account" "t${i}" {\n  name   = ${JSON.stringify(name)}\n  status = ${JSON.stringify(o.status)}\n}\n`).join("\n")}`;
}

let server: StrictServer;
const projects: TofuProject[] = [];
const writes = (from: number): string[] => server.sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const statusOf = (name: string): string | undefined => [...server.sim.store.subAccounts.values()].find((a) => a.data.name === name)?.data.status;

async function project(mainTf: string): Promise<TofuProject> {
  const p = await initialisedTofuProject({ TF_VAR_wavix_api_key: KEY }, { "main.tf": mainTf });
  projects.push(p);
  return p;
}

describe.skipIf(unavailable !== undefined)("the write gate under the real OpenTofu", () => {
  beforeAll(async () => {
    server = await startStrictServer({ port: 0, seed: demoSeed(), apiKeys: [{ key: KEY }] });
  }, LONG);

  afterAll(async () => {
    await server?.close();
    for (const p of projects) p.remove();
  });

  it("an account_id pin that is not the key's account refuses the apply with zero writes", async () => {
    const p = await project(config(server.url, { status: "enabled", extra: "  account_id = 1001\n" }));
    const mark = server.sim.log.length;
    const r = await p.run(["apply", "-no-color", "-auto-approve"]);
    const out = r.stdout + r.stderr;
    expect(r.code, out).not.toBe(0);
    expect(writes(mark)).toEqual([]);
    expect(out).toContain('account_id in the provider "wavix" block pins account 1001');
    expect(out).toContain("belongs to account 1000");
    expect(pulumiWordsIn(out)).toEqual([]);
    expect(out).not.toContain(KEY);
    expect(p.state().resources.filter((x) => x.mode === "managed")).toEqual([]);
  }, LONG);

  it("more destructive changes than max_destructive: the plan is refused with zero writes, force lets them through, a destroy stops at the limit", async () => {
    const limit = "  account_id      = 1000\n  max_destructive = 2\n";
    const p = await project(config(server.url, { status: "enabled", extra: limit }));
    await p.must(["apply", "-no-color", "-auto-approve"]);
    for (const n of NAMES) expect(statusOf(n)).toBe("enabled");

    // Three disables in one configuration, limit 2: refused at plan, nothing written.
    p.write({ "main.tf": config(server.url, { status: "disabled", extra: limit }) });
    let mark = server.sim.log.length;
    const plan = await p.run(["plan", "-no-color"]);
    const planOut = plan.stdout + plan.stderr;
    expect(plan.code, planOut).not.toBe(0);
    expect(planOut).toMatch(/destructive change 3 of this deployment, past the limit of 2 \(max_destructive in the provider "wavix" block\)/);
    expect(planOut).toContain("force = true");
    expect(pulumiWordsIn(planOut)).toEqual([]);
    const apply = await p.run(["apply", "-no-color", "-auto-approve"]);
    expect(apply.code, apply.stdout + apply.stderr).not.toBe(0);
    expect(writes(mark)).toEqual([]);
    for (const n of NAMES) expect(statusOf(n)).toBe("enabled");

    // force = true: all three go, the one past the limit said as a warning.
    p.write({ "main.tf": config(server.url, { status: "disabled", extra: `${limit}  force           = true\n` }) });
    mark = server.sim.log.length;
    const forced = await p.must(["apply", "-no-color", "-auto-approve"]);
    expect(forced.stdout + forced.stderr).toMatch(/destructive change 3, past the limit of 2, allowed/);
    for (const n of NAMES) expect(statusOf(n)).toBe("disabled");
    expect(writes(mark)).toHaveLength(3);

    // Enabled again (not destructive); then a destroy disables what the configuration made: the third is past the limit.
    p.write({ "main.tf": config(server.url, { status: "enabled", extra: limit }) });
    await p.must(["apply", "-no-color", "-auto-approve"]);
    for (const n of NAMES) expect(statusOf(n)).toBe("enabled");
    mark = server.sim.log.length;
    const destroy = await p.run(["destroy", "-no-color", "-auto-approve"]);
    const destroyOut = destroy.stdout + destroy.stderr;
    expect(destroy.code, destroyOut).not.toBe(0);
    expect(destroyOut).toMatch(/not written: it would be destructive change 3 of this deployment, past the limit of 2 \(max_destructive in the provider "wavix" block\); nothing of it was written/);
    expect(destroyOut).toContain("force = true");
    expect(pulumiWordsIn(destroyOut)).toEqual([]);
    expect(NAMES.filter((n) => statusOf(n) === "disabled")).toHaveLength(2);
    expect(writes(mark)).toHaveLength(2);
    expect(p.state().resources.filter((x) => x.mode === "managed")).toHaveLength(1);
  }, LONG);
});
