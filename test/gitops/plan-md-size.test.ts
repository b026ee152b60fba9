/**
 * `plan --format md` stays within 60,000 characters whatever the plan (issue #20): identical
 * changes grouped, the first items listed, "… and N more", totals always, a pointer to the JSON
 * report. A property over random plans, and 10,000 changed numbers through the CLI against the
 * strict simulator.
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { startSimulator, type Simulator } from "../../src/simulator";
import { formatApplyMarkdown, formatFailureMarkdown, formatPlanMarkdown, MD_MAX_CHARS, type ApplyResult, type Plan, type PlannedChange } from "../../src/plan";
import { join } from "node:path";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "md-size-key-3b8e";

function planOf(changes: PlannedChange[], extra: Partial<Plan> = {}): Plan {
  const summary = { create: 0, update: 0, delete: 0, unchanged: 5 };
  for (const c of changes) summary[c.action]++;
  return { changes, unmanaged: [], problems: [], summary, ...extra };
}

const numberChange = (i: number, after: unknown = true): PlannedChange => ({
  kind: "number",
  key: `1555${String(i).padStart(7, "0")}`,
  action: "update",
  diff: [{ path: "sms_enabled", before: false, after }],
});

describe("Markdown within the bound", () => {
  it("10,000 identical number changes: one grouped line, the first keys, how many more, totals, the pointer", () => {
    const plan = planOf(Array.from({ length: 10_000 }, (_, i) => numberChange(i + 1)));
    const md = formatPlanMarkdown(plan, "wavix.yaml");
    expect(md.length).toBeLessThanOrEqual(MD_MAX_CHARS);
    // Counts read one way everywhere (never "10000" beside "10,000").
    expect(md).toContain("**Plan: 0 to create, 10,000 to update, 0 to delete, 5 unchanged.**");
    expect(md).toContain("| **Total** | 0 | 10,000 | 0 | 5 |");
    expect(md).toContain("| number | 0 | 10,000 | 0 |  |");
    expect(md).toContain("- **10,000 numbers** update: `sms_enabled` `false` → `true`");
    expect(md).toContain("`15550000001`, `15550000002`");
    expect(md).toContain("… and 9,990 more");
    expect(md).toContain("Every change is in the JSON report: `wavix-sync plan --format json`");
  });

  it("a small plan keeps one block per change and no pointer", () => {
    const md = formatPlanMarkdown(planOf([numberChange(1), numberChange(2)]), "wavix.yaml");
    expect(md.match(/<details>/g)).toHaveLength(2);
    expect(md).not.toContain("JSON report");
  });

  it("any plan (changes all different, problems, unmanaged, failures) stays within the bound, with totals", () => {
    const text = fc.string({ maxLength: 300 });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        text,
        (n, variants, problems, unmanaged, value) => {
          const changes = Array.from({ length: n }, (_, i) => numberChange(i, `${value}-${i % variants}`));
          const plan = planOf(changes, {
            problems: Array.from({ length: problems }, (_, i) => ({ kind: "number" as const, key: `1666${i}`, message: `not owned ${value}` })),
            unmanaged: Array.from({ length: unmanaged }, (_, i) => ({ kind: "sub_account" as const, key: `${value} ${i}` })),
          });
          const result: ApplyResult = {
            results: changes.map((c, i) => ({ kind: c.kind, key: c.key, action: c.action, outcome: i % 2 ? "ok" : "failed", error: value })),
            pending: changes.slice(0, 100).map((c) => c.key),
            ok: false,
          };
          for (const md of [
            formatPlanMarkdown(plan, "wavix.yaml"),
            formatApplyMarkdown(plan, result, "wavix.yaml"),
            formatFailureMarkdown({ command: "apply", file: "wavix.yaml", stage: "apply", problems: [value], plan }),
          ]) {
            expect(md.length).toBeLessThanOrEqual(MD_MAX_CHARS);
            expect(md).toContain(`| **Total** | 0 | ${n.toLocaleString("en-US")} | 0 | 5 |`);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("through the CLI", () => {
  it("plan --format md of 10,000 changed numbers against the simulator fits, grouped", async () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, number: `1555${String(i + 1).padStart(7, "0")}`, sms_enabled: false }));
    sim = await startSimulator({ port: 0, seed: { numbers }, apiKeys: [{ key: KEY }] });
    const yaml = `version: 1\nnumbers:\n${numbers.map((n) => `  - { number: "${n.number}", sms_enabled: true }`).join("\n")}\n`;
    const f = writeYaml(scratch(), "wavix.yaml", yaml);
    const r = await runCli(["plan", "-f", f, "--format", "md"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(MD_MAX_CHARS);
    expect(r.stdout).toContain("- **10,000 numbers** update: `sms_enabled` `false` → `true`");
    expect(r.stdout).toContain("… and 9,990 more");
    expect(r.stdout).toContain("| **Total** | 0 | 10,000 | 0 | 0 |");
    // The terminal's plan counts the same way as the comment: "10,000", never "10000".
    const text = await runCli(["plan", "-f", f], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(text.stdout).toContain("Plan: 0 to create, 10,000 to update, 0 to delete, 0 unchanged.");
    const out = join(scratch(), "wavix.yaml");
    const exported = await runCli(["export", "--out", out], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(exported.stderr).toContain(`Wrote ${out} (0 sub-accounts, 10,000 numbers).`);
  }, 60_000);
});
