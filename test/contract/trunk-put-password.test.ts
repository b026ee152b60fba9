/**
 * Trunk writes as the official document says (issue #33 item 6): `PUT /v1/trunks/{id}` replaces
 * the trunk, and its body (SIPTrunkCreateRequest) requires `password`. Against the strict server
 * (test/helpers/strict-server.ts: the official required fields only in answers, PUT replaces, the
 * simulator's request schema requiring `password` on PUT):
 * - a PUT without the password is refused (400 naming it), the trunk unchanged;
 * - an ordinary update through the CLI carries the password, from the variable `password_env` names;
 * - the plan says which variable apply will read (and needs none itself); a file with no
 *   `password_env` for a trunk it updates is a plan problem;
 * - apply with the variable unset is refused before ANY write — also another kind's — naming the
 *   trunk and the variable; the same with `apply --plan`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { WavixClient } from "../../src/client";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";

const KEY = "trunk-put-key-6Hc3";
const opened: StrictServer[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function strict(): Promise<{ server: StrictServer; env: Record<string, string> }> {
  const server = await startStrictServer({
    apiKeys: [{ key: KEY }],
    seed: {
      numbers: [{ id: 11, number: "15550000001", sms_enabled: false }],
      trunks: [{ id: 700, label: "edge", callerid: "15550000001", password: "the-old-password" }],
    },
  });
  opened.push(server);
  return { server, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: server.url, EDGE_PW: "the-new-password-41" } };
}

/** Every setting declared: the strict server's answers show few of them, and a PUT replaces the trunk. */
const TRUNK = `  - label: edge
    password_env: EDGE_PW
    host: 203.0.113.5
    callerid: "15550000001"
    multiple_numbers: false
    ip_restrict: false
    allowed_ips: []
    didinfo_enabled: true
    call_restrict: false
    call_limit: 600
    cost_limit: true
    max_call_cost: "0.15"
    channels_restrict: false
    max_channels: 4
    rewrite_enabled: false
    rewrite_prefix: ""
    rewrite_cond: ""
    call_recording_enabled: false
    transcription_enabled: false
    transcription_threshold: 6
    machine_detection_enabled: false
    encrypted_media: true
`;
const FILE = `version: 1\nsip_trunks:\n${TRUNK}numbers:\n  - number: "15550000001"\n    sms_enabled: true\n`;

const writes = (server: StrictServer) => server.sim.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

describe("every trunk PUT carries the password (issue #33 item 6)", () => {
  it("the strict server refuses a PUT without the password, naming it; the trunk is unchanged", async () => {
    const { server } = await strict();
    server.sim.expectBadRequests();
    const client = new WavixClient({ apiKey: KEY, baseUrl: server.url, retry: { limit: 0 } });
    const body = { label: "edge", callerid: "15550000001", ip_restrict: false, didinfo_enabled: true, call_restrict: false, cost_limit: false, channels_restrict: false, rewrite_enabled: false, transcription_enabled: false, transcription_threshold: 6 };
    const err = await client.replaceTrunk(700, body).catch((e: unknown) => e as { status?: number; message?: string });
    expect(err).toMatchObject({ status: 400 });
    expect(String((err as Error).message)).toMatch(/password/);
    expect(server.sim.store.trunks.get(700)!.password).toBe("the-old-password");
    // With it, the PUT replaces the trunk, its password included.
    await client.replaceTrunk(700, { ...body, password: "pw-123456" });
    expect(server.sim.store.trunks.get(700)!.password).toBe("pw-123456");
  });

  it("an ordinary update sends the password from password_env; the plan names the variable and needs none", async () => {
    const { server, env } = await strict();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const { EDGE_PW: _, ...noSecret } = env;
    const plan = await runCli(["plan", "-f", file], noSecret);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("(sent again: the value of EDGE_PW, read at apply)");
    expect(plan.stdout).toContain('Note: sip_trunk "edge": apply reads its password from the environment variable EDGE_PW');
    expect(plan.stdout).not.toContain("--rotate-password");

    const run = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain("the-new-password-41");
    const put = server.sim.log.find((e) => e.method === "PUT" && e.path === "/v1/trunks/700");
    expect(put).toBeDefined();
    const t = server.sim.store.trunks.get(700)!;
    expect(t.password).toBe("the-new-password-41");
    expect(t.data).toMatchObject({ encrypted_media: true, cost_limit: true });
  });

  it("the variable unset: apply refused before any write (the number's too), naming the trunk and the variable; apply --plan the same", async () => {
    const { server, env } = await strict();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const { EDGE_PW: _, ...noSecret } = env;
    const run = await runCli(["apply", "-f", file, "--auto-approve"], noSecret);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('sip_trunk "edge": to update SIP trunk "edge" its password is needed: the environment variable EDGE_PW (password_env) is not set or empty');
    expect(run.stderr).toContain("Apply refused (nothing was written)");
    expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(writes(server)).toEqual([]);

    const planFile = join(dir, "wavix.plan");
    expect((await runCli(["plan", "-f", file, "--save", planFile], noSecret)).code).toBe(0);
    const saved = await runCli(["apply", "-f", file, "--plan", planFile, "--auto-approve"], noSecret);
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain("EDGE_PW");
    expect(writes(server)).toEqual([]);
    // Given the variable, the same saved plan applies.
    const ok = await runCli(["apply", "-f", file, "--plan", planFile, "--auto-approve"], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(server.sim.store.trunks.get(700)!.password).toBe("the-new-password-41");
  });

  it("a trunk the file updates without password_env is a plan problem: nothing is written", async () => {
    const { server, env } = await strict();
    const file = writeYaml(scratch(), "wavix.yaml", FILE.replace("    password_env: EDGE_PW\n", ""));
    const plan = await runCli(["plan", "-f", file], env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('to update SIP trunk "edge" its password is needed (PUT /v1/trunks/{id} replaces the trunk, and the API requires the password with it): add `password_env: VARIABLE`');
    expect((await runCli(["apply", "-f", file, "--auto-approve"], env)).code).toBe(1);
    expect(writes(server)).toEqual([]);
  });
});
