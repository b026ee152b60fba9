/**
 * `plan --format md` / `apply --format md` (the pull-request comment) and `--out FILE`, through the
 * CLI as a child process against the real simulator over HTTP; the escaping rules as properties.
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { APPLY_MARKER, formatFieldValue, formatPlanMarkdown, mdCode, mdText, PLAN_MARKER, type Plan } from "../../src/plan";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "gitops-master-key-41c9";
const SUB_KEY = "gitops-sub-key-7e2d10";
const EVIL = "Evil <img src=x onerror=alert(1)> | @octocat `rm` #12 *b* [l](http://x)";

function seed(): SimSeed {
  return {
    numbers: [
      { id: 11, number: "15550000001", sms_enabled: false, call_status_url: null },
      { id: 12, number: "15550000002", sms_enabled: true },
    ],
    subAccounts: [
      { id: 2001, name: "Acme Support", api_key: SUB_KEY },
      { id: 2002, name: EVIL, api_key: "gitops-sub-key-evil-99" },
    ],
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: New Co
numbers:
  - number: "15550000002"
    sms_enabled: true
  - number: "15559999999"
  - number: "15550000001"
    call_status_url: "https://hooks.example/status?a=1&b=x_y*z"
call_webhooks:
  on-call: https://hooks.example/on
`;

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start() {
  sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

/** Every `<` in the output belongs to one of the renderer's own tags. */
function onlyOwnTags(md: string): void {
  const tags = md.match(/<[^>]*>/g) ?? [];
  for (const t of tags) expect(t).toMatch(/^(<!-- wavix-sync (plan|apply) -->|<\/?(details|summary|code)>|<details open>)$/);
}

