/**
 * Effects complete (issue #33 item 5; docs/GUARD-RAILS.md, "What counts as destructive"): a trunk's
 * limits lifted (`ip_restrict: false`, `max_call_cost: "999999999"`, `max_channels: 100000`), a
 * number's callback URLs cleared, its SMS turned off, its destinations cut from two to one or
 * diverted to another PSTN number — each counts, through the CLI (a child process) against the
 * real simulator over HTTP: in the plan's JSON (`destructive`, `effects`), its text, the PR
 * comment's destructive section, and the safety limits (refused, no write; `--force` applies).
 * Before this fix the trunk passed `safety.max_destructive_total: 0` with `effects: []`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "effects-master-key-4Rz9";
const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const sip = (id: number, destination: string, priority: number) => ({ id, destination, priority, transport: 1 as const, trunk_id: null, srtp: false, trunk_label: null });
const pstn = (id: number, destination: string, priority: number) => ({ id, destination, priority, transport: 4 as const, trunk_id: null, srtp: false, trunk_label: null });

const seed = (): SimSeed => ({
  trunks: [
    {
      id: 144,
      name: "55501",
      label: "acme-pbx",
      callerid: "15550000001",
      ip_restrict: true,
      allowed_ips: [{ id: 1, ip: "203.0.113.10" }],
      cost_limit: true,
      max_call_cost: "0.1800",
      channels_restrict: true,
      max_channels: 4,
      password: "old-trunk-secret",
    },
  ],
  numbers: [
    { id: 11, number: "15550000001", sms_relay_url: "https://hooks.example/sms", call_status_url: "https://hooks.example/status" },
    { id: 12, number: "15550000002", sms_enabled: true },
    { id: 13, number: "15550000003", destination: [sip(101, "sip.example.net", 1), pstn(102, "15557654321", 2)] },
    { id: 14, number: "15550000004", destination: [pstn(103, "15557654321", 1)] },
  ],
});

const FILE = `version: 1
safety:
  max_destructive_total: 0
sip_trunks:
  - label: acme-pbx
    password_env: ACME_PBX_PASSWORD
    ip_restrict: false
    max_call_cost: "999999999"
    max_channels: 100000
numbers:
  - number: "15550000001"
    sms_relay_url: null
    call_status_url: null
  - number: "15550000002"
    sms_enabled: false
  - number: "15550000003"
    destinations:
      - { destination: sip.example.net, transport: sip, priority: 1 }
  - number: "15550000004"
    destinations:
      - { destination: "15559990000", transport: pstn, priority: 1 }
`;

async function start(): Promise<{ sim: Simulator; env: Record<string, string> }> {
  const sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], asyncDelayMs: 10 });
  sims.push(sim);
  return { sim, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, ACME_PBX_PASSWORD: "trunk-secret-Qv81" } };
}

const writes = (sim: Simulator) => sim.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

describe("limits lifted, callbacks cleared, SMS off, routing narrowed or diverted are destructive (issue #33 item 5)", () => {
  it("the plan's JSON, text and PR comment name each effect; max_destructive_total: 0 refuses with no write; --force applies", async () => {
    const { sim, env } = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);

    const json = JSON.parse((await runCli(["plan", "-f", file, "--json"], env)).stdout);
    const byKey = Object.fromEntries(json.changes.map((c: { key: string; destructive: boolean; effects?: string[] }) => [c.key, [c.destructive, c.effects ?? []]]));
    expect(byKey).toEqual({
      "acme-pbx": [true, ["limit_lifted"]],
      "15550000001": [true, ["callback_cleared"]],
      "15550000002": [true, ["sms_disabled"]],
      "15550000003": [true, ["routing_narrowed"]],
      "15550000004": [true, ["routing_diverted"]],
    });
    expect(json.summary.destructive).toBe(5);

    const text = (await runCli(["plan", "-f", file], env)).stdout;
    expect(text).toContain('# sip_trunk "acme-pbx" will be updated in place (destructive: limit lifted)');
    expect(text).toContain('# number "15550000001" will be updated in place (destructive: callback cleared)');
    expect(text).toContain('# number "15550000002" will be updated in place (destructive: SMS turned off)');
    expect(text).toContain('# number "15550000003" will be updated in place (destructive: routing narrowed)');
    expect(text).toContain('# number "15550000004" will be updated in place (destructive: routing diverted)');

    const md = join(dir, "plan.md");
    await runCli(["plan", "-f", file, "--format", "md", "--out", md], env);
    const comment = readFileSync(md, "utf8");
    for (const effect of ["limit lifted", "callback cleared", "SMS turned off", "routing narrowed", "routing diverted"]) expect(comment).toContain(`**${effect}**`);

    const refused = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("5 destructive changes in all, across kinds, exceed the limit of safety.max_destructive_total 0");
    expect(writes(sim)).toEqual([]);

    const forced = await runCli(["apply", "-f", file, "--auto-approve", "--force"], env);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("Over the safety limit; applying anyway (--force)");
    const trunk = sim.store.trunks.get(144)!;
    expect(trunk.data).toMatchObject({ ip_restrict: false, max_channels: 100000 });
    expect(Number(trunk.data.max_call_cost)).toBe(999999999);
  });

  it("a change that lifts nothing is not destructive: a lower cost limit, a first route, a new callback URL", async () => {
    const { env } = await start();
    const file = writeYaml(
      scratch(),
      "wavix.yaml",
      `version: 1
sip_trunks:
  - label: acme-pbx
    password_env: ACME_PBX_PASSWORD
    max_call_cost: "0.10"
    max_channels: 2
numbers:
  - number: "15550000001"
    sms_relay_url: https://hooks.example/sms-2
  - number: "15550000002"
    destinations:
      - { destination: sip.example.net, transport: sip, priority: 1 }
  - number: "15550000003"
    destinations:
      - { destination: "15557654321", transport: pstn, priority: 1 }
      - { destination: sip.example.net, transport: sip, priority: 2 }
`,
    );
    const json = JSON.parse((await runCli(["plan", "-f", file, "--json"], env)).stdout);
    // 15550000003: the same two targets with their priorities swapped (where calls go is unchanged).
    expect(json.changes.map((c: { key: string; destructive: boolean }) => `${c.key}:${c.destructive}`)).toEqual([
      "acme-pbx:false",
      "15550000001:false",
      "15550000002:false",
      "15550000003:false",
    ]);
    expect(json.summary.destructive).toBe(0);
  });
});
