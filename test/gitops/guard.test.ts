/**
 * Issue #20 through the CLI (a child process) against the strict simulator over HTTP: the account
 * pin (one GET /v1/profile before anything else; a mismatch sends nothing more), the blast-radius
 * limit (a refused apply writes nothing; plan says it would be refused; --force and the file's
 * `safety:` section), reports written to --out when a run fails, and the ids of what apply created.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type FaultRule, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "guard-master-key-6d2a";
const MASTER = 1000;

/** 12 sub-accounts (Tenant 01..12) and two numbers; the master organisation is 1000. */
function seed(): SimSeed {
  const subAccounts = Array.from({ length: 12 }, (_, i) => ({ id: 2001 + i, name: `Tenant ${String(i + 1).padStart(2, "0")}`, api_key: `guard-sub-key-${i + 1}-Qz` }));
  return {
    organizationId: MASTER,
    subAccounts,
    numbers: [
      { id: 11, number: "15550000001", sms_enabled: false },
      { id: 12, number: "15550000002", sms_enabled: false },
    ],
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(faults: FaultRule[] = []) {
  sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], asyncDelayMs: 20, faults });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

const requests = () => sim!.log.map((e) => `${e.method} ${e.path}`);
const writes = () => sim!.log.filter((e) => e.method !== "GET");

/** Declares Tenant 01..`kept` (the rest are pruned: disabled) and one number change. */
function file(kept: number, head = ""): string {
  const names = Array.from({ length: kept }, (_, i) => `  - name: Tenant ${String(i + 1).padStart(2, "0")}`);
  return `version: 1\n${head}sub_accounts:\n${names.join("\n")}\nnumbers:\n  - number: "15550000001"\n    sms_enabled: true\n`;
}

