/**
 * Saved plans end to end (issue #20, issue #27; docs/SAVED-PLANS.md): `plan --save PLANFILE`, then
 * `apply --plan PLANFILE -f FILE`, through the CLI (a child process) against the strict simulator
 * over HTTP, counting its requests.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { canonicalKey } from "../../src/kit/change/diff";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "test-master-key-5f1c";
const SUB_KEY_A = "sub-key-acme-9a8b7c";
const SUB_KEY_L = "sub-key-legacy-1d2e3f";

function seed(): SimSeed {
  return {
    numbers: [
      { id: 11, number: "15550000001", sms_enabled: false, call_status_url: null },
      { id: 12, number: "15550000002", sms_enabled: true, transcription_threshold: 10 },
      { id: 13, number: "15550000003", sms_enabled: false },
    ],
    subAccounts: [
      { id: 2001, name: "Acme Support", api_key: SUB_KEY_A, default_destinations: { sms_endpoint: "https://a.example/sms" } },
      { id: 2002, name: "Legacy", api_key: SUB_KEY_L },
    ],
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: New Co
    default_destinations:
      sms_endpoint: https://new.example/sms
numbers:
  - number: "+15550000001"
    call_status_url: https://hooks.example/status
  - number: "15550000002"
    transcription_threshold: 10
call_webhooks:
  on-call: https://hooks.example/on
  post-call: https://hooks.example/post
`;

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(s: SimSeed = seed()): Promise<{ sim: Simulator; env: Record<string, string> }> {
  const sim = await startSimulator({ port: 0, seed: s, apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  sims.push(sim);
  return { sim, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url } };
}

/** `METHOD path` of each request, sorted (a multiset to compare). */
const requests = (entries: Simulator["log"]) => entries.map((e) => `${e.method} ${e.path}`).sort();

