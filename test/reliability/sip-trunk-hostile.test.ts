/**
 * SIP trunks against a hostile server (test/helpers/hostile-server.ts) in front of the strict
 * simulator: a server that holds to the official update schema (the password required on every
 * PUT) and echoes request bodies — the password — back in its errors, and answers the token in
 * them. An update sends the password (from `password_env`), so such a server takes it; without the
 * variable nothing is sent; no password and no access token reach the output.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startHostileServer, type HostileServer } from "../helpers/hostile-server";

const KEY = "hostile-trunk-key-4e2a";
const TOKEN = "sip-token-hostile-0123456789abcdef01";
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function setup(): Promise<{ sim: Simulator; proxy: HostileServer }> {
  const sim = await startSimulator({
    seed: {
      numbers: [{ id: 11, number: "15550000001" }],
      trunks: [{ id: 700, name: "70000", label: "edge-pbx", callerid: "15550000001", access_token: TOKEN, password: "kept-password" }],
    },
    apiKeys: [{ key: KEY }],
  });
  opened.push(sim);
  const proxy = await startHostileServer(sim.url, {
    before(req) {
      if (!req.path.startsWith("/v1/trunks")) return;
      const body = req.body === "" ? {} : (JSON.parse(req.body) as Record<string, unknown>);
      // Official PUT: the password is required. The error echoes the whole body and the trunk's token.
      if (req.method === "PUT" && body.password === undefined) {
        return { status: 400, body: { success: false, message: `invalid ${req.body} for token ${TOKEN}`, errors: { password: "required" } } };
      }
      if (req.method === "POST") return { status: 400, body: { success: false, message: `rejected ${req.body}`, errors: { callerid: `bad in ${req.body}` } } };
    },
  });
  opened.push(proxy);
  return { sim, proxy };
}

describe("SIP trunks against a server holding to the official schema and echoing secrets", () => {
  it("an update sends the password from password_env, which such a server requires: taken, no secret printed; without the variable nothing is sent", async () => {
    const { sim, proxy } = await setup();
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: edge-pbx\n    password_env: EDGE_PW\n    encrypted_media: true\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, EDGE_PW: "the-env-password-55" };
    // The variable unset: refused before any write, naming the trunk and the variable.
    const unset = await runCli(["apply", "-f", file, "--auto-approve"], { ...env, EDGE_PW: "" });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('sip_trunk "edge-pbx": to update SIP trunk "edge-pbx" its password is needed: the environment variable EDGE_PW (password_env) is not set or empty');
    expect(unset.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(sim.log.filter((e) => e.method !== "GET")).toEqual([]);
    expect(sim.store.trunks.get(700)!.password).toBe("kept-password");

    const run = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout + run.stderr;
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain("the-env-password-55");
    expect(sim.store.trunks.get(700)!.data.encrypted_media).toBe(true);
    expect(sim.store.trunks.get(700)!.password).toBe("the-env-password-55");
  });

  it("a refused create whose error echoes the body never prints the password", async () => {
    const { sim, proxy } = await setup();
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: new-pbx\n    password_env: NEW_PW\n    callerid: "15550000001"\n`);
    const run = await runCli(["apply", "-f", file, "--auto-approve", "--format", "json"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, NEW_PW: "echoed-password-9931" });
    expect(run.code).toBe(1);
    const out = run.stdout + run.stderr;
    expect(out).toContain("callerid");
    expect(out).not.toContain("echoed-password-9931");
    expect(out).toContain("[REDACTED]");
    expect([...sim.store.trunks.values()].map((t) => t.data.label)).toEqual(["edge-pbx"]);
  });
});