describe("plan --format md", () => {
  it("puts the marker first, problems before the verdict, a summary table per kind, a block per change, unmanaged last", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const r = await runCli(["plan", "-f", file, "--format", "md"], env);
    expect(r.code).toBe(1); // the number the account does not own
    const md = r.stdout;
    expect(md.split("\n")[0]).toBe(PLAN_MARKER);
    // The heading names the file, the account and the API root (issue #29 item 4).
    expect(md.split("\n")[1]).toBe(`### wavix-sync plan for ${mdText(file)} — account 1000 at ${mdText(env.WAVIX_BASE_URL)}`);
    const problem = md.indexOf("15559999999");
    const verdict = md.indexOf("**Plan: 2 to create, 2 to update, 0 to delete, 1 unchanged; 1 destructive.**");
    // Destructive changes first, in their own section, never collapsed (a disable by the file's status: disabled).
    const destructive = md.indexOf("**1 destructive change**");
    const disable = md.indexOf("- :warning: **disable**: sub_account `Acme Support` (update): `status` `\"enabled\"` → `\"disabled\"`");
    const table = md.indexOf("| Kind | Create | Update | Replace | Delete | Unchanged | Destructive |");
    // Three changes besides the destructive one: a small plan, its blocks shown open (issue #36).
    const firstBlock = md.indexOf("<details open>");
    const unmanaged = md.indexOf("**Unmanaged**");
    expect(problem).toBeGreaterThan(0);
    expect([problem, verdict, destructive, disable, table, firstBlock, unmanaged].every((v, i, a) => v > 0 && (i === 0 || v > a[i - 1]))).toBe(true);
    expect(md).toContain("| sub_account | 1 | 1 | 0 | 0 | 0 | 1 |");
    expect(md).toContain("| call_webhook | 1 | 0 | 0 | 0 | 0 | 0 |");
    expect(md).toContain("| number | 0 | 1 | 0 | 0 | 1 | 0 |");
    expect(md).toContain("| **Total** | 2 | 2 | 0 | 0 | 1 | 1 |");
    // The disable is not also in a block: three blocks for the three other changes.
    expect(md.match(/<details open>/g)).toHaveLength(3);
    expect(md).not.toContain("<details>");
    expect(md).toContain("| `call_status_url` | `null` | `\"https://hooks.example/status?a=1&b=x_y*z\"` |");
    // The created sub-account's key: (sensitive), never a value.
    expect(md).toContain("| `api_key` |  | `(sensitive)` |");
    // The hostile name (unmanaged) is inert: no tag, no mention, no link, no extra table cell.
    expect(md).toContain("- sub_account Evil &lt;img src=x onerror=alert(1)&gt; \\| &#64;octocat \\`rm\\` &#35;12 \\*b\\* \\[l\\](http://x)");
    onlyOwnTags(md);
    for (const secret of [KEY, SUB_KEY, "gitops-sub-key-evil-99"]) expect(md).not.toContain(secret);
  });

  it("is byte-for-byte stable between runs, and --out writes exactly what the terminal got", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const out = join(dir, "reports", "plan.md");
    const a = await runCli(["plan", "-f", file, "--format", "md", "--out", out], env);
    const b = await runCli(["plan", "-f", file, "--format", "md"], env);
    expect(a.stdout).toBe(b.stdout);
    expect(readFileSync(out, "utf8")).toBe(a.stdout);
    // No temporary file left beside the target.
    expect(readdirSync(join(dir, "reports"))).toEqual(["plan.md"]);
  });

  it("same account, same file, declared in another order → same bytes", async () => {
    const env = await start();
    const dir = scratch();
    const reordered = FILE.replace(
      /numbers:\n([\s\S]*?)call_webhooks/,
      `numbers:\n  - number: "15550000001"\n    call_status_url: "https://hooks.example/status?a=1&b=x_y*z"\n  - number: "15559999999"\n  - number: "15550000002"\n    sms_enabled: true\ncall_webhooks`,
    );
    expect(reordered).not.toBe(FILE);
    // Run from the file's folder so the name the comment shows is the same ("wavix.yaml").
    writeYaml(dir, "wavix.yaml", FILE);
    const other = scratch();
    writeYaml(other, "wavix.yaml", reordered);
    const a = await runCli(["plan", "--format", "md"], env, dir);
    const b = await runCli(["plan", "--format", "md"], env, other);
    expect(a.stdout).toContain("for wavix.yaml");
    expect(b.stdout).toBe(a.stdout);
  });

  it("--out without --format keeps the human plan on the terminal and picks the file's format from its extension", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const r = await runCli(["plan", "-f", file, "--out", join(dir, "plan.md")], env);
    expect(r.stdout).toContain("wavix-sync will perform the following actions:");
    expect(readFileSync(join(dir, "plan.md"), "utf8").startsWith(PLAN_MARKER + "\n")).toBe(true);
    await runCli(["plan", "-f", file, "--out", join(dir, "plan.json")], env);
    expect(JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")).summary).toEqual({ create: 2, update: 2, replace: 0, delete: 0, unchanged: 1, destructive: 1 });
    await runCli(["plan", "-f", file, "--out", join(dir, "plan.txt")], env);
    // A text file has no stderr: the problems the terminal showed there come first in it.
    const problems = r.stderr.split("\n").filter((l) => /^(Error: |\S+:\d+:\d+: )/.test(l)).map((l) => `${l}\n`).join("");
    expect(problems).toContain('number "15559999999"');
    expect(readFileSync(join(dir, "plan.txt"), "utf8")).toBe(problems + r.stdout);
    // --json is --format json; both at once must agree.
    const json = await runCli(["plan", "-f", file, "--json", "--out", join(dir, "other.md")], env);
    expect(readFileSync(join(dir, "other.md"), "utf8")).toBe(json.stdout);
    const clash = await runCli(["plan", "-f", file, "--json", "--format", "md"], env);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("--json and --format md disagree");
  });

  it("an --out that cannot be written is a plain error, exit 1, and leaves nothing behind", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", "version: 1\ncall_webhooks:\n  post-call: https://hooks.example/post\n");
    writeYaml(dir, "blocker", "a file, not a folder");
    const r = await runCli(["plan", "-f", file, "--format", "md", "--out", join(dir, "blocker", "plan.md")], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: cannot write --out .*blocker[/\\]plan\.md: /m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).sort()).toEqual(["blocker", "wavix.yaml"]);
  });

  it("says No changes when the account matches, with the per-kind unchanged counts and no table of zeros", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", "version: 1\nnumbers:\n  - number: \"15550000002\"\n    sms_enabled: true\n");
    const r = await runCli(["plan", "-f", file, "--format", "md", "--detailed-exitcode"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("**No changes.** The account matches");
    expect(r.stdout).toContain("\nUnchanged: 1 number.\n");
    // No row whose changes are all zero (issue #36): here no table at all.
    expect(r.stdout).not.toContain("| Kind |");
    expect(r.stdout).not.toContain("<details>");
  });
});