/** `a` less one occurrence of each of `b` (both sorted multisets). */
function minus(a: string[], b: string[]): string[] {
  const left = [...a];
  for (const x of b) {
    const i = left.indexOf(x);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** The account as data, without what the simulator makes up at random (new keys, creation times). */
const accountOf = (sim: Simulator) => JSON.parse(JSON.stringify(sim.store.dump(), (k, v) => (k === "api_key" || k === "created_at" ? undefined : v)));

const writes = (sim: Simulator) => sim.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

function noSecrets(text: string) {
  for (const secret of [KEY, SUB_KEY_A, SUB_KEY_L]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
}

/** Plan and save; returns the plan file's path and the directory. */
async function savePlan(env: Record<string, string>, text = FILE, extra: string[] = []) {
  const dir = scratch();
  const file = writeYaml(dir, "wavix.yaml", text);
  const planFile = join(dir, "plan.json");
  const r = await runCli(["plan", "-f", file, "--save", planFile, "--json", ...extra], env);
  return { dir, file, planFile, r };
}

/** Rewrite a saved plan's body and give it a matching digest (a hand edit that knows the format). */
function reDigest(planFile: string, edit: (doc: { version: number; plan: Record<string, unknown> & { changes: Array<Record<string, unknown>> } }) => void) {
  const doc = JSON.parse(readFileSync(planFile, "utf8"));
  edit(doc);
  doc.digest = `sha256:${createHash("sha256").update(canonicalKey(doc.plan)).digest("hex")}`;
  writeFileSync(planFile, JSON.stringify(doc, null, 2));
}

describe("plan --save", () => {
  it("writes a versioned plan holding each change with what it was read from, the file's digest and the API root, and no secret", async () => {
    const { sim, env } = await start();
    const { file, planFile, r } = await savePlan(env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    // Saving only reads, exactly as a plan does.
    expect(writes(sim)).toEqual([]);
    const text = readFileSync(planFile, "utf8");
    noSecrets(text);
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(["format", "version", "digest", "created_at", "plan"]);
    expect(doc).toMatchObject({ format: "wavix-sync-plan", version: 2 });
    expect(doc.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The account the key is for (GET /v1/profile: the master organisation).
    expect(doc.plan.target).toEqual({ base_url: sim.url, account: String(sim.store.masterId) });
    const fileSha = `sha256:${createHash("sha256").update(readFileSync(file)).digest("hex")}`;
    expect(doc.plan.file).toEqual({ path: file, sha256: fileSha });
    const byKey = Object.fromEntries(doc.plan.changes.map((c: { kind: string; key: string }) => [`${c.kind}:${c.key}`, c]));
    expect(Object.keys(byKey).sort()).toEqual(["call_webhook:on-call", "number:15550000001", "sub_account:Acme Support", "sub_account:New Co"]);
    // The values each change was computed from (the sub-account's record without its key).
    expect(byKey["sub_account:Acme Support"].read).toEqual({ id: 2001, name: "Acme Support", status: "enabled", sms_endpoint: "https://a.example/sms", dlr_endpoint: null });
    expect(byKey["sub_account:New Co"].read).toBeNull();
    expect(byKey["number:15550000001"].read).toEqual({ id: 11, number: "15550000001", call_status_url: null });
    expect(byKey["call_webhook:on-call"].read).toEqual({ url: null });
    // The JSON output names the same digest.
    expect(JSON.parse(r.stdout).saved_plan).toEqual({ digest: doc.digest });
  });

  it("names the digest in the Markdown plan, and apply --plan names the same one", async () => {
    const { env } = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const planFile = join(dir, "plan.json");
    const md = await runCli(["plan", "-f", file, "--save", planFile, "--format", "md"], env);
    expect(md.code).toBe(0);
    const digest = JSON.parse(readFileSync(planFile, "utf8")).digest as string;
    const short = digest.slice("sha256:".length, "sha256:".length + 12);
    expect(md.stdout).toContain(`Saved plan \`${short}\``);
    const applied = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve", "--format", "md"], env);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`Saved plan \`${short}\``);
    expect(applied.stdout).toContain("**Apply complete:**");
  });

  it("saves what --prune plans; a plan with problems is shown and not saved (exit 1)", async () => {
    const { env } = await start();
    const { planFile, r } = await savePlan(env, FILE, ["--prune"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(planFile, "utf8"));
    expect(doc.plan.prune).toBe(true);
    // Pruning disables Legacy: saved like any change, destructive.
    const legacy = doc.plan.changes.find((c: { key: string }) => c.key === "Legacy");
    expect(legacy).toMatchObject({ action: "delete", destructive: true, effects: ["disable"] });
    const bad = await savePlan(env, FILE.replace('"15550000002"', '"15559999999"'));
    expect(bad.r.code).toBe(1);
    expect(bad.r.stderr).toMatch(/this plan was not saved to .*plan\.json: 1 declared item could not be planned, and nothing is written from an incomplete plan/);
    expect(JSON.parse(bad.r.stdout).errors).toEqual([expect.objectContaining({ kind: "number", key: "15559999999" })]);
    expect(existsSync(bad.planFile)).toBe(false);
  });
});

describe("apply --plan", () => {
  it("makes the same writes as a direct apply, after re-reading only what the plan touches", async () => {
    // A direct apply, and what it sends besides the plan's own reads.
    const direct = await start();
    const directFile = writeYaml(scratch(), "wavix.yaml", FILE);
    expect((await runCli(["plan", "-f", directFile], direct.env)).code).toBe(0);
    const planReads = requests(direct.sim.log);
    const directRun = await runCli(["apply", "-f", directFile, "--auto-approve"], direct.env);
    expect(directRun.code).toBe(0);
    const directApply = minus(requests(direct.sim.log.slice(planReads.length)), planReads);

    const { sim, env } = await start();
    const { file, planFile, r } = await savePlan(env);
    expect(r.code).toBe(0);
    const planned = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Apply complete: 2 created, 2 updated, 0 deleted.");
    noSecrets(run.stdout);

    expect(writes(sim).sort()).toEqual(writes(direct.sim).sort());
    expect(accountOf(sim)).toEqual(accountOf(direct.sim));
    // Every request of the direct apply's writing part, plus the recheck: one sub-account listing (a
    // create needs it; it covers the update too), one webhook listing, one GET for the one number.
    // First the account (GET /v1/profile), then the recheck.
    const recheck = ["GET /v1/calls/webhooks", "GET /v1/numbers/11", "GET /v1/sub-organizations"];
    expect(requests(sim.log.slice(planned))).toEqual([...directApply, "GET /v1/profile", ...recheck].sort());
    const log = sim.log.slice(planned);
    expect(log[0].path).toBe("/v1/profile");
    expect(requests(log.slice(1, 4))).toEqual(recheck);
  });

  it("with only updates, reads each sub-account by id and not the listing", async () => {
    const { sim, env } = await start();
    const only = `version: 1\nsub_accounts:\n  - name: Acme Support\n    status: disabled\n  - name: Legacy\n    status: disabled\n`;
    const { file, planFile } = await savePlan(env, only);
    const planned = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.code).toBe(0);
    // The recheck: one GET by id each, no listing; then the writes as a direct apply makes them.
    expect(requests(sim.log.slice(planned, planned + 3))).toEqual(["GET /v1/profile", "GET /v1/sub-organizations/2001", "GET /v1/sub-organizations/2002"]);
    const firstWrite = sim.log.findIndex((e) => e.method !== "GET");
    expect(sim.log.slice(planned, firstWrite).filter((e) => e.path === "/v1/sub-organizations")).toEqual([]);
  });

  it("the blast radius holds on apply --plan: past the file's safety limit it is refused before any write, naming the limit; --force applies it", async () => {
    const { sim, env } = await start();
    // Acme Support disabled is destructive; the file allows none.
    const text = FILE.replace("version: 1\n", "version: 1\nsafety:\n  max_destructive_total: 0\n");
    const { file, planFile } = await savePlan(env, text);
    expect(existsSync(planFile)).toBe(true);
    const before = sim.log.length;
    const refused = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("exceed the limit of safety.max_destructive_total 0");
    expect(sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
    expect(sim.store.subAccounts.get(2001)!.data.status).toBe("enabled");
    noSecrets(refused.stdout + refused.stderr);
    const forced = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve", "--force"], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(sim.store.subAccounts.get(2001)!.data.status).toBe("disabled");
  });

  it("refuses, naming each item and writing nothing, when what the plan touches changed since", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    // Others change the account between the plan and the apply.
    sim.store.subAccounts.get(2001)!.data.status = "disabled";
    sim.store.numbers.get(11)!.data.call_status_url = "https://someone.else/status";
    sim.store.webhooksOf(sim.store.masterId).set("on-call", "https://someone.else/on");
    sim.store.createSubAccount(sim.store.masterId, { name: "New Co", default_destinations: {} });
    const before = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.code).toBe(1);
    expect(writes(sim)).toEqual([]);
    expect(run.stderr).toContain("the account changed since the plan was made (4 items); nothing was applied");
    expect(run.stderr).toContain('sub_account "Acme Support": status was "enabled" when planned, now "disabled"');
    expect(run.stderr).toContain('sub_account "New Co": no sub-account had this name when planned; now id');
    expect(run.stderr).toContain('number "15550000001": call_status_url was null when planned, now "https://someone.else/status"');
    expect(run.stderr).toContain('call_webhook "on-call": url was null when planned, now "https://someone.else/on"');
    expect(run.stdout).toBe("");
    noSecrets(run.stdout + run.stderr);
    // The account, then the same bounded recheck as above; then, the changes being not the plan's
    // own (not "already applied"), reads only.
    expect(requests(sim.log.slice(before, before + 4))).toEqual(["GET /v1/calls/webhooks", "GET /v1/numbers/11", "GET /v1/profile", "GET /v1/sub-organizations"]);
    expect(sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("a re-run of an apply that succeeded says \"already applied\" and exits 0, writing nothing; -f defaults to wavix.yaml", async () => {
    const { sim, env } = await start();
    const { dir, planFile } = await savePlan(env);
    // -f left out: wavix.yaml in the working directory, as for every other command.
    const first = await runCli(["apply", "--plan", planFile, "--auto-approve"], env, dir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const written = writes(sim).length;
    expect(written).toBeGreaterThan(0);
    const again = await runCli(["apply", "--plan", planFile, "--auto-approve"], env, dir);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    const digest = JSON.parse(readFileSync(planFile, "utf8")).digest as string;
    expect(again.stdout).toBe(`Already applied: the account already holds every change of the saved plan ${digest} (4 changes); nothing was written.\n`);
    expect(writes(sim).length).toBe(written);
    const json = await runCli(["apply", "--plan", planFile, "--auto-approve", "--json"], env, dir);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ already_applied: true });
    expect(writes(sim).length).toBe(written);
  });

  it("a re-run after part of the plan was undone, or with one change in effect and another not, still refuses", async () => {
    const { sim, env } = await start();
    const { dir, planFile } = await savePlan(env);
    expect((await runCli(["apply", "--plan", planFile, "--auto-approve"], env, dir)).code).toBe(0);
    const written = writes(sim).length;
    // Someone points the on-call webhook elsewhere: one change of the plan is no longer in effect.
    sim.store.webhooksOf(sim.store.masterId).set("on-call", "https://someone.else/on");
    const run = await runCli(["apply", "--plan", planFile, "--auto-approve"], env, dir);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain("Already applied");
    expect(run.stderr).toContain("the account changed since the plan was made");
    expect(writes(sim).length).toBe(written);
  });

  it("applies when what changed is something the plan does not touch", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    sim.store.numbers.get(11)!.data.sms_enabled = true; // not managed by the file for this number
    sim.store.numbers.get(13)!.data.sms_enabled = true; // a number the plan does not touch
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("refuses a plan made against another API root, before any request", async () => {
    const a = await start();
    const { file, planFile } = await savePlan(a.env);
    const b = await start();
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], b.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: this plan was made against ${a.sim.url}, and this run talks to ${b.sim.url}; nothing was applied.\n`);
    expect(b.sim.log).toEqual([]);
  });

  it("refuses a plan made for another account (the key is a sub-account's), before any read of what it changes", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    const planned = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], { ...env, WAVIX_API_KEY: SUB_KEY_A });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: this plan was made for account ${sim.store.masterId}, and the key in WAVIX_API_KEY is for account 2001; nothing was applied.\n`);
    expect(requests(sim.log.slice(planned))).toEqual(["GET /v1/profile"]);
  });

  it("a refusal is the --out report (stage saved-plan), so a pipeline's summary says why", async () => {
    const { sim, env } = await start();
    const { dir, file, planFile } = await savePlan(env);
    sim.store.subAccounts.get(2001)!.data.status = "disabled";
    const out = join(dir, "apply.md");
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve", "--out", out], env);
    expect(run.code).toBe(1);
    const md = readFileSync(out, "utf8");
    expect(md).toContain("saved-plan");
    expect(md).toContain('sub\\_account "Acme Support": status was "enabled" when planned, now "disabled"'.replace(/\\\\/g, "\\"));
    noSecrets(md);
    expect(writes(sim)).toEqual([]);
  });

  it("refuses another format version, a damaged file, a hand-edited one and something else, before any request", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    const original = readFileSync(planFile, "utf8");
    const planned = sim.log.length;
    const refused = async (expected: string) => {
      const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(expected);
      noSecrets(run.stderr);
      expect(sim.log.length).toBe(planned);
    };

    reDigest(planFile, (doc) => (doc.version = 1));
    await refused(
      "this saved plan has format version 1; this wavix-sync reads version 2 (an older wavix-sync made it, before saved plans named their account and were verified against the file). Make the plan again",
    );

    // Tampered: a URL changed by hand, digest left as it was.
    writeFileSync(planFile, original.replace("https://hooks.example/on", "https://evil.example/on"));
    await refused("this saved plan's contents do not match its digest");

    // Cut short (a truncated artifact).
    writeFileSync(planFile, original.slice(0, original.length / 2));
    await refused("this is not a saved plan (not JSON");

    // Edited with a matching digest, but with values no plan holds: each item named.
    writeFileSync(planFile, original);
    reDigest(planFile, (doc) => {
      for (const c of doc.plan.changes) {
        if (c.key === "Acme Support") (c.op as { desired: Record<string, unknown> }).desired.status = "deleted";
        if (c.key === "on-call") c.op = { url: "javascript:alert(1)" };
        if (c.key === "15550000001") (c.read as Record<string, unknown>).id = "eleven";
      }
    });
    await refused("this saved plan is malformed; nothing was applied:");
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.stderr).toContain('sub_account "Acme Support": op.desired.status is not one of enabled, disabled');
    expect(run.stderr).toContain('call_webhook "on-call": op.url is not an http(s) URL');
    expect(run.stderr).toContain('number "15550000001": read.id is not a whole number');

    writeFileSync(planFile, JSON.stringify({ version: 2, changes: [] }));
    await refused('this is not a saved plan (its "format" is not "wavix-sync-plan")');

    const missing = await runCli(["apply", "--plan", join(scratch(), "none.json"), "-f", file, "--auto-approve"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read --plan .*none\.json: no such file; nothing was applied/);
  });

  it("checks the digest of -f (the file the plan is verified against; default wavix.yaml), before any request", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    const planned = sim.log.length;
    // Run elsewhere: no wavix.yaml there, the default is named.
    const without = await runCli(["apply", "--plan", planFile, "--auto-approve"], env, scratch());
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/wavix\.yaml/);
    writeFileSync(file, FILE.replace("https://hooks.example/on", "https://hooks.example/on2"));
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not the file this plan was made from/);
    expect(sim.log.length).toBe(planned);
    writeFileSync(file, FILE);
    const ok = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(ok.code).toBe(0);
    expect(writes(sim)).toContain("POST /v1/calls/webhooks");
  });

  it("--prune is given to apply --plan exactly when the plan prunes (the apply's own command line says it deletes)", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--prune and --plan disagree: this plan was made without --prune");
    const pruned = await savePlan(env, FILE, ["--prune"]);
    const without = await runCli(["apply", "--plan", pruned.planFile, "-f", pruned.file, "--auto-approve"], env);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("this plan was made with --prune (it deletes or disables what the file does not declare): give --prune to apply --plan as well");
    expect(writes(sim)).toEqual([]);
    const ok = await runCli(["apply", "--plan", pruned.planFile, "-f", pruned.file, "--prune", "--auto-approve"], env);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(sim.store.subAccounts.get(2002)!.data.status).toBe("disabled");
  });

  it("a plan of no changes saves, and applies with no request but the account's", async () => {
    const { sim, env } = await start();
    const none = `version: 1\nnumbers:\n  - number: "15550000002"\n    transcription_threshold: 10\n`;
    const { file, planFile, r } = await savePlan(env, none);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(planFile, "utf8"));
    expect(doc.plan.changes).toEqual([]);
    const planned = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--json"], env);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ changes: [], ok: true, saved_plan: { digest: doc.digest } });
    expect(requests(sim.log.slice(planned))).toEqual(["GET /v1/profile"]);
  });

  it("apply --plan without --auto-approve still asks (and a pipeline without a terminal is refused)", async () => {
    const { sim, env } = await start();
    const { file, planFile } = await savePlan(env);
    const run = await runCli(["apply", "--plan", planFile, "-f", file], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("apply needs confirmation");
    expect(writes(sim)).toEqual([]);
  });
});

