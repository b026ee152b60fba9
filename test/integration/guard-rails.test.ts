/**
 * The write-path guard rails (issue #27 items 1, 3, 4 and the export part of 9; docs/GUARD-RAILS.md),
 * each a reproduction from the issue, through the CLI (a child process) against the real simulator
 * over HTTP. Writes are counted from the simulator's own request log, never from our counters; a
 * tampered saved plan is a file rewritten with a recomputed digest, as anyone who can write it can.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { SCOPES } from "../../src/simulator/types";
import { canonicalKey } from "../../src/kit/change/diff";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "rails-master-key-8Wq2";
const SUB_KEY = "rails-sub-key-acme-3Jd7";
const NO_PROFILE_KEY = "rails-no-profile-key-5Tx1";

/** A key that may read everything but the account (GET /v1/profile answers 403). */
const ALL_READ = Object.fromEntries(SCOPES.map((s) => [s, "read" as const]));

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(seed: SimSeed): Promise<{ sim: Simulator; env: Record<string, string> }> {
  const sim = await startSimulator({
    port: 0,
    seed,
    apiKeys: [{ key: KEY }, { key: NO_PROFILE_KEY, restricted: { ...ALL_READ, account: "none" } }],
    asyncDelayMs: 10,
  });
  sims.push(sim);
  return { sim, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url } };
}

/** Every request that is not a GET, as the simulator logged it. */
const writes = (sim: Simulator) => sim.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

function noStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(text).not.toContain("Maximum call stack");
}

// ---- item 1: no write from an incomplete plan ------------------------------------------------------

