/**
 * Tenants in the file (issue #20): numbers with `sub_account:` are read and written with that
 * sub-account's own key, through the CLI (a child process) against the strict simulator over HTTP.
 * Requests are counted per organisation (the simulator logs which organisation each key
 * authenticated as), and no sub-account key may appear in stdout, stderr or any --out file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { computePlan } from "../../src/plan";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { generateAccount, startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml, type CliRun } from "../helpers/cli";

const KEY = "tenant-test-master-key-77aa";
const KEY_A = "tenant-alpha-key-0c1d2e3f";
const KEY_B = "tenant-beta-key-4a5b6c7d";
const KEY_OFF = "tenant-off-key-8e9f0a1b";
const KEYS = [KEY, KEY_A, KEY_B, KEY_OFF];

function seed(): SimSeed {
  return {
    organizationId: 1000,
    subAccounts: [
      { id: 2001, name: "Tenant Alpha", api_key: KEY_A, status: "enabled" },
      { id: 2002, name: "Tenant Beta", api_key: KEY_B, status: "enabled" },
      { id: 2003, name: "Offboarded", api_key: KEY_OFF, status: "disabled" },
    ],
    numbers: [
      { id: 1, number: "15550000001", sms_enabled: false },
      { id: 11, number: "15550000011", organization: 2001, sms_enabled: false, call_status_url: null },
      { id: 12, number: "15550000012", organization: 2001, sms_enabled: false },
      { id: 13, number: "15550000013", organization: 2001, sms_enabled: false },
      { id: 21, number: "15550000021", organization: 2002, sms_enabled: true },
      { id: 31, number: "15550000031", organization: 2003, sms_enabled: true },
    ],
  };
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(s: SimSeed = seed()) {
  sim = await startSimulator({ port: 0, seed: s, apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

/** No key of any organisation, and no stack trace, in what the run printed or wrote. */
function noSecrets(r: CliRun, files: string[] = []) {
  const texts = [r.stdout, r.stderr, ...files.map((f) => readFileSync(f, "utf8"))];
  for (const text of texts) {
    for (const secret of KEYS) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  }
}

/** Requests since `from`, by organisation and operation: `2001 GET /v1/numbers` → count. */
function byOrg(from: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of sim!.log.slice(from)) {
    const op = `${e.org ?? "-"} ${e.method} ${e.path.replace(/\/\d+$/, "/{id}")}`;
    out[op] = (out[op] ?? 0) + 1;
  }
  return out;
}

const TENANT_FILE = `version: 1
sub_accounts:
  - name: Tenant Alpha
    id: 2001
  - name: Tenant Beta
numbers:
  - number: "15550000001"
    sms_enabled: true
  - number: "15550000011"
    sub_account: Tenant Alpha
    sms_enabled: true
    call_status_url: https://alpha.example/status
  - number: "15550000012"
    sub_account: 2001
    sms_enabled: true
  - number: "15550000013"
    sub_account: Tenant Alpha
    sms_enabled: true
  - number: "15550000021"
    sub_account: Tenant Beta
    sms_enabled: false
`;