describe("saved plans of SIP trunks, Sender IDs, 10DLC links, account callbacks and tenants' numbers", () => {
  const TRUNK_PW = "trunk-pw-value-never-saved-31";
  const OTHERS = `version: 1
numbers:
  - number: "15550000021"
    sub_account: Acme Support
    call_status_url: https://hooks.example/tenant
sip_trunks:
  - label: new-pbx
    password_env: SAVED_IT_TRUNK_PW
    callerid: "15550000001"
  - label: acme-pbx
    password_env: SAVED_IT_TRUNK_PW
    max_call_cost: "0.25"
sender_ids:
  - { sender_id: AcmeNew, type: alphanumeric, countries: [GB], usecase: transactional }
  - { sender_id: AcmeOld, type: alphanumeric, countries: [FR, GB], usecase: promo, replace: true }
ten_dlc_campaign_numbers:
  - { brand_id: BRAND01, campaign_id: CAMP001, numbers: ["15550000001"] }
account_callbacks:
  sms_relay_url: https://hooks.example/sms
  dlr_relay_url: https://hooks.example/dlr
`;
  function othersSeed(): SimSeed {
    return {
      numbers: [
        { id: 11, number: "15550000001" },
        { id: 21, number: "15550000021", organization: 2001, call_status_url: null },
      ],
      subAccounts: [{ id: 2001, name: "Acme Support", api_key: SUB_KEY_A }],
      trunks: [
        { id: 500, name: "55500", label: "acme-pbx", callerid: "15550000001", max_call_cost: "0.18", password: "first-pw" },
        { id: 501, name: "55501", label: "old-pbx", callerid: "15550000001" },
      ],
      senderIds: [
        { sender_id: "AcmeOld", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" },
        { sender_id: "Stale", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo" },
      ],
      brands: [{ brand_id: "BRAND01" }],
      campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: [{ number: "15550000009", status: "APPROVED" }] }],
    };
  }
  const FLAGS = ["--prune", "--send-callbacks", "--rotate-password", "acme-pbx"];

  it("saves them with no secret, and apply --plan makes the same writes as a direct apply", async () => {
    const direct = await start(othersSeed());
    const directEnv = { ...direct.env, SAVED_IT_TRUNK_PW: TRUNK_PW };
    const directRun = await runCli(["apply", "-f", writeYaml(scratch(), "wavix.yaml", OTHERS), "--auto-approve", ...FLAGS], directEnv);
    expect(directRun.stderr).toBe("");
    expect(directRun.code, directRun.stdout).toBe(0);

    const { sim, env } = await start(othersSeed());
    const withPw = { ...env, SAVED_IT_TRUNK_PW: TRUNK_PW };
    const { file, planFile, r } = await savePlan(withPw, OTHERS, FLAGS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const text = readFileSync(planFile, "utf8");
    noSecrets(text);
    for (const secret of [TRUNK_PW, "first-pw"]) expect(text).not.toContain(secret);
    expect(text).toContain('"password_env": "SAVED_IT_TRUNK_PW"');
    const doc = JSON.parse(text);
    expect(doc.plan.changes.map((c: { kind: string; action: string; key: string }) => `${c.kind} ${c.action} ${c.key}`).sort()).toEqual([
      "account_callbacks update profile",
      "number update 15550000021",
      "sender_id create AcmeNew",
      "sender_id delete Stale",
      "sender_id replace AcmeOld",
      "sip_trunk create new-pbx",
      "sip_trunk delete old-pbx",
      "sip_trunk update acme-pbx",
      "ten_dlc_number create BRAND01/CAMP001/15550000001",
      "ten_dlc_number delete BRAND01/CAMP001/15550000009",
    ]);

    // Applied without the opt-ins: the plan says what it sends (callbacks, the rotation), as the
    // file declares it; --prune, which deletes, is the apply's own to say.
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], withPw);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    noSecrets(run.stdout);
    expect(run.stdout).not.toContain(TRUNK_PW);
    expect(writes(sim).sort()).toEqual(writes(direct.sim).sort());
    const account = (s: Simulator) => {
      const a = accountOf(s);
      // New Sender IDs and trunks get fresh ids and logins.
      for (const list of [a.senderIds, a.trunks]) for (const x of list ?? []) for (const k of ["id", "name", "access_token"]) delete x[k];
      // A link turns APPROVED (and Wavix makes its numeric Sender ID) some time after it is made.
      a.senderIds = a.senderIds.filter((x: { type: string }) => x.type !== "numeric");
      for (const c of a.campaigns) for (const n of c.numbers) delete n.status;
      return a;
    };
    expect(account(sim)).toEqual(account(direct.sim));
    // The rotated password and the callbacks were sent.
    expect(sim.store.messaging.callbacks).toEqual({ sms_relay_url: "https://hooks.example/sms", dlr_relay_url: "https://hooks.example/dlr" });
    expect(sim.store.trunks.get(500)?.password).toBe(TRUNK_PW);
    // The tenant's number was written with the tenant's key, fetched at apply time.
    expect(sim.store.numbers.get(21)!.data.call_status_url).toBe("https://hooks.example/tenant");
  });

  it("refuses, naming each item and writing nothing, when any of them changed since the plan", async () => {
    const { sim, env } = await start(othersSeed());
    const withPw = { ...env, SAVED_IT_TRUNK_PW: TRUNK_PW };
    const { file, planFile } = await savePlan(withPw, OTHERS, FLAGS);
    sim.store.trunks.get(500)!.data.max_call_cost = "0.5";
    sim.store.subAccounts.get(2001)!.data.name = "Acme Renamed";
    for (const s of sim.store.messaging.senderIds.values()) if (s.sender_id === "AcmeOld") s.usecase = "transactional";
    sim.store.messaging.campaigns.get("BRAND01/CAMP001")!.numbers.delete("15550000009");
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], withPw);
    expect(run.code).toBe(1);
    expect(writes(sim)).toEqual([]);
    expect(run.stderr).toContain("the account changed since the plan was made (4 items); nothing was applied");
    expect(run.stderr).toContain('sip_trunk "acme-pbx": max_call_cost was "0.18" when planned, now "0.5"');
    expect(run.stderr).toContain('number "15550000021": its owner, sub-account "Acme Support" (id 2001), was renamed to "Acme Renamed" since the plan');
    expect(run.stderr).toContain('sender_id "AcmeOld": usecase was "promo" when planned, now "transactional"');
    expect(run.stderr).toContain('ten_dlc_number "BRAND01/CAMP001/15550000009": linked was true when planned, now false');
    noSecrets(run.stdout + run.stderr);
    expect(run.stderr).not.toContain(TRUNK_PW);
  });

  it("refuses a tenant's number whose sub-account is gone, and a trunk password variable unset at apply time", async () => {
    const { sim, env } = await start(othersSeed());
    const { file, planFile } = await savePlan({ ...env, SAVED_IT_TRUNK_PW: TRUNK_PW }, OTHERS, FLAGS);
    const unset = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], env);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain("this saved plan cannot be carried out in this environment; nothing was applied:");
    expect(unset.stderr).toContain('sip_trunk "new-pbx": to create SIP trunk "new-pbx" its password is needed: the environment variable SAVED_IT_TRUNK_PW (password_env) is not set or empty');
    expect(writes(sim)).toEqual([]);
    sim.store.subAccounts.delete(2001);
    const gone = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], { ...env, SAVED_IT_TRUNK_PW: TRUNK_PW });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('number "15550000021": its owner, sub-account "Acme Support" (id 2001), no longer exists');
    expect(writes(sim)).toEqual([]);
  });
});

describe("apply --plan and the opt-ins the plan was made with", () => {
  it("refuses --send-callbacks or --rotate-password the plan was not made with, before any request", async () => {
    const { sim, env } = await start();
    const file = `${FILE}account_callbacks:\n  sms_relay_url: https://hooks.example/sms\n  dlr_relay_url: https://hooks.example/dlr\n`;
    const saved = await savePlan(env, file);
    const { planFile, r } = saved;
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(planFile, "utf8")).plan.changes.some((c: { kind: string }) => c.kind === "account_callbacks")).toBe(false);
    const planned = sim.log.length;
    const cb = await runCli(["apply", "--plan", planFile, "-f", saved.file, "--auto-approve", "--send-callbacks"], env);
    expect(cb.code).toBe(1);
    expect(cb.stderr).toContain("--send-callbacks and --plan disagree: this plan was made without --send-callbacks");
    const rot = await runCli(["apply", "--plan", planFile, "-f", saved.file, "--auto-approve", "--rotate-password", "acme-pbx"], env);
    expect(rot.code).toBe(1);
    expect(rot.stderr).toContain("--rotate-password and --plan disagree: this plan was not made with --rotate-password acme-pbx");
    expect(sim.log.length).toBe(planned);
  });
});