describe("no write from an incomplete plan (issue #27 item 1)", () => {
  /** The master's account: numbers, a tenant, no call webhooks in the tenant. */
  const seed = (): SimSeed => ({
    numbers: [
      { id: 11, number: "15550000001", sms_enabled: false },
      { id: 12, number: "15550000002", sms_enabled: false },
    ],
    subAccounts: [{ id: 2001, name: "Acme Support", api_key: SUB_KEY }],
    callWebhooks: [],
  });
  /** The master's file: its numbers, and two call webhooks. */
  const MASTER_FILE = `version: 1
numbers:
  - number: "15550000001"
    sms_enabled: true
  - number: "15550000002"
    sms_enabled: true
call_webhooks:
  on-call: https://hooks.example/on
  post-call: https://hooks.example/post
`;

  it("a sub-account's key with the master's file: apply exits 1 naming the key's account in one line, and the simulator saw no write", async () => {
    const { sim, env } = await start(seed());
    const file = writeYaml(scratch(), "wavix.yaml", MASTER_FILE);
    const run = await runCli(["apply", "-f", file, "--auto-approve"], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(run.code).toBe(1);
    // The simulator saw no write (main created both webhooks in the tenant here).
    expect(writes(sim)).toEqual([]);
    // One line for the cause (issue #36): the key's account owns none of the file's numbers; `--json` lists each.
    expect(run.stderr).toContain("Error: WAVIX_API_KEY is for account 2001, which owns none of the 2 numbers");
    expect(run.stderr).not.toContain('number "15550000001"');
    expect(run.stderr).toContain("Apply refused (nothing was written): 2 declared items could not be planned");
    noStack(run.stderr);
    // The call webhooks it could plan are shown, and not created in the tenant (the wrong account).
    expect(run.stdout).toContain('call_webhook "on-call" will be created');
    expect(writes(sim)).toEqual([]);
    expect(sim.store.webhooksOf(2001).size).toBe(0);
  });

  it("no flag overrides it: --force, --prune, --format json and --out md all refuse, the report saying why", async () => {
    const { sim, env } = await start(seed());
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", MASTER_FILE);
    const out = join(dir, "apply.md");
    const run = await runCli(["apply", "-f", file, "--auto-approve", "--force", "--prune", "--format", "json"], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ verdict: "failed", stage: "plan" });
    // The cause first (a key for another account, issue #36), then each item where the file declares it.
    expect(json.problems.map((p: { message: string }) => p.message)).toEqual([
      expect.stringMatching(/^WAVIX_API_KEY is for account 2001, which owns none of the 2 numbers /),
      expect.stringMatching(/:\d+:\d+: number "15550000001": .* \(at numbers\[0\]\)$/),
      expect.stringMatching(/:\d+:\d+: number "15550000002": .* \(at numbers\[1\]\)$/),
    ]);
    const withOut = await runCli(["apply", "-f", file, "--auto-approve", "--force", "--out", out], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(withOut.code).toBe(1);
    const md = readFileSync(out, "utf8");
    expect(md).toContain("**Failed** (plan)");
    expect(md).toContain("nothing is written from an incomplete plan");
    expect(writes(sim)).toEqual([]);
  });

  it("plan --save does not save a plan with problems; the plan is still shown and exits 1", async () => {
    const { sim, env } = await start(seed());
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", MASTER_FILE);
    const planFile = join(dir, "plan.json");
    const run = await runCli(["plan", "-f", file, "--save", planFile], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("this plan was not saved to");
    expect(existsSync(planFile)).toBe(false);
    expect(writes(sim)).toEqual([]);
  });
});

// ---- item 3: the blast radius counts effects --------------------------------------------------------

describe("the blast radius counts effects (issue #27 item 3)", () => {
  it("status: disabled on 10 of 12 sub-accounts in the file is destructive: refused without --force, no write; --force applies", async () => {
    const subAccounts = Array.from({ length: 12 }, (_, i) => ({ id: 2001 + i, name: `Tenant ${i + 1}`, api_key: `rails-tenant-key-${i + 1}` }));
    const { sim, env } = await start({ subAccounts });
    const yaml = `version: 1\nsub_accounts:\n${subAccounts.map((s, i) => `  - name: ${s.name}\n    status: ${i < 10 ? "disabled" : "enabled"}\n`).join("")}`;
    const file = writeYaml(scratch(), "wavix.yaml", yaml);
    const plan = await runCli(["plan", "-f", file, "--json"], env);
    const json = JSON.parse(plan.stdout);
    expect(json.summary).toMatchObject({ update: 10, destructive: 10 });
    expect(json.changes.every((c: { destructive: boolean; effects: string[] }) => c.destructive && c.effects.join() === "disable")).toBe(true);
    expect(json.safety).toMatchObject({ refused: true, violations: [{ kind: "sub_account", destructive: 10, existing: 12 }] });
    const refused = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("10 destructive changes of sub_account (83.3% of the 12 in the account) exceed the limit of safety.max_destructive_percent 30%");
    expect(writes(sim)).toEqual([]);
    const forced = await runCli(["apply", "-f", file, "--auto-approve", "--force"], env);
    expect(forced.code).toBe(0);
    expect(writes(sim).filter((w) => w.startsWith("PUT ")).length).toBe(10);
  });

  it("wiping destinations on 12 numbers removes their routing: counted, refused without --force, no write", async () => {
    const numbers = Array.from({ length: 12 }, (_, i) => ({
      id: 11 + i,
      number: `155500000${String(i + 1).padStart(2, "0")}`,
      destination: [{ id: 100 + i, destination: "sip.example.net", priority: 1, transport: 1 as const, trunk_id: null, srtp: false, trunk_label: null }],
    }));
    const { sim, env } = await start({ numbers });
    const yaml = `version: 1\nnumbers:\n${numbers.map((n) => `  - number: "${n.number}"\n    destinations: []\n`).join("")}`;
    const file = writeYaml(scratch(), "wavix.yaml", yaml);
    const plan = await runCli(["plan", "-f", file, "--json"], env);
    const json = JSON.parse(plan.stdout);
    expect(json.changes).toHaveLength(12);
    expect(json.changes[0]).toMatchObject({ action: "update", destructive: true, effects: ["routing_removed"] });
    const text = await runCli(["plan", "-f", file], env);
    expect(text.stdout).toContain('# number "15550000001" will be updated in place (destructive: routing removed)');
    // Routes in words (issue #29 item 4).
    expect(text.stdout).toContain("~ destinations = sip sip.example.net, priority 1 → (no destination)");
    const refused = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("12 destructive changes of number (100% of the 12 in the account)");
    expect(writes(sim)).toEqual([]);
  });

  it("38 deletions across 5 kinds, each kind under its own limit, trip the total: refused without --force, no write", async () => {
    const N = 33;
    const kept = 24;
    const seed: SimSeed = {
      subAccounts: Array.from({ length: N }, (_, i) => ({ id: 2001 + i, name: `Tenant ${i}`, api_key: `rails-k-${i}` })),
      trunks: Array.from({ length: N }, (_, i) => ({ id: 500 + i, name: `${55500 + i}`, label: `pbx-${i}`, callerid: "15550000001" })),
      senderIds: Array.from({ length: N }, (_, i) => ({ sender_id: `Acme${i}`, type: "alphanumeric" as const, allowlisted_in: ["GB"], usecase: "transactional" as const })),
      brands: [{ brand_id: "BRAND01" }],
      campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: Array.from({ length: N }, (_, i) => ({ number: `1555100${String(i).padStart(4, "0")}`, status: "APPROVED" })) }],
      callWebhooks: [
        { event_type: "on-call", url: "https://hooks.example/on" },
        { event_type: "post-call", url: "https://hooks.example/post" },
      ],
      numbers: [{ id: 11, number: "15550000001" }],
    };
    const { sim, env } = await start(seed);
    const yaml = [
      "version: 1",
      "sub_accounts:",
      ...Array.from({ length: kept }, (_, i) => `  - name: Tenant ${i}`),
      "sip_trunks:",
      ...Array.from({ length: kept }, (_, i) => `  - label: pbx-${i}`),
      "sender_ids:",
      ...Array.from({ length: kept }, (_, i) => `  - { sender_id: Acme${i}, type: alphanumeric, countries: [GB], usecase: transactional }`),
      "ten_dlc_campaign_numbers:",
      `  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: [${Array.from({ length: kept }, (_, i) => `"1555100${String(i).padStart(4, "0")}"`).join(", ")}] }`,
      "call_webhooks: {}",
      "",
    ].join("\n");
    const file = writeYaml(scratch(), "wavix.yaml", yaml);
    const plan = JSON.parse((await runCli(["plan", "-f", file, "--prune", "--json"], env)).stdout);
    expect(plan.summary).toMatchObject({ delete: 38, destructive: 38 });
    // No kind is over its own limit (9 of 33 is 27.3%; two webhooks are under min_items): only the total.
    expect(plan.safety).toMatchObject({ refused: true, violations: [], total: { destructive: 38, limit: 20 } });
    const refused = await runCli(["apply", "-f", file, "--prune", "--auto-approve"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("38 destructive changes in all, across kinds, exceed the limit of safety.max_destructive_total 20 (the default)");
    expect(writes(sim)).toEqual([]);
  });
});

// ---- item 4: a saved plan is verified, not trusted --------------------------------------------------

describe("a saved plan is verified, not trusted (issue #27 item 4)", () => {
  const seed = (): SimSeed => ({
    numbers: [
      { id: 11, number: "15550000001", call_status_url: null },
      { id: 12, number: "15550000002", sms_enabled: false },
    ],
    subAccounts: [
      { id: 2001, name: "Acme Support", api_key: SUB_KEY },
      { id: 2002, name: "Legacy", api_key: "rails-sub-key-legacy-9Kk2" },
    ],
    senderIds: [{ sender_id: "AcmeOld", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" }],
  });
  const FILE = `version: 1
sub_accounts:
  - name: Acme Support
numbers:
  - number: "15550000001"
    call_status_url: https://hooks.example/status
sender_ids:
  - { sender_id: AcmeOld, type: alphanumeric, countries: [FR, GB], usecase: promo, replace: true }
`;

  type Doc = { plan: { prune: boolean; changes: Array<Record<string, unknown>>; summary: Record<string, number> } };

  /** Plan and save with the master key; the plan file and the file it was made from. */
  async function saved(env: Record<string, string>, text = FILE) {
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", text);
    const planFile = join(dir, "plan.json");
    const r = await runCli(["plan", "-f", file, "--save", planFile], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return { file, planFile };
  }

  /** Rewrite the plan's body and give it a matching digest, as anyone who can write the file can. */
  function tamper(planFile: string, edit: (doc: Doc) => void): void {
    const doc = JSON.parse(readFileSync(planFile, "utf8"));
    edit(doc);
    doc.digest = `sha256:${createHash("sha256").update(canonicalKey(doc.plan)).digest("hex")}`;
    writeFileSync(planFile, JSON.stringify(doc, null, 2));
  }

  const change = (doc: Doc, key: string) => doc.plan.changes.find((c) => c.key === key)!;

  async function refusedWithNoWrite(sim: Simulator, env: Record<string, string>, planFile: string, file: string, expected: RegExp, extra: string[] = []) {
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve", "--force", ...extra], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(expected);
    noStack(run.stderr);
    expect(writes(sim)).toEqual([]);
    return run;
  }

  it("the honest control: the same plan, untouched, applies", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve", "--force"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(sim.store.numbers.get(11)!.data.call_status_url).toBe("https://hooks.example/status");
  });

  it("a swapped call_status_url, re-digested (the output would show the reviewed one): refused naming the item and the field, no write", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    tamper(planFile, (doc) => {
      const op = change(doc, "15550000001").op as { desired: Record<string, unknown> };
      op.desired.call_status_url = "https://evil.example/steal";
    });
    await refusedWithNoWrite(
      sim,
      env,
      planFile,
      file,
      /this saved plan is not what .*wavix\.yaml implies \(1 item\).*nothing was applied.*\n {2}number "15550000001": op\.desired\.call_status_url is "https:\/\/evil\.example\/steal" in the plan, and "https:\/\/hooks\.example\/status" by the file and the plan's reads/s,
    );
  });

  it("an injected disable (a sub-account the file keeps enabled): refused, no write", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    tamper(planFile, (doc) => {
      doc.plan.changes.unshift({
        kind: "sub_account",
        key: "Acme Support",
        action: "update",
        destructive: true,
        effects: ["disable"],
        diff: [{ path: "status", before: "enabled", after: "disabled" }],
        read: { id: 2001, name: "Acme Support", status: "enabled", sms_endpoint: null, dlr_endpoint: null },
        op: { desired: { name: "Acme Support", status: "disabled" } },
      });
      doc.plan.summary.update++;
      doc.plan.summary.destructive++;
    });
    await refusedWithNoWrite(sim, env, planFile, file, /\n {2}sub_account "Acme Support": the plan says update, and .*wavix\.yaml and the plan's reads imply no change of it/);
  });

  it("a delete with prune: false (an undeclared sub-account disabled): refused, no write", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    tamper(planFile, (doc) => {
      doc.plan.changes.unshift({
        kind: "sub_account",
        key: "Legacy",
        action: "delete",
        destructive: true,
        effects: ["disable"],
        diff: [{ path: "status", before: "enabled", after: "disabled" }],
        read: { id: 2002, name: "Legacy", status: "enabled", sms_endpoint: null, dlr_endpoint: null },
        op: {},
      });
      doc.plan.summary.delete++;
      doc.plan.summary.destructive++;
    });
    await refusedWithNoWrite(sim, env, planFile, file, /\n {2}sub_account "Legacy": the plan says delete, and .*imply no change of it \(without --prune nothing undeclared is deleted\)/);
    // And flipping the plan's own prune to true is refused unless the apply itself says --prune.
    tamper(planFile, (doc) => (doc.plan.prune = true));
    await refusedWithNoWrite(sim, env, planFile, file, /this plan was made with --prune .*give --prune to apply --plan as well/);
  });

  it("destructive: false on a replace: refused naming the item, no write", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    tamper(planFile, (doc) => {
      const c = change(doc, "AcmeOld");
      expect(c).toMatchObject({ action: "replace", destructive: true, effects: ["replace"] });
      c.destructive = false;
      c.effects = [];
      doc.plan.summary.destructive--;
    });
    await refusedWithNoWrite(sim, env, planFile, file, /\n {2}sender_id "AcmeOld": the plan says it is not destructive, and it is destructive \(replace\)/);
    // Or passed off as an update.
    tamper(planFile, (doc) => {
      const c = change(doc, "AcmeOld");
      c.action = "update";
      doc.plan.summary.replace--;
      doc.plan.summary.update++;
    });
    await refusedWithNoWrite(sim, env, planFile, file, /sender_id "AcmeOld": a Sender ID is never updated/);
  });

  it("a duplicated change (2 POSTs): refused before any request", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env, `${FILE}call_webhooks:\n  on-call: https://hooks.example/on\n`);
    tamper(planFile, (doc) => {
      doc.plan.changes.push({ ...change(doc, "on-call") });
      doc.plan.summary.create++;
    });
    const before = sim.log.length;
    await refusedWithNoWrite(sim, env, planFile, file, /this saved plan is malformed; nothing was applied:\n {2}call_webhook "on-call": change \d+ changes it again \(change \d+ does\): a plan changes each item once/);
    expect(sim.log.length).toBe(before);
  });

  it("a plan nested deeper than any real one is refused plainly, not with a stack overflow", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    tamper(planFile, (doc) => ((change(doc, "15550000001") as { read: unknown }).read = JSON.parse("[]")));
    writeFileSync(planFile, readFileSync(planFile, "utf8").replace(/"read": \[\]/, `"read": ${deep}`));
    await refusedWithNoWrite(sim, env, planFile, file, /^Error: this saved plan is nested more than 64 levels deep, far past any real plan; nothing was applied\.\n$/);
  });

  it("a key that may not read /v1/profile and no account_id pin: plan --save refuses, saying how to fix it", async () => {
    const { sim, env } = await start(seed());
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const planFile = join(dir, "plan.json");
    const run = await runCli(["plan", "-f", file, "--save", planFile], { ...env, WAVIX_API_KEY: NO_PROFILE_KEY });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("this plan cannot be saved: which account WAVIX_API_KEY is for cannot be read");
    expect(run.stderr).toContain("Pin it in the file (`account_id: <your account id>`), or plan with a key that may read the profile; nothing was saved.");
    expect(existsSync(planFile)).toBe(false);
    expect(writes(sim)).toEqual([]);
  });

  it("a plan saved for one account is applied with another account's key: refused, no write (the account is always compared)", async () => {
    const { sim, env } = await start(seed());
    const { file, planFile } = await saved(env);
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: this plan was made for account ${sim.store.masterId}, and the key in WAVIX_API_KEY is for account 2001; nothing was applied.\n`);
    expect(writes(sim)).toEqual([]);
  });
});

// ---- item 9: export names its account ---------------------------------------------------------------

describe("export names its account (issue #27 item 9)", () => {
  const seed = (): SimSeed => ({ numbers: [{ id: 11, number: "15550000001", sms_enabled: true }], subAccounts: [{ id: 2001, name: "Acme Support", api_key: SUB_KEY }] });

  it("writes account_id: the key's account, and the file it writes plans clean with the pin checked", async () => {
    const { sim, env } = await start(seed());
    const dir = scratch();
    const out = join(dir, "wavix.yaml");
    const run = await runCli(["export", "--out", out], env);
    expect(run.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(new RegExp(`^version: 1\\naccount_id: ${sim.store.masterId}\\n`, "m"));
    const plan = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(writes(sim)).toEqual([]);
  });

  it("honours the file's pin: a key for another account is refused before anything is read; the right one exports", async () => {
    const { sim, env } = await start(seed());
    const dir = scratch();
    const pinned = writeYaml(dir, "pinned.yaml", `version: 1\naccount_id: ${sim.store.masterId}\n`);
    const other = await runCli(["export", "-f", pinned], { ...env, WAVIX_API_KEY: SUB_KEY });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`the API key belongs to account 2001, but ${pinned} account_id pins account ${sim.store.masterId}`);
    expect(other.stdout).toBe("");
    // Only the profile was read.
    expect(sim.log.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /v1/profile"]);
    const ok = await runCli(["export", "-f", pinned], env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`account_id: ${sim.store.masterId}\n`);
  });

  it("a key that may not read the profile: exported without account_id, saying so", async () => {
    const { env } = await start(seed());
    const run = await runCli(["export"], { ...env, WAVIX_API_KEY: NO_PROFILE_KEY });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/^account_id:/m);
    expect(run.stdout).toContain("# account_id: not written: the key may not read GET /v1/profile");
    expect(run.stderr).toContain("Warning: account_id is not written: the key may not read GET /v1/profile");
  });
});