describe("plan and apply with tenants' numbers", () => {
  it("reads and writes each tenant's numbers with its own key, shows the owner, and converges", async () => {
    const env = await start();
    const dir = scratch();
    const f = writeYaml(dir, "w.yaml", TENANT_FILE);
    const planOut = join(dir, "plan.json");
    const plan = await runCli(["plan", "-f", f, "--detailed-exitcode", "--out", planOut], env);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('# number "15550000011" of sub_account "Tenant Alpha" (id 2001) will be updated in place');
    expect(plan.stdout).toContain('# number "15550000021" of sub_account "Tenant Beta" (id 2002) will be updated in place');
    expect(plan.stdout).toContain('# number "15550000001" will be updated in place');
    // 15550000021 turns SMS off: destructive (docs/GUARD-RAILS.md), under the default limits.
    expect(plan.stdout).toContain("Plan: 0 to create, 5 to update, 0 to delete, 2 unchanged; 1 destructive.");
    const json = JSON.parse(readFileSync(planOut, "utf8"));
    const alpha = json.changes.find((c: { key: string }) => c.key === "15550000012");
    expect(alpha.owner).toEqual({ kind: "sub_account", key: "Tenant Alpha", id: 2001 });
    expect(json.changes.find((c: { key: string }) => c.key === "15550000001").owner).toBeUndefined();
    noSecrets(plan, [planOut]);

    // Pages per tenant, not numbers: one listing of sub-accounts, one page of each tenant's numbers.
    let from = sim!.log.length;
    const again = await runCli(["plan", "-f", f, "--json"], env);
    expect(again.code).toBe(0);
    expect(byOrg(from)).toEqual({
      "1000 GET /v1/numbers": 1,
      "1000 GET /v1/sub-organizations": 1,
      "2001 GET /v1/numbers": 1,
      "2002 GET /v1/numbers": 1,
    });

    from = sim!.log.length;
    const mdOut = join(dir, "apply.md");
    const apply = await runCli(["apply", "-f", f, "--auto-approve", "--out", mdOut], env);
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    noSecrets(apply, [mdOut]);
    expect(readFileSync(mdOut, "utf8")).toContain("<code>15550000011</code> of sub_account \"Tenant Alpha\" (id 2001)");
    const writes = Object.entries(byOrg(from)).filter(([op]) => op.includes("PATCH"));
    // Each tenant's numbers with its own key: the two Alpha numbers with one patch go in one bulk PATCH.
    expect(Object.fromEntries(writes)).toEqual({
      "1000 PATCH /v1/numbers/{id}": 1,
      "2001 PATCH /v1/numbers/{id}": 1,
      "2001 PATCH /v1/numbers": 1,
      "2002 PATCH /v1/numbers/{id}": 1,
    });
    expect(sim!.log.slice(from).every((e) => e.status < 400)).toBe(true);
    // Written where they are: ownership unchanged, settings as declared.
    const n11 = sim!.store.numbers.get(11)!;
    expect(n11.organization).toBe(2001);
    expect(n11.data.sms_enabled).toBe(true);
    expect(n11.data.call_status_url).toBe("https://alpha.example/status");
    expect(sim!.store.numbers.get(21)!.data.sms_enabled).toBe(false);

    const after = await runCli(["plan", "-f", f, "--detailed-exitcode"], env);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("No changes. The account matches");
    noSecrets(after);
  });

  it("refuses a number found under another owner, naming both, and writes nothing at all", async () => {
    const env = await start();
    const f = writeYaml(
      scratch(),
      "w.yaml",
      `version: 1
numbers:
  - number: "15550000021"
    sub_account: Tenant Alpha
    sms_enabled: false
  - number: "15550000001"
    sub_account: Tenant Beta
  - number: "15550000011"
    sms_enabled: true
  - number: "15550000012"
    sub_account: Tenant Alpha
    sms_enabled: true
`,
    );
    const from = sim!.log.length;
    const r = await runCli(["apply", "-f", f, "--auto-approve"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'number "15550000021": number 15550000021 is declared under sub-account "Tenant Alpha" (id 2001), but it belongs to sub-account "Tenant Beta" (id 2002): ' +
        "the API cannot move a number to another owner",
    );
    expect(r.stderr).toContain('Write sub_account: "Tenant Beta" (or id 2002), or move it in the Wavix portal first');
    expect(r.stderr).toContain(
      'number "15550000001": number 15550000001 is declared under sub-account "Tenant Beta" (id 2002), but it belongs to the account itself',
    );
    expect(r.stderr).toContain(
      'number "15550000011": number 15550000011 belongs to sub-account "Tenant Alpha" (id 2001), not to the account itself: declare it with sub_account: "Tenant Alpha"',
    );
    expect(r.stderr + r.stdout).not.toContain("buy it first");
    noSecrets(r);
    // Nothing is written from a plan with problems, not even the number that is where the file
    // says (docs/GUARD-RAILS.md, "A plan with problems writes nothing").
    const patches = sim!.log.slice(from).filter((e) => e.method !== "GET");
    expect(patches.map((e) => `${e.org} ${e.method} ${e.path}`)).toEqual([]);
    expect(r.stdout + r.stderr).toContain("nothing was written");
    expect(sim!.store.numbers.get(21)!.data.sms_enabled).toBe(true);
    expect(sim!.store.numbers.get(21)!.organization).toBe(2002);
  });

  it("a sub-account new in the same apply: its numbers are a clear error, and nothing is created until the file is fixed", async () => {
    const env = await start();
    const f = writeYaml(
      scratch(),
      "w.yaml",
      `version: 1
sub_accounts:
  - name: Tenant Gamma
numbers:
  - number: "15550000099"
    sub_account: Tenant Gamma
    sms_enabled: true
`,
    );
    const plan = await runCli(["plan", "-f", f], env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'number "15550000099": sub-account "Tenant Gamma" does not exist yet (this apply would create it), and a new sub-account owns no numbers',
    );
    expect(plan.stdout).toContain('+ sub_account "Tenant Gamma"');
    const apply = await runCli(["apply", "-f", f, "--auto-approve"], env);
    expect(apply.code).toBe(1);
    // A plan with problems writes nothing (docs/GUARD-RAILS.md): not even the sub-account.
    expect([...sim!.store.subAccounts.values()].filter((s) => s.data.name === "Tenant Gamma")).toHaveLength(0);
    expect(apply.stdout + apply.stderr).toContain("nothing was written");
    noSecrets(apply);
  });

  it("a disabled sub-account's numbers: its key is refused, said plainly for its numbers only", async () => {
    const env = await start();
    const f = writeYaml(
      scratch(),
      "w.yaml",
      `version: 1
numbers:
  - number: "15550000031"
    sub_account: Offboarded
    sms_enabled: false
  - number: "15550000021"
    sub_account: Tenant Beta
    sms_enabled: true
`,
    );
    const r = await runCli(["plan", "-f", f], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`number "15550000031": the API refused sub-account "Offboarded" (id 2003)'s key (it is disabled: enable it with status: enabled, apply, then plan again)`);
    expect(r.stdout).toContain("1 unchanged");
    noSecrets(r);
  });

  it("a file that disables a sub-account while declaring its numbers is refused for those numbers", async () => {
    const env = await start();
    const f = writeYaml(
      scratch(),
      "w.yaml",
      `version: 1
sub_accounts:
  - name: Tenant Beta
    status: disabled
numbers:
  - number: "15550000021"
    sub_account: Tenant Beta
    sms_enabled: false
`,
    );
    const r = await runCli(["plan", "-f", f], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sub-account "Tenant Beta" (id 2002) is disabled by this file, and a disabled sub-account\'s key is refused');
  });
});

describe("the file", () => {
  it("a sub_account not declared in sub_accounts is reported at its line", async () => {
    const f = writeYaml(
      scratch(),
      "w.yaml",
      `version: 1
sub_accounts:
  - name: Tenant Alpha
numbers:
  - number: "15550000011"
    sub_account: Tenant Alfa
  - number: "15550000012"
    sub_account: 2001
`,
    );
    const r = await runCli(["validate", "-f", f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${f}:6:18: sub-account "Tenant Alfa" is not declared in sub_accounts: declare it there (its numbers are managed with its key) (at numbers[0].sub_account)`);
    expect(r.stderr).toContain(`${f}:8:18: sub-account id 2001 is not pinned in sub_accounts: declare that sub-account with id: 2001, or write its name (at numbers[1].sub_account)`);
  });
});

describe("export with tenants", () => {
  it("writes tenant numbers with sub_account and pins every sub-account; a plan of it is clean; a portal rename is a rename", async () => {
    const env = await start();
    const dir = scratch();
    const out = join(dir, "export.yaml");
    const exp = await runCli(["export", "--out", out], env);
    expect(exp.code).toBe(0);
    noSecrets(exp, [out]);
    const text = readFileSync(out, "utf8");
    expect(text).toContain("  - name: Tenant Alpha\n    id: 2001\n");
    expect(text).toContain("  - name: Tenant Beta\n    id: 2002\n");
    expect(text).toContain("  - name: Offboarded\n    id: 2003\n");
    expect(text).toContain('  - number: "15550000012"\n    sub_account: Tenant Alpha\n');
    expect(text).toContain('  - number: "15550000021"\n    sub_account: Tenant Beta\n');
    // The disabled sub-account's key is refused: its numbers are left out, and the file says so.
    expect(text).toContain('# numbers not exported: sub-account "Offboarded" (id 2003): the API refused its key (it is disabled)');
    expect(text).not.toContain("15550000031");

    const plan = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("No changes. The account matches");

    // Renamed in the portal: pinned by id, so the plan renames it back, never a second sub-account.
    sim!.store.subAccounts.get(2001)!.data.name = "Alpha (renamed)";
    const renamed = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(renamed.stderr).toBe("");
    expect(renamed.code).toBe(2);
    expect(renamed.stdout).toContain('~ name = "Alpha (renamed)" → "Tenant Alpha"');
    expect(renamed.stdout).toContain("Plan: 0 to create, 1 to update, 0 to delete");
    noSecrets(renamed);
  });

  it("two sub-accounts of one name: their numbers are exported by id", async () => {
    const s = seed();
    s.subAccounts![1].name = "Tenant Alpha";
    const env = await start(s);
    const out = join(scratch(), "export.yaml");
    expect((await runCli(["export", "--out", out], env)).code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain('  - number: "15550000012"\n    sub_account: 2001\n');
    expect(text).toContain('  - number: "15550000021"\n    sub_account: 2002\n');
    const plan = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
  });
});

describe("tenants at scale", () => {
  it("100 sub-accounts × 100 numbers: one page per tenant, each read with its own key", async () => {
    const account = generateAccount({ numbers: 100, subAccounts: 100, numbersPerSubAccount: 100 });
    sim = await startSimulator({ port: 0, seed: account, apiKeys: [{ key: KEY }] });
    const lines = ["version: 1", "numbers:"];
    for (const n of account.numbers!) {
      lines.push(`  - number: "${n.number}"`);
      if (n.organization !== undefined) lines.push(`    sub_account: Sub-account ${String(n.organization - 2000).padStart(4, "0")}`);
      lines.push(`    sms_enabled: ${n.sms_enabled}`);
    }
    const parsed = parseDesiredState(lines.join("\n") + "\n", "scale.yaml");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    const { plan } = await computePlan(client, parsed.state);
    expect(plan.problems).toEqual([]);
    expect(plan.summary.unchanged).toBe(10_100);
    const counts = byOrg(0);
    expect(counts["1000 GET /v1/sub-organizations"]).toBe(1);
    expect(counts["1000 GET /v1/numbers"]).toBe(1);
    for (let i = 1; i <= 100; i++) expect(counts[`${2000 + i} GET /v1/numbers`]).toBe(1);
    expect(sim.log.length).toBe(102);
  });
});
