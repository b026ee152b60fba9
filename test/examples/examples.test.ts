/**
 * Every example runs cleanly against the demo account (the one `npm start` uses), in any order
 * (issue #14): on a fresh demo simulator, each file of examples/*.yaml is applied in turn
 * (exit 0) and then plans clean (exit 0 with --detailed-exitcode), whatever was applied before
 * it; nothing one example created is renamed or disabled by another. examples/pulumi and
 * examples/ci hold no desired-state files of their own here.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SIM_API_KEY, startSimulator, type Simulator } from "../../src/simulator";
import { loadDesiredState } from "../../src/config";
import { ROOT, runCli } from "../helpers/cli";

const EXAMPLES = join(ROOT, "examples");
const files = readdirSync(EXAMPLES)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

/** Every order for up to 3 files; beyond that, every rotation (each file first and after each other). */
function orders(list: string[]): string[][] {
  if (list.length > 3) return list.map((_, i) => [...list.slice(i), ...list.slice(0, i)]);
  if (list.length <= 1) return [list];
  return list.flatMap((f, i) => orders([...list.slice(0, i), ...list.slice(i + 1)]).map((rest) => [f, ...rest]));
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("examples against the demo account", () => {
  it("there are examples to run", () => {
    expect(files).toEqual(expect.arrayContaining(["wavix.yaml", "multi-tenant.yaml"]));
  });

  for (const order of orders(files)) {
    it(`apply then plan clean, in the order ${order.join(" → ")}`, async () => {
      sim = await startSimulator({ port: 0, seed: "demo", asyncDelayMs: 20 });
      // The trunks' password_env variables, set as a user sets them: every trunk update carries its
      // password (the API requires it with each PUT), so sip-trunks.yaml's apply reads them.
      const env = { WAVIX_API_KEY: DEFAULT_SIM_API_KEY, WAVIX_BASE_URL: sim.url, ACME_PBX_PASSWORD: "Acme-pbx-Secret-2026", OFFICE_PHONES_PASSWORD: "Office-phones-Secret-2026" };
      for (const f of order) {
        const file = join(EXAMPLES, f);
        const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "10"], env);
        expect({ file: f, code: a.code, stderr: a.stderr }).toEqual({ file: f, code: 0, stderr: "" });
        const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
        expect({ file: f, code: p.code, stderr: p.stderr }).toEqual({ file: f, code: 0, stderr: "" });
        expect(p.stdout).toMatch(/^No changes\. The account matches /);
      }
      // What each example declares is there once, under its own name: no example's pin or
      // prune took over another's sub-account.
      const names = [...sim.store.subAccounts.values()].map((r) => r.data.name);
      for (const f of order) {
        const r = loadDesiredState(join(EXAMPLES, f));
        if (!r.ok) throw new Error(`${f} is invalid`);
        for (const s of r.state.sub_accounts ?? []) expect(names.filter((n) => n === s.name), `${f}: ${s.name}`).toHaveLength(1);
      }
      const last = loadDesiredState(join(EXAMPLES, order[order.length - 1]));
      if (!last.ok) throw new Error("invalid");
      for (const s of last.state.sub_accounts ?? []) {
        if (!s.status) continue;
        const rec = [...sim.store.subAccounts.values()].find((x) => x.data.name === s.name)!;
        expect(rec.data.status, s.name).toBe(s.status);
      }
    });
  }
});
