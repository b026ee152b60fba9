/**
 * `plan --format md` stays within 60,000 characters whatever the plan (issue #20): identical
 * changes grouped, the first items listed, "… and N more", totals always, a pointer to the JSON
 * report. A property over random plans, and 10,000 changed numbers through the CLI against the
 * strict simulator.
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { startSimulator, type Simulator } from "../../src/simulator";
import { formatApplyMarkdown, formatFailureMarkdown, formatPlanMarkdown, MD_MAX_CHARS, OPEN_BLOCKS_UP_TO, type ApplyResult, type Plan, type PlannedChange } from "../../src/plan";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "md-size-key-3b8e";

function planOf(changes: PlannedChange[], extra: Partial<Plan> = {}): Plan {
  const summary = { create: 0, update: 0, replace: 0, delete: 0, unchanged: 5, destructive: 0 };
  for (const c of changes) {
    summary[c.action]++;
    if (c.action === "delete" || c.action === "replace" || (c.effects?.length ?? 0) > 0) summary.destructive++;
  }
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
    expect(md).toContain("| **Total** | 0 | 10,000 | 0 | 0 | 5 | 0 |");
    expect(md).toContain("| number | 0 | 10,000 | 0 | 0 |  | 0 |");
    expect(md).toContain("- **10,000 numbers** update: `sms_enabled` `false` → `true`");
    expect(md).toContain("`15550000001`, `15550000002`");
    expect(md).toContain("… and 9,990 more");
    expect(md).toContain("Every change is in the JSON report: `wavix-sync plan --format json`");
  });

  it("a small plan keeps one block per change, shown open, and no pointer", () => {
    const md = formatPlanMarkdown(planOf([numberChange(1), numberChange(2)]), "wavix.yaml");
    expect(md.match(/<details open>/g)).toHaveLength(2);
    expect(md).not.toContain("<details>");
    expect(md).not.toContain("JSON report");
  });

  it(`one change reads at a glance (its block open); past ${OPEN_BLOCKS_UP_TO} changes the blocks are collapsed`, () => {
    const one = formatPlanMarkdown(planOf([numberChange(1)]), "wavix.yaml");
    expect(one).toContain("<details open>\n<summary><code>~</code> update number <code>15550000001</code> — 1 field</summary>");
    const many = formatPlanMarkdown(planOf(Array.from({ length: OPEN_BLOCKS_UP_TO + 1 }, (_, i) => numberChange(i + 1))), "wavix.yaml");
    expect(many.match(/<details>/g)).toHaveLength(OPEN_BLOCKS_UP_TO + 1);
    expect(many).not.toContain("<details open>");
  });

  it("the table has a row only for a kind with a change; the unchanged ones are named under it", () => {
    const plan = planOf([numberChange(1)]);
    plan.unchangedByKind = { number: 3, call_webhook: 2 } as Plan["unchangedByKind"];
    const md = formatPlanMarkdown(plan, "wavix.yaml");
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Kind") && !l.startsWith("| ---") && !l.startsWith("| Field") && !l.startsWith("| `"));
    expect(rows).toEqual(["| number | 0 | 1 | 0 | 0 | 3 | 0 |", expect.stringMatching(/^\| \*\*Total\*\* \|/)]);
    expect(md).toContain("\nUnchanged: 2 call webhooks, 3 numbers.\n");
  });

  it("shortened with a saved plan, it points to the saved plan the pipelines keep, and how to read it", () => {
    const plan = { ...planOf(Array.from({ length: 10_000 }, (_, i) => numberChange(i + 1))), saved: { digest: `sha256:${"a".repeat(64)}` } };
    const md = formatPlanMarkdown(plan, "wavix.yaml", { savedPlan: "wavix.plan" });
    expect(md).toContain("Every change is in the saved plan `wavix.plan`, kept with this run's artifacts: `wavix-sync show wavix.plan` prints it whole._");
    expect(md).not.toContain("JSON report");
    // The example pipelines keep that file as an artifact.
    for (const f of ["examples/ci/github/wavix-plan.yml", "examples/ci/github/wavix-apply.yml", "examples/ci/github/wavix-scheduled.yml", "examples/ci/gitlab/.gitlab-ci.yml"]) {
      const text = readFileSync(join(ROOT, f), "utf8");
      expect(text, f).toMatch(/--save (wavix|drift)\.plan|--plan reviewed\/wavix\.plan/);
    }
    const gitlab = readFileSync(join(ROOT, "examples/ci/gitlab/.gitlab-ci.yml"), "utf8");
    expect(gitlab).toContain("paths: [drift.md, drift.plan, drift.exitcode]");
    expect(gitlab).toContain("paths: [plan.md, plan.err, plan.exitcode, wavix.plan, wavix.yaml.sha256]");
    expect(gitlab).toContain("paths: [apply.md, reviewed/wavix.plan, not-applied.txt]");
    const scheduled = readFileSync(join(ROOT, "examples/ci/github/wavix-scheduled.yml"), "utf8");
    expect(scheduled).toMatch(/name: wavix-drift\n\s+path: \|\n\s+drift\.md\n\s+drift\.plan/);
    const apply = readFileSync(join(ROOT, "examples/ci/github/wavix-apply.yml"), "utf8");
    expect(apply).toMatch(/name: wavix-apply\n\s+path: \|\n\s+apply\.md\n\s+reviewed\/wavix\.plan/);
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
            // Totals always: the table's row, or with no change at all, the verdict (no table of zeros, issue #36).
            if (n > 0) expect(md).toContain(`| **Total** | 0 | ${n.toLocaleString("en-US")} | 0 | 0 | 5 | 0 |`);
            else expect(md).toMatch(/\*\*No changes\.\*\* The account matches wavix\.yaml \(5 unchanged\)\./);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("destructive changes in the Markdown (issue #29 item 4)", () => {
  const disable = (i: number): PlannedChange => ({
    kind: "sub_account",
    key: `Tenant ${String(i).padStart(4, "0")}`,
    action: "update",
    diff: [{ path: "status", before: "enabled", after: "disabled" }],
    effects: ["disable"],
  });

  it("a huge plan: every destructive change listed first, one line each, never collapsed; the rest still fits the budget", () => {
    const destructive = Array.from({ length: 300 }, (_, i) => disable(i));
    // 10,000 other changes, all different, so grouping cannot make them fit: they are cut.
    const others = Array.from({ length: 10_000 }, (_, i) => numberChange(i, `https://hooks.example/${i}`));
    const plan = planOf([...others, ...destructive]);
    const md = formatPlanMarkdown(plan, "wavix.yaml", { target: { baseUrl: "https://api.wavix.com", account: "1000" } });
    expect(md.length).toBeLessThanOrEqual(MD_MAX_CHARS);
    expect(md.split("\n")[1]).toBe("### wavix-sync plan for wavix.yaml — account 1000 at https://api.wavix.com");
    expect(md).toContain("**Plan: 0 to create, 10,300 to update, 0 to delete, 5 unchanged; 300 destructive.**");
    const section = md.indexOf("**300 destructive changes**");
    expect(section).toBeGreaterThan(0);
    for (const c of destructive) expect(md).toContain(`- :warning: **disable**: sub_account \`${c.key}\` (update): \`status\` \`"enabled"\` → \`"disabled"\``);
    // First: before the table and every other change; none of them inside a collapsed block.
    expect(section).toBeLessThan(md.indexOf("| Kind |"));
    expect(md.lastIndexOf(":warning: **disable**")).toBeLessThan(md.indexOf("| Kind |"));
    expect(md).not.toMatch(/<summary>[^\n]*sub_account/);
    expect(md).toContain("more (every change is in the JSON report)");
  });

  it("destructive changes too many to list one by one are grouped, then cut, and the document still fits", () => {
    const destructive = Array.from({ length: 20_000 }, (_, i) => disable(i));
    const md = formatPlanMarkdown(planOf(destructive), "wavix.yaml");
    expect(md.length).toBeLessThanOrEqual(MD_MAX_CHARS);
    expect(md).toContain("**20,000 destructive changes**");
    expect(md).toContain("- :warning: **20,000 sub-accounts** update: `status` `\"enabled\"` → `\"disabled\"`");
    expect(md).toContain("… and 19,990 more");
  });

  it("any plan: the destructive changes come first and, while they fit the budget, every one is listed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 5000 }), (d, n) => {
        const destructive = Array.from({ length: d }, (_, i) => disable(i));
        const md = formatPlanMarkdown(planOf([...Array.from({ length: n }, (_, i) => numberChange(i, `v${i}`)), ...destructive]), "wavix.yaml");
        expect(md.length).toBeLessThanOrEqual(MD_MAX_CHARS);
        expect((md.match(/^- :warning: \*\*disable\*\*/gm) ?? []).length).toBe(d);
      }),
      { numRuns: 15 },
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
    expect(r.stdout).toContain("| **Total** | 0 | 10,000 | 0 | 0 | 0 | 0 |");
    // The terminal's plan counts the same way as the comment: "10,000", never "10000".
    const text = await runCli(["plan", "-f", f], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(text.stdout).toContain("Plan: 0 to create, 10,000 to update, 0 to delete, 0 unchanged.");
    const out = join(scratch(), "wavix.yaml");
    const exported = await runCli(["export", "--out", out], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(exported.stderr).toContain(`Wrote ${out} (0 sub-accounts, 10,000 numbers).`);
  }, 60_000);
});