describe("apply --format md", () => {
  it("reports the plan and the outcome under the apply marker, in the file and on the terminal", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE.replace('  - number: "15559999999"\n', ""));
    const out = join(dir, "apply.md");
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--format", "md", "--out", out], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(APPLY_MARKER);
    expect(r.stdout).toContain("**Apply complete:** 2 created, 2 updated, 0 deleted.");
    expect(readFileSync(out, "utf8")).toBe(r.stdout);
    onlyOwnTags(r.stdout);
    for (const secret of [KEY, SUB_KEY]) expect(r.stdout).not.toContain(secret);
    const again = await runCli(["apply", "-f", file, "--auto-approve", "--format", "md"], env);
    expect(again.stdout).toContain("**No changes.**");
    expect(existsSync(out)).toBe(true);
  });
});

describe("escaping (properties)", () => {
  it("mdText leaves no tag, mention, issue link, line break or unescaped pipe", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.string(), (a, b) => {
        const out = mdText(a + b).replace(/&(amp|lt|gt|#64|#35);/g, "");
        expect(out).not.toMatch(/[<>@#&\n\r]/);
        // GFM's table scanner (cmark-gfm's table_cell) keeps any pipe written `\|` inside the cell,
        // whatever precedes the backslash: a value `\|` becomes `\\|`, a code span showing `\|`.
        expect(out).not.toMatch(/(^|[^\\])\|/);
      }),
    );
  });

  it("mdCode keeps a value inside one code span in one table cell", () => {
    fc.assert(
      fc.property(fc.string(), (v) => {
        const out = mdCode(v);
        if (v === "") {
          expect(out).toBe("");
          return;
        }
        expect(out).not.toMatch(/[\n\r]/);
        // GFM's table scanner (cmark-gfm's table_cell) keeps any pipe written `\|` inside the cell,
        // whatever precedes the backslash: a value `\|` becomes `\\|`, a code span showing `\|`.
        expect(out).not.toMatch(/(^|[^\\])\|/);
        const fence = /^`+/.exec(out)![0];
        expect(out.endsWith(fence)).toBe(true);
        // The fence never occurs inside, so the span cannot end early.
        expect(out.slice(fence.length, -fence.length)).not.toContain(fence);
      }),
    );
  });

  it("shows every field value exactly as the terminal renderer formats it (one formatting for all renderers)", () => {
    const plan: Plan = {
      changes: [
        {
          kind: "number",
          key: "15550000001",
          action: "update",
          diff: [
            { path: "destinations", before: [], after: [{ priority: 1, transport: 5, destination: "t|k", trunk_id: 7 }] },
            { path: "sms_relay_url", before: "https://u:p@x.example/a", after: null },
          ],
        },
        { kind: "sub_account", key: "B", action: "create", diff: [{ path: "api_key", before: null, after: "k-123", sensitive: true }] },
      ],
      unmanaged: [],
      problems: [],
      summary: { create: 1, update: 1, replace: 0, delete: 0, unchanged: 0, destructive: 0 },
    };
    const md = formatPlanMarkdown(plan, "wavix.yaml");
    for (const c of plan.changes) {
      for (const f of c.diff) {
        expect(md).toContain(mdCode(formatFieldValue(f, "after")));
        if (c.action !== "create") expect(md).toContain(mdCode(formatFieldValue(f, "before")));
      }
    }
    expect(md).not.toContain("k-123");
    // Sorted by kind, then key: the sub-account block comes first whatever the plan's order.
    expect(md.indexOf("sub_account <code>B</code>")).toBeLessThan(md.indexOf("number <code>15550000001</code>"));
  });
});
