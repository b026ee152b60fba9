// SIP trunks (issue #21, src/kinds/sip-trunk): plan, apply, rotation, prune refusals, numbers
// routed by label, export — against the strict simulator over HTTP, counting its requests. The
// simulator checks every request against schemas/api/trunk-*.request.schema.json (the official
// document's facts), so a body the API would refuse fails the suite.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { applyPlan, computePlan, formatPlan, formatPlanMarkdown, planJson, type PreparedPlan } from "../../src/plan";
import { exportAccount, streamExport } from "../../src/resources/export";
import { stringifyDesiredState } from "../../src/config/serialize";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "trunk-test-key-3c9d";
const PW = "Pw-for-acme-pbx-7Hq2!";
let sim: Simulator | undefined;

function seed(): SimSeed {
  return {
    numbers: [
      { id: 11, number: "15550000001" },
      { id: 12, number: "15550000002" },
      {
        id: 13,
        number: "15550000003",
        destination: [{ id: 1, destination: "55501", priority: 1, transport: 5, trunk_id: 501, srtp: false, trunk_label: "old-pbx" }],
      },
    ],
    trunks: [
      {
        id: 500,
        name: "55500",
        label: "acme-pbx",
        callerid: "15550000001",
        ip_restrict: true,
        allowed_ips: [
          { id: 1, ip: "203.0.113.10" },
          { id: 2, ip: "203.0.113.11" },
        ],
        cost_limit: true,
        max_call_cost: "0.1800",
        access_token: "sip-token-acme-0123456789abcdef0123",
        password: "first-password",
      },
      { id: 501, name: "55501", label: "old-pbx", callerid: "15550000002", access_token: "sip-token-old-0123456789abcdef0123" },
      { id: 502, name: "55502", label: "spare", callerid: "15550000002", access_token: "sip-token-spare-0123456789abcdef012" },
    ],
  };
}

beforeEach(() => {
  process.env.TRUNK_TEST_ACME_PW = PW;
  delete process.env.TRUNK_TEST_MISSING_PW;
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  delete process.env.TRUNK_TEST_ACME_PW;
});

async function start(): Promise<{ sim: Simulator; client: WavixClient }> {
  sim = await startSimulator({ seed: seed(), apiKeys: [{ key: KEY }] });
  return { sim, client: new WavixClient({ apiKey: KEY, baseUrl: sim.url }) };
}

function state(yaml: string) {
  const parsed = parseDesiredState(yaml, "t.yaml");
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("\n"));
  return parsed.state;
}

const writes = (s: Simulator) => s.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

async function planApply(client: WavixClient, yaml: string, options: { prune?: boolean; rotate?: string[] } = {}) {
  const prepared = await computePlan(client, state(yaml), options);
  const result = await applyPlan(client, prepared, { pollBaseMs: 10, waitSeconds: 5 });
  return { prepared, result };
}

const ACME = `  - label: acme-pbx
    password_env: TRUNK_TEST_ACME_PW
    ip_restrict: true
    allowed_ips: [203.0.113.11, 203.0.113.10]
    cost_limit: true
    max_call_cost: "0.18"
`;

