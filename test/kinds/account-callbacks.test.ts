// The account callback defaults (account_callbacks:) against the strict simulator: the profile
// answer cannot show them, so a plan never shows a change for them unless --send-callbacks asks
// for it, and then one PUT /v1/profile carries only the declared keys.
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { formatProblem, parseDesiredState } from "../../src/config";
import { applyPlan, computePlan, formatPlan, formatPlanMarkdown, planJson } from "../../src/plan";
import { exportAccount, streamExport } from "../../src/resources/export";
import { startSimulator, type Simulator } from "../../src/simulator";

const KEY = "callbacks-test-key-2f9a";
let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(): Promise<WavixClient> {
  sim = await startSimulator({ seed: { profileCallbacks: { sms_relay_url: "https://old.example/sms" } }, apiKeys: [{ key: KEY }] });
  return new WavixClient({ apiKey: KEY, baseUrl: sim.url });
}

function parse(yaml: string) {
  const parsed = parseDesiredState(yaml, "c.yaml");
  if (!parsed.ok) throw new Error(parsed.problems.map(formatProblem).join("\n"));
  return parsed.state;
}

const FILE = "version: 1\naccount_callbacks:\n  sms_relay_url: https://hooks.example/sms\n";
/** Both callbacks: the PUT may replace the profile, and neither can be read back (issue #27). */
const BOTH = `${FILE}  dlr_relay_url: https://hooks.example/dlr\n`;

describe("account_callbacks", () => {
  it("reports a bad URL as FILE:LINE:COL and refuses other profile fields", () => {
    const r = parseDesiredState("version: 1\naccount_callbacks:\n  sms_relay_url: hooks.example/sms\n  first_name: Ann\n", "c.yaml");
    expect(r.ok).toBe(false);
    const text = r.ok ? "" : r.problems.map(formatProblem).join("\n");
    expect(text).toMatch(/^c\.yaml:3:\d+: .*\(at account_callbacks\.sms_relay_url\)/m);
    expect(text).toMatch(/^c\.yaml:4:\d+: .*first_name/m);
  });

  it("without --send-callbacks: no request, no change, a note that they cannot be read back (never a perpetual diff)", async () => {
    const client = await start();
    for (let i = 0; i < 2; i++) {
      const p = await computePlan(client, parse(FILE));
      expect(p.plan.changes).toEqual([]);
      expect(p.plan.notes).toEqual([{ kind: "account_callbacks", key: "profile", message: expect.stringMatching(/sms_relay_url cannot be read back.*--send-callbacks/) }]);
      expect(formatPlan(p.plan, "c.yaml")).toMatch(/^No changes\. [\s\S]*Note: account_callbacks "profile": sms_relay_url cannot be read back/);
    }
    expect(sim!.log).toEqual([]);
  });

  it("with --send-callbacks: one PUT carrying both callbacks and the profile as read; the diff says the values cannot be read back", async () => {
    const client = await start();
    const p = await computePlan(client, parse(BOTH), { flags: ["send-callbacks"] });
    expect(p.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["account_callbacks:update:profile"]);
    expect(p.ops[0].destructive).toBe(false);
    expect(formatPlan(p.plan, "c.yaml")).toContain('~ sms_relay_url = (cannot be read back) → "https://hooks.example/sms"');
    expect(formatPlanMarkdown(p.plan, "c.yaml")).toContain("(cannot be read back)");
    expect(planJson(p.plan).changes[0].diff[0]).toEqual({ path: "sms_relay_url", before: null, after: "https://hooks.example/sms", unreadable: true });
    const result = await applyPlan(client, p);
    expect(result.ok).toBe(true);
    // The plan's read, then a fresh read right before the PUT (the PUT carries the profile as read).
    expect(sim!.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["GET /v1/profile 200", "GET /v1/profile 200", "PUT /v1/profile 200"]);
    expect(sim!.store.messaging.callbacks).toEqual({ sms_relay_url: "https://hooks.example/sms", dlr_relay_url: "https://hooks.example/dlr" });
  });

  it("with --send-callbacks and one callback declared: a problem naming the other (a PUT may replace the profile and clear it), nothing sent", async () => {
    const client = await start();
    const p = await computePlan(client, parse(FILE), { flags: ["send-callbacks"] });
    expect(p.plan.changes).toEqual([]);
    expect(p.plan.problems).toEqual([{ kind: "account_callbacks", key: "profile", message: expect.stringContaining("declare dlr_relay_url too: the API never shows the callbacks back") }]);
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("a PUT refused is a failed item naming the field", async () => {
    const client = await start();
    sim!.setFaults([{ kind: "status", status: 422, method: "PUT", pathPrefix: "/v1/profile", body: JSON.stringify({ success: false, message: "invalid", errors: { sms_relay_url: "is not reachable" } }) }]);
    const result = await applyPlan(client, await computePlan(client, parse(BOTH), { flags: ["send-callbacks"] }));
    expect(result.ok).toBe(false);
    expect(result.results[0]).toMatchObject({ key: "profile", outcome: "failed", error: expect.stringMatching(/sms_relay_url/) });
  });

  it("export leaves account_callbacks out (nothing can be read)", async () => {
    const client = await start();
    expect((await exportAccount(client)).account_callbacks).toBeUndefined();
    let text = "";
    await streamExport(client, (c) => void (text += c), { schemaPath: null });
    expect(text).not.toContain("account_callbacks");
  });
});
