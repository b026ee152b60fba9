// The Sender ID kind (sender_ids:) against the strict simulator over HTTP: file checks, plan,
// create, prune, a replace only where `replace: true` allows it, export, and renderers.
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { formatProblem, parseDesiredState } from "../../src/config";
import { applyPlan, computePlan, destructiveCount, formatPlan, formatPlanMarkdown, planJson } from "../../src/plan";
import { exportAccount, streamExport } from "../../src/resources/export";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";

const KEY = "sender-id-test-key-41c2";
let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const SEED: SimSeed = {
  numbers: [{ id: 11, number: "15550000001" }],
  senderIds: [
    { id: "11111111-1111-4111-8111-111111111111", sender_id: "ACME", type: "alphanumeric", allowlisted_in: ["GB", "FR"], usecase: "promo", samples: ["Hi"] },
    { id: "22222222-2222-4222-8222-222222222222", sender_id: "OLDCO", type: "alphanumeric", allowlisted_in: ["DE"], usecase: "transactional" },
  ],
};

async function start(seed: SimSeed = SEED): Promise<WavixClient> {
  sim = await startSimulator({ seed: structuredClone(seed), apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  return new WavixClient({ apiKey: KEY, baseUrl: sim.url });
}

function parse(yaml: string) {
  const parsed = parseDesiredState(yaml, "s.yaml");
  if (!parsed.ok) throw new Error(parsed.problems.map(formatProblem).join("\n"));
  return parsed.state;
}

const writes = () => sim!.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path} ${e.status}`);

describe("sender_ids in the file", () => {
  it("reports a duplicate, a bad numeric one and a bad country as FILE:LINE:COL", () => {
    const r = parseDesiredState(
      [
        "version: 1",
        "sender_ids:",
        "  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: promo }",
        "  - { sender_id: ACME, type: alphanumeric, countries: [FR], usecase: promo }",
        "  - { sender_id: 'not-a-phone', type: numeric, countries: [US], usecase: promo }",
        "  - { sender_id: X, type: alphanumeric, countries: [gb], usecase: promo }",
        "",
      ].join("\n"),
      "s.yaml",
    );
    expect(r.ok).toBe(false);
    const text = r.ok ? "" : r.problems.map(formatProblem).join("\n");
    expect(text).toMatch(/^s\.yaml:4:\d+: .*duplicate.*ACME.*line 3/m);
    expect(text).toMatch(/^s\.yaml:5:\d+: numeric sender ID "not-a-phone" must be a phone number/m);
    expect(text).toMatch(/^s\.yaml:6:\d+: .*\(at sender_ids\[3\]\.countries\[0\]\)/m);
  });

  it("normalises: countries a sorted set, a numeric one's + dropped", () => {
    const s = parse("version: 1\nsender_ids:\n  - { sender_id: '+15550000001', type: numeric, countries: [US, CA], usecase: authentication }\n");
    expect(s.sender_ids![0]).toMatchObject({ sender_id: "15550000001", countries: ["CA", "US"] });
  });
});

describe("sender IDs against the simulator", () => {
  it("plans a create, leaves an equal one unchanged, shows others unmanaged; apply creates and a second plan is clean", async () => {
    const client = await start();
    const yaml = [
      "version: 1",
      "sender_ids:",
      "  - { sender_id: ACME, type: alphanumeric, countries: [FR, GB], usecase: promo, samples: [Hi] }",
      "  - { sender_id: NEWCO, type: alphanumeric, countries: [GB], usecase: transactional, monthly_volume: 1-1000, samples: [Code 1234] }",
      "",
    ].join("\n");
    const prepared = await computePlan(client, parse(yaml));
    expect(prepared.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["sender_id:create:NEWCO"]);
    expect(prepared.plan.unmanaged).toEqual([{ kind: "sender_id", key: "OLDCO" }]);
    expect(prepared.plan.summary.unchanged).toBe(1);
    expect(formatPlan(prepared.plan, "s.yaml")).toContain('+ sender_id "NEWCO"');
    const result = await applyPlan(client, prepared);
    expect(result.ok).toBe(true);
    expect(writes()).toEqual(["POST /v3/messages/sender-ids 201"]);
    const again = await computePlan(client, parse(yaml));
    expect(again.plan.changes).toEqual([]);
    expect(again.plan.summary.unchanged).toBe(2);
  });

  it("deletes undeclared Sender IDs only with --prune, counted destructive", async () => {
    const client = await start();
    const yaml = "version: 1\nsender_ids:\n  - { sender_id: ACME, type: alphanumeric, countries: [FR, GB], usecase: promo }\n";
    const plain = await computePlan(client, parse(yaml));
    expect(plain.ops).toEqual([]);
    const pruned = await computePlan(client, parse(yaml), { prune: true });
    expect(pruned.ops.map((o) => `${o.action}:${o.key}:${o.destructive}`)).toEqual(["delete:OLDCO:true"]);
    expect(destructiveCount(pruned)).toBe(1);
    expect((await applyPlan(client, pruned)).ok).toBe(true);
    expect(writes()).toEqual(["DELETE /v3/messages/sender-ids/22222222-2222-4222-8222-222222222222 200"]);
    expect([...sim!.store.messaging.senderIds.values()].map((s) => s.sender_id)).toEqual(["ACME"]);
  });

  it("refuses a change without replace: true, naming the fields; replaces (delete, create) with it, destructive", async () => {
    const client = await start();
    const changed = "version: 1\nsender_ids:\n  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: transactional }\n";
    const refused = await computePlan(client, parse(changed));
    expect(refused.ops).toEqual([]);
    expect(refused.plan.problems).toHaveLength(1);
    expect(refused.plan.problems[0].message).toMatch(/countries, usecase.*no update.*replace: true/);
    const allowed = await computePlan(client, parse(changed.replace("usecase: transactional", "usecase: transactional, replace: true")));
    // `replace` is its own action, destructive, in the summary, text, Markdown and JSON (issue #27 item 3).
    expect(allowed.ops.map((o) => `${o.action}:${o.key}:${o.destructive}`)).toEqual(["replace:ACME:true"]);
    expect(allowed.plan.summary).toMatchObject({ create: 0, update: 0, replace: 1, delete: 0, destructive: 1 });
    const text = formatPlan(allowed.plan, "s.yaml");
    expect(text).toContain('sender_id "ACME" will be replaced (deleted, then created again: the API has no update) (destructive: replace)');
    expect(text).toContain('-/+ sender_id "ACME"');
    expect(text).toContain('~ usecase   = "promo" → "transactional"');
    expect(text).toContain("Plan: 0 to create, 0 to update, 1 to replace, 0 to delete, 0 unchanged; 1 destructive.");
    const md = formatPlanMarkdown(allowed.plan, "s.yaml");
    expect(md).toContain("**Plan: 0 to create, 0 to update, 1 to replace, 0 to delete, 0 unchanged; 1 destructive.**");
    expect(md).toContain("- :warning: **replace**: sender_id `ACME` (deleted, then created again: the API has no update) (replace):");
    expect(planJson(allowed.plan).changes[0]).toMatchObject({ kind: "sender_id", key: "ACME", action: "replace", destructive: true, effects: ["replace"] });
    expect(planJson(allowed.plan).summary).toMatchObject({ replace: 1, destructive: 1 });
    expect((await applyPlan(client, allowed)).ok).toBe(true);
    expect(writes()).toEqual([
      "DELETE /v3/messages/sender-ids/11111111-1111-4111-8111-111111111111 200",
      "POST /v3/messages/sender-ids 201",
    ]);
    const now = [...sim!.store.messaging.senderIds.values()].find((s) => s.sender_id === "ACME")!;
    expect(now).toMatchObject({ allowlisted_in: ["GB"], usecase: "transactional" });
    expect((await computePlan(client, parse(changed))).plan.changes).toEqual([]);
  });

  it("never compares monthly_volume (the API does not show it back)", async () => {
    const client = await start();
    const yaml = "version: 1\nsender_ids:\n  - { sender_id: OLDCO, type: alphanumeric, countries: [DE], usecase: transactional, monthly_volume: More than 100000 }\n";
    const p = await computePlan(client, parse(yaml));
    expect(p.plan.changes).toEqual([]);
    expect(p.plan.problems).toEqual([]);
  });

  it("a create whose answer is lost is found by the read-back listing, not sent twice", async () => {
    const client = await start();
    sim!.setFaults([{ kind: "commit-then-drop", method: "POST", pathPrefix: "/v3/messages/sender-ids", times: 1 }]);
    const yaml = "version: 1\nsender_ids:\n  - { sender_id: NEWCO, type: alphanumeric, countries: [GB], usecase: promo }\n";
    const result = await applyPlan(client, await computePlan(client, parse(yaml)));
    expect(result.results).toEqual([{ kind: "sender_id", key: "NEWCO", action: "create", outcome: "ok", reconciled: true }]);
    expect([...sim!.store.messaging.senderIds.values()].filter((s) => s.sender_id === "NEWCO")).toHaveLength(1);
  });

  it("exports a file whose plan is clean, and leaves out what it may not read", async () => {
    const client = await start();
    const state = await exportAccount(client);
    expect(state.sender_ids!.map((s) => s.sender_id)).toEqual(["ACME", "OLDCO"]);
    let text = "";
    await streamExport(client, (c) => void (text += c), { schemaPath: null });
    expect(text).toContain("sender_ids:\n  - sender_id: ACME\n");
    const plan = await computePlan(client, parse(text), { prune: true });
    expect(plan.plan.changes).toEqual([]);
    expect(plan.plan.problems).toEqual([]);
    // A key without the messages scope: the export leaves sender_ids out instead of failing.
    await sim!.close();
    sim = await startSimulator({ seed: structuredClone(SEED), apiKeys: [{ key: KEY, restricted: { numbers: "read", subaccounts: "read", webhooks: "read", campaigns: "read", trunks: "read" } }] });
    const limited = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    let limitedText = "";
    await streamExport(limited, (c) => void (limitedText += c), { schemaPath: null });
    expect(limitedText).not.toContain("sender_ids");
  });
});