describe("account pin (account_id)", () => {
  it("a key of another account: exit 1 naming both ids, one GET /v1/profile and nothing else", async () => {
    const env = await start();
    const dir = scratch();
    const f = writeYaml(dir, "wavix.yaml", file(12, "account_id: 4242\n"));
    for (const cmd of ["plan", "apply"]) {
      sim!.log.length = 0;
      const r = await runCli([cmd, "-f", f, "--auto-approve", "--prune"].filter((a) => cmd === "apply" || a !== "--auto-approve"), env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("account 1000");
      expect(r.stderr).toContain("account 4242");
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(requests()).toEqual(["GET /v1/profile"]);
    }
  });

  it("the key's own account: the profile is read first, then the plan as usual", async () => {
    const env = await start();
    const f = writeYaml(scratch(), "wavix.yaml", file(12, `account_id: ${MASTER}\n`));
    const r = await runCli(["apply", "-f", f, "--auto-approve"], env);
    expect(r.code).toBe(0);
    expect(requests()[0]).toBe("GET /v1/profile");
    expect(requests().filter((x) => x === "GET /v1/profile")).toHaveLength(1);
    expect(sim!.store.numbers.get(11)!.data.sms_enabled).toBe(true);
  });

  it("a sub-account's key names the sub-account's id", async () => {
    const env = await start();
    const f = writeYaml(scratch(), "wavix.yaml", `version: 1\naccount_id: ${MASTER}\nnumbers: []\n`);
    const r = await runCli(["plan", "-f", f], { ...env, WAVIX_API_KEY: "guard-sub-key-3-Qz" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("account 2003");
    expect(requests()).toEqual(["GET /v1/profile"]);
  });

  it("account_id must be a positive integer (file error at its line)", async () => {
    const f = writeYaml(scratch(), "wavix.yaml", 'version: 1\naccount_id: "1000"\n');
    const r = await runCli(["validate", "-f", f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/wavix\.yaml:2:\d+: .*\(at account_id\)/);
  });
});

describe("blast-radius limit", () => {
  it("4 of 12 sub-accounts disabled (33%) is over the default 30%: plan says apply would be refused; apply refuses with 0 writes", async () => {
    const env = await start();
    const dir = scratch();
    const f = writeYaml(dir, "wavix.yaml", file(8));
    const p = await runCli(["plan", "-f", f, "--prune"], env);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("Apply would be refused without --force:");
    expect(p.stdout).toContain("4 destructive changes of sub_account (33.3% of the 12 in the account) exceed the limit of safety.max_destructive_percent 30%");
    const pj = JSON.parse((await runCli(["plan", "-f", f, "--prune", "--json"], env)).stdout);
    expect(pj.safety).toEqual({
      refused: true,
      limits: { max_destructive_percent: 30, min_items: 10, max_destructive_total: 20 },
      violations: [{ kind: "sub_account", destructive: 4, existing: 12, percent: 33.3 }],
    });
    const md = (await runCli(["plan", "-f", f, "--prune", "--format", "md"], env)).stdout;
    expect(md).toContain("**Apply would be refused without `--force`:**");

    sim!.log.length = 0;
    const out = join(dir, "apply.json");
    const a = await runCli(["apply", "-f", f, "--prune", "--auto-approve", "--out", out], env);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain("Apply refused (nothing was written):");
    expect(a.stderr).toContain("4 destructive changes of sub_account");
    expect(a.stderr).toContain("--force");
    expect(writes()).toHaveLength(0);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.verdict).toBe("failed");
    expect(report.stage).toBe("safety");
    expect(report.problems[0].message).toContain("safety.max_destructive_percent 30%");
    expect(report.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 4, destructive: 4, unchanged: 8 });
  });

  it("--force applies it; the file's safety section raises the limit", async () => {
    const env = await start();
    const dir = scratch();
    const forced = await runCli(["apply", "-f", writeYaml(dir, "a.yaml", file(8)), "--prune", "--auto-approve", "--json", "--force"], env);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).safety).toMatchObject({ refused: false, forced: true });
    expect([...sim!.store.subAccounts.values()].filter((s) => s.data.status === "disabled")).toHaveLength(4);
    await sim!.close();

    const env2 = await start();
    const relaxed = writeYaml(dir, "b.yaml", file(8, "safety: { max_destructive_percent: 50, min_items: 10 }\n"));
    const r = await runCli(["apply", "-f", relaxed, "--prune", "--auto-approve"], env2);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("refused");
  });

  it("a kind under min_items is not limited: the one webhook may be deleted", async () => {
    const env = await start();
    const f = writeYaml(scratch(), "wavix.yaml", "version: 1\ncall_webhooks: {}\n");
    const r = await runCli(["apply", "-f", f, "--prune", "--auto-approve"], env);
    expect(r.code).toBe(0);
    expect(sim!.store.callWebhooks.get(MASTER)?.size ?? 0).toBe(0);
  });

  it("safety keys are schema-checked", async () => {
    const f = writeYaml(scratch(), "wavix.yaml", "version: 1\nsafety:\n  max_destructive_percent: 130\n  min_itemz: 3\n");
    const r = await runCli(["validate", "-f", f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("(at safety.max_destructive_percent)");
    expect(r.stderr).toContain('did you mean "min_items"');
  });
});

describe("--out is written when a run fails (verdict failed, the problems, no secret)", () => {
  const formats = [
    { ext: "json", check: (t: string) => expect(JSON.parse(t)).toMatchObject({ verdict: "failed" }) },
    { ext: "md", check: (t: string) => expect(t).toMatch(/^<!-- wavix-sync (plan|apply) -->\n[\s\S]*\*\*Failed\*\*/) },
    { ext: "txt", check: (t: string) => expect(t).toMatch(/^wavix-sync (plan|apply) of .* failed/) },
  ];

  async function failing(cmd: "plan" | "apply", stage: string, yaml: string, env: Record<string, string | undefined>, expectText: string) {
    const dir = scratch();
    const f = writeYaml(dir, "wavix.yaml", yaml);
    // The three runs at once (each with its own --out): a failing listing is retried with backoff,
    // some 7 s of waiting a run, and none of the runs reads what another writes.
    const runs = await Promise.all(formats.map(({ ext }) => runCli([cmd, "-f", f, "--out", join(dir, `report.${ext}`), ...(cmd === "apply" ? ["--auto-approve"] : [])], env)));
    for (const [i, { ext, check }] of formats.entries()) {
      const out = join(dir, `report.${ext}`);
      const r = runs[i]!;
      expect(r.code).toBe(1);
      const text = readFileSync(out, "utf8");
      check(text);
      expect(text).toContain(stage);
      expect(text).toContain(expectText);
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("guard-sub-key");
    }
  }

  it("validation: the file's problems, at their line", async () => {
    await failing("plan", "validation", "version: 1\nnumbers:\n  - number: \"15550000001\"\n    sms_enabled: maybe\n", {}, "wavix.yaml:4:");
  });

  it("authentication: a refused key, a missing key, another account", async () => {
    const env = await start();
    await failing("plan", "authentication", file(12), { ...env, WAVIX_API_KEY: "not-the-key-1234" }, "401");
    await failing("apply", "authentication", file(12), { WAVIX_BASE_URL: env.WAVIX_BASE_URL }, "KEY is not set");
    await failing("apply", "authentication", file(12, "account_id: 7\n"), env, "belongs to account 1000");
  });

  it("listing: a listing the server fails", async () => {
    const env = await start([{ kind: "status", status: 500, method: "GET", pathPrefix: "/v1/sub-organizations" }]);
    await failing("plan", "listing", file(12), env, "500");
  });

  it("apply: a write refused midway is in the apply report (exit 1), and nothing claims success", async () => {
    const env = await start([{ kind: "status", status: 500, method: "PATCH", pathPrefix: "/v1/numbers" }]);
    const dir = scratch();
    const out = join(dir, "apply.json");
    const r = await runCli(["apply", "-f", writeYaml(dir, "wavix.yaml", file(12)), "--auto-approve", "--out", out], env);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.ok).toBe(false);
    expect(report.results[0]).toMatchObject({ kind: "number", key: "15550000001", outcome: "failed" });
  });
});

describe("apply names what it created", () => {
  it("the new sub-account's id in text, JSON and Markdown", async () => {
    const dir = scratch();
    const yaml = "version: 1\nsub_accounts:\n  - name: Fresh Co\n";
    let env = await start();
    const text = await runCli(["apply", "-f", writeYaml(dir, "a.yaml", yaml), "--auto-approve"], env);
    expect(text.code).toBe(0);
    const id = [...sim!.store.subAccounts.values()].find((s) => s.data.name === "Fresh Co")!.data.id;
    expect(text.stdout).toContain(`Created: sub_account "Fresh Co" (id ${id})`);
    await sim!.close();

    env = await start();
    const json = JSON.parse((await runCli(["apply", "-f", writeYaml(dir, "b.yaml", yaml), "--auto-approve", "--json"], env)).stdout);
    expect(json.results).toEqual([{ kind: "sub_account", key: "Fresh Co", action: "create", outcome: "ok", id }]);
    await sim!.close();

    env = await start();
    const md = (await runCli(["apply", "-f", writeYaml(dir, "c.yaml", yaml), "--auto-approve", "--format", "md"], env)).stdout;
    expect(md).toContain(`**Created:**\n\n- sub_account Fresh Co (id ${id})`);
  });
});
