/**
 * The write gate under the REAL Pulumi engine (issue #33 items 1 and 2; docs/GUARD-RAILS.md):
 * test/helpers/real-pulumi.ts `RealStack` (the CLI built from its Go module, a file backend, the
 * root `Pulumi.yaml`'s program on the dynamic provider) against the simulator, writes counted from
 * its own request log.
 *
 * - Blast radius per deployment: 22 adopted sub-accounts disabled in one edit. The review saw 22
 *   PUTs in one `pulumi up`; now the preview (`pulumi up` with its preview, as users run it) fails
 *   before any write naming `wavix:maxDestructive` and `wavix:force`; an `up --skip-preview` makes
 *   at most the limit's 20 destructive writes and refuses the next; `wavix:force true` lets the
 *   rest through.
 * - The file's account_id with no `wavix:accountId`: nothing is declared, nothing written.
 */
import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { EngineError, RealStack, engineUnavailable } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";

const KEY = "real-engine-gate-key-3Rk9";
const LONG = 600_000;
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine gate tests skipped: ${unavailable}\n`);

const projects: TempProject[] = [];
const sims: Simulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.close();
  for (const p of projects) p.remove();
});

const writes = (s: Simulator, from = 0): string[] => s.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const NAMES = Array.from({ length: 22 }, (_, i) => `Tenant ${String(i + 1).padStart(2, "0")}`);
const fileWith = (status: string, head = "") => `version: 1\n${head}sub_accounts:\n${NAMES.map((n) => `  - name: ${n}\n    status: ${status}\n`).join("")}`;

async function simulator(): Promise<Simulator> {
  const s = await startSimulator({
    port: 0,
    seed: { numbers: [], subAccounts: NAMES.map((name, i) => ({ id: 501 + i, name, api_key: `gate-sub-key-${i}-x9Q` })) },
    apiKeys: [{ key: KEY }],
  });
  sims.push(s);
  return s;
}

function stackFor(s: Simulator, file: string): { stack: RealStack; project: TempProject } {
  const project = checkoutProject({ "wavix.yaml": file });
  projects.push(project);
  const stack = new RealStack({
    projectDir: project.dir,
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": s.url },
    secretKeys: ["wavix:apiKey"],
    env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
  });
  return { stack, project };
}

describe.skipIf(unavailable !== undefined)("the write gate under the real engine", () => {
  it("22 sub-accounts disabled in one deployment: the preview fails before any write; an up stops at 20; wavix:force lets the rest through", async () => {
    const sim = await simulator();
    const { stack, project } = stackFor(sim, fileWith("enabled"));
    await stack.up(); // adopts the 22, as they are
    expect(writes(sim)).toEqual([]);

    writeFileSync(join(project.dir, "wavix.yaml"), fileWith("disabled"));
    const at = sim.log.length;
    // What users run: `pulumi up` with its preview. The preview's diffs pass the limit: no write.
    const previewed = await stack.upWithPreview().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(previewed).toBeInstanceOf(EngineError);
    expect(String((previewed as Error).message)).toMatch(/not planned: it would be destructive change 21 of this deployment, past the limit of 20 \(wavix:maxDestructive\)/);
    expect(String((previewed as Error).message)).toContain("wavix:force");
    expect(writes(sim, at)).toEqual([]); // the review saw 22 PUTs

    // Without the preview: at most the limit's 20 destructive writes, the next refused.
    const skipped = await stack.up().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(skipped).toBeInstanceOf(EngineError);
    const puts = writes(sim, at).filter((w) => w.startsWith("PUT /v1/sub-organizations/"));
    expect(puts.length).toBeLessThanOrEqual(20);
    expect([...sim.store.subAccounts.values()].filter((r) => r.data.status === "disabled").length).toBeLessThanOrEqual(20);

    // The override, for one run.
    stack.setConfig("wavix:force", "true");
    await stack.up();
    expect([...sim.store.subAccounts.values()].filter((r) => r.data.status === "disabled").length).toBe(22);
  }, LONG);

  it("the file pins account_id and wavix:accountId is not set: nothing declared, nothing written", async () => {
    const sim = await simulator();
    const { stack } = stackFor(sim, fileWith("disabled", "account_id: 1000\n"));
    const failed = await stack.up().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(EngineError);
    expect(String((failed as Error).message)).toContain("pulumi config set wavix:accountId 1000");
    expect(writes(sim)).toEqual([]);
  }, LONG);
});