describe("sip_trunks: plan and apply", () => {
  it("an unchanged trunk plans clean: IP lists as sets, money as decimals, the password not compared (GETs only)", async () => {
    const { sim, client } = await start();
    const prepared = await computePlan(client, state(`version: 1\nsip_trunks:\n${ACME}`));
    expect(prepared.plan.changes).toEqual([]);
    expect(prepared.plan.problems).toEqual([]);
    expect(prepared.plan.unmanaged.map((u) => `${u.kind}:${u.key}`).sort()).toEqual(["sip_trunk:old-pbx", "sip_trunk:spare"]);
    // One listing, then the declared trunk's whole record (the listing carries fewer fields).
    expect(sim.log.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /v1/trunks", "GET /v1/trunks/500"]);
  });

  it("creates a trunk with the password from password_env, and never shows the password or the access token", async () => {
    const { sim, client } = await start();
    process.env.TRUNK_TEST_NEW_PW = "new-trunk-password-XYZ";
    try {
      const yaml = `version: 1\nsip_trunks:\n  - label: new-pbx\n    password_env: TRUNK_TEST_NEW_PW\n    callerid: "15550000002"\n    max_call_cost: "0.05"\n    allowed_ips: [198.51.100.7]\n`;
      const { prepared, result } = await planApply(client, yaml);
      expect(prepared.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["sip_trunk:create:new-pbx"]);
      expect(result.ok).toBe(true);
      expect(writes(sim)).toEqual(["POST /v1/trunks"]);
      const made = [...sim.store.trunks.values()].find((r) => r.data.label === "new-pbx")!;
      expect(made.password).toBe("new-trunk-password-XYZ");
      expect(made.data.max_call_cost).toBe("0.0500");
      const shown = [formatPlan(prepared.plan, "t.yaml"), formatPlanMarkdown(prepared.plan, "t.yaml"), JSON.stringify(planJson(prepared.plan))].join("\n");
      expect(shown).not.toContain("new-trunk-password-XYZ");
      expect(shown).not.toContain(made.data.access_token!);
      // Write-only, read at apply: the plan shows it as (sensitive), never its value.
      expect(prepared.plan.changes[0].diff.find((d) => d.path === "password")).toEqual({ path: "password", before: null, after: "(sensitive)", sensitive: true });
      // Plans clean afterwards.
      const again = await computePlan(client, state(yaml));
      expect(again.plan.changes).toEqual([]);
    } finally {
      delete process.env.TRUNK_TEST_NEW_PW;
    }
  });

  it("a plan needs no password (issue #27); apply with its variable unset is refused before any write, naming the trunk and the variable (issue #33)", async () => {
    const { sim, client } = await start();
    const yaml = `version: 1\nsip_trunks:\n  - label: new-pbx\n    password_env: TRUNK_TEST_MISSING_PW\n    callerid: "15550000002"\nnumbers:\n  - number: "15550000001"\n    destinations:\n      - { transport: trunk, trunk: new-pbx, priority: 1 }\n`;
    const prepared = await computePlan(client, state(yaml));
    expect(prepared.plan.problems).toEqual([]);
    expect(prepared.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["sip_trunk:create:new-pbx", "number:update:15550000001"]);
    await expect(applyPlan(client, prepared)).rejects.toThrowError(/nothing was written: sip_trunk "new-pbx": .*the environment variable TRUNK_TEST_MISSING_PW \(password_env\) is not set or empty/);
    expect(writes(sim)).toEqual([]);
  });

  it("an update is one PUT of the merged record with the password (the official PUT requires it); the plan says it cannot be compared and which variable apply reads", async () => {
    const { sim, client } = await start();
    const yaml = `version: 1\nsip_trunks:\n${ACME}    call_recording_enabled: true\n    max_channels: 3\n`;
    const { prepared, result } = await planApply(client, yaml);
    const change = prepared.plan.changes[0];
    expect(change.action).toBe("update");
    expect(change.diff.map((d) => d.path)).toEqual(["max_channels", "call_recording_enabled", "password"]);
    expect(change.diff[2].before).toBe("(cannot be compared: write-only)");
    expect(String(change.diff[2].after)).toBe("(sent again: the value of TRUNK_TEST_ACME_PW, read at apply)");
    expect(result.ok).toBe(true);
    expect(writes(sim)).toEqual(["PUT /v1/trunks/500"]);
    const rec = sim.store.trunks.get(500)!;
    expect(rec.password).toBe(PW);
    // Fields the file does not manage kept their values (the PUT is a merge).
    expect(rec.data.callerid).toBe("15550000001");
    expect(rec.data.allowed_ips.map((x) => x.ip).sort()).toEqual(["203.0.113.10", "203.0.113.11"]);
    expect(rec.data.max_call_cost).toBe("0.1800");
    expect((await computePlan(client, state(yaml))).plan.changes).toEqual([]);
  });

  it("--rotate-password LABEL sends the password again (one PUT); without the variable it plans, and apply refuses it before any write", async () => {
    const { sim, client } = await start();
    const yaml = `version: 1\nsip_trunks:\n${ACME}`;
    const { prepared, result } = await planApply(client, yaml, { rotate: ["acme-pbx"] });
    expect(prepared.plan.changes[0].diff).toEqual([
      { path: "password", before: "(cannot be compared: write-only)", after: "(rotated: the value of TRUNK_TEST_ACME_PW, read at apply)" },
    ]);
    expect(result.ok).toBe(true);
    expect(writes(sim)).toEqual(["PUT /v1/trunks/500"]);
    expect(sim.store.trunks.get(500)!.password).toBe(PW);
    delete process.env.TRUNK_TEST_ACME_PW;
    const unknown = await computePlan(client, state(yaml), { rotate: ["acme-pbx", "nope"] });
    expect(unknown.plan.problems.map((p) => p.key)).toEqual(["nope"]);
    sim.log.length = 0;
    const again = await computePlan(client, state(yaml), { rotate: ["acme-pbx"] });
    expect(again.plan.problems).toEqual([]);
    await expect(applyPlan(client, again)).rejects.toThrowError(/TRUNK_TEST_ACME_PW \(password_env\) is not set or empty/);
    expect(writes(sim)).toEqual([]);
  });

  it("a number routed by label to a trunk created in the same apply gets the new trunk's login and id", async () => {
    const { sim, client } = await start();
    process.env.TRUNK_TEST_NEW_PW = "another-new-password";
    try {
      const yaml = `version: 1\nsip_trunks:\n  - label: new-pbx\n    password_env: TRUNK_TEST_NEW_PW\n    multiple_numbers: true\n  - label: acme-pbx\nnumbers:\n  - number: "15550000001"\n    destinations:\n      - { transport: trunk, trunk: new-pbx, priority: 1 }\n      - { transport: trunk, trunk: acme-pbx, priority: 2 }\n`;
      const { prepared, result } = await planApply(client, yaml);
      expect(prepared.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["sip_trunk:create:new-pbx", "number:update:15550000001"]);
      expect(JSON.stringify(prepared.plan.changes[1].diff)).toContain('login of SIP trunk \\"new-pbx\\", known after apply');
      expect(result.ok).toBe(true);
      // The trunk first, then the number (its wave comes after the trunks').
      expect(writes(sim)).toEqual(["POST /v1/trunks", "PATCH /v1/numbers/11"]);
      const made = [...sim.store.trunks.values()].find((r) => r.data.label === "new-pbx")!.data;
      const dest = sim.store.numbers.get(11)!.data.destination.map((d) => [d.destination, d.trunk_id, d.priority]);
      expect(dest).toEqual([
        [made.name, made.id, 1],
        ["55500", 500, 2],
      ]);
      expect((await computePlan(client, state(yaml))).plan.changes).toEqual([]);
    } finally {
      delete process.env.TRUNK_TEST_NEW_PW;
    }
  });

  it("deletes an undeclared trunk only with --prune, and never one a number routes to (now or as declared)", async () => {
    const { sim, client } = await start();
    const declaredRoute = `version: 1\nsip_trunks:\n${ACME}numbers:\n  - number: "15550000002"\n    destinations:\n      - { destination: "55502", transport: trunk, trunk_id: 502, priority: 1 }\n`;
    const without = await computePlan(client, state(declaredRoute));
    expect(without.plan.changes.filter((c) => c.action === "delete")).toEqual([]);
    const pruned: PreparedPlan = await computePlan(client, state(declaredRoute), { prune: true });
    // old-pbx: number 15550000003 routes to it now; spare: the file routes 15550000002 to it.
    expect(pruned.plan.changes.filter((c) => c.kind === "sip_trunk")).toEqual([]);
    expect(pruned.plan.problems.map((p) => p.message)).toEqual([
      'SIP trunk "old-pbx" (id 501) is not deleted: number 15550000003 routes to it; route it elsewhere first (apply), then prune',
      'SIP trunk "spare" (id 502) is not deleted: number 15550000002 routes to it; route it elsewhere first (apply), then prune',
    ]);
    const free = await planApply(client, `version: 1\nsip_trunks:\n${ACME}  - label: old-pbx\n`, { prune: true });
    expect(free.prepared.plan.changes.map((c) => `${c.action}:${c.key}`)).toEqual(["delete:spare"]);
    expect(free.result.ok).toBe(true);
    expect(writes(sim)).toEqual(["DELETE /v1/trunks/502"]);
    expect(sim.store.trunks.has(502)).toBe(false);
  });

  it("two trunks of one label are a problem asking for id:, and id: pins one (a new label renames it)", async () => {
    const { sim, client } = await start();
    sim.store.trunks.set(600, { organization: sim.store.masterId, password: "x", data: { ...sim.store.trunks.get(502)!.data, id: 600, label: "acme-pbx" } });
    const ambiguous = await computePlan(client, state(`version: 1\nsip_trunks:\n  - label: acme-pbx\n`));
    expect(ambiguous.plan.problems[0].message).toContain("matches 2 existing trunks (ids 500, 600): add `id:`");
    const { result } = await planApply(client, `version: 1\nsip_trunks:\n  - label: renamed\n    id: 600\n    password_env: TRUNK_TEST_ACME_PW\n`);
    expect(result.ok).toBe(true);
    expect(sim.store.trunks.get(600)!.data.label).toBe("renamed");
  });

  it("export writes trunks with a password_env placeholder and no token; a plan of the export is clean", async () => {
    const { client } = await start();
    let text = "";
    await streamExport(client, (c) => void (text += c), { schemaPath: null });
    expect(text).toContain("password_env: SIP_TRUNK_ACME_PBX_PASSWORD");
    expect(text).toContain("# password_env names a placeholder variable");
    expect(text).not.toMatch(/sip-token-/);
    const exported = state(text);
    const plan = await computePlan(client, exported, { prune: true });
    expect(plan.plan.changes).toEqual([]);
    expect(plan.plan.problems).toEqual([]);
    // The declared state and the way back to the file agree.
    expect(stringifyDesiredState(await exportAccount(client))).toContain("sip_trunks:");
  });
});

describe("sip_trunks: the file", () => {
  it("takes password_env but refuses a password, and a number's trunk: must name a declared trunk", () => {
    const bad = parseDesiredState(
      `version: 1\nsip_trunks:\n  - label: a\n    password: hunter2\n  - label: a\nnumbers:\n  - number: "1555"\n    destinations:\n      - { transport: trunk, trunk: b, priority: 1 }\n      - { transport: sip, trunk: a, destination: x, priority: 2 }\n`,
      "f.yaml",
    );
    expect(bad.ok).toBe(false);
    const messages = bad.ok ? [] : bad.problems.map((p) => `${p.path}: ${p.message}`);
    expect(messages.join("\n")).toContain("sip_trunks[0].password");
    expect(messages.join("\n")).toContain("password_env: VARIABLE");
    expect(messages.join("\n")).toContain('duplicate trunk label "a"');
    expect(messages.join("\n")).toContain('SIP trunk "b" is not declared in sip_trunks');
    expect(messages.join("\n")).toContain("trunk is only allowed with transport trunk");
    expect(parseDesiredState(`version: 1\nsip_trunks:\n  - label: a\n    password_env: A_PW\n    allowed_ips: [1.2.3.4]\n`, "g.yaml").ok).toBe(true);
  });
});

describe("sip_trunks: the CLI", () => {
  it("text, JSON and Markdown plans show the trunk change, the password as not comparable, never the token; --rotate-password rotates", async () => {
    const { sim } = await start();
    const dir = scratch();
    const file = writeYaml(dir, "w.yaml", `version: 1\nsip_trunks:\n${ACME}    encrypted_media: true\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
    for (const format of ["text", "json", "md"]) {
      const run = await runCli(["plan", "-f", file, "--format", format], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("encrypted_media");
      expect(run.stdout).toContain("cannot be compared");
      expect(run.stdout + run.stderr).not.toContain("sip-token-");
    }
    const rotate = await runCli(["apply", "-f", file, "--auto-approve", "--rotate-password", "acme-pbx"], { ...env, TRUNK_TEST_ACME_PW: "rotated-via-cli" });
    expect(rotate.code, rotate.stderr).toBe(0);
    expect(rotate.stdout + rotate.stderr).not.toContain("rotated-via-cli");
    expect(sim.store.trunks.get(500)!.password).toBe("rotated-via-cli");
  });
});
