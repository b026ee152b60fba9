// The 10DLC Campaign number kind (ten_dlc_campaign_numbers:) against the strict simulator over
// HTTP: Brand and Campaign as references, link / unlink (only with --prune, destructive), link
// statuses shown and never flip-flopping the plan, export, and the renderers.
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { formatProblem, parseDesiredState } from "../../src/config";
import { applyPlan, computePlan, destructiveCount, formatPlan, formatPlanMarkdown, planJson } from "../../src/plan";
import { exportAccount, streamExport } from "../../src/resources/export";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";

const KEY = "ten-dlc-test-key-8d21";
let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const SEED: SimSeed = {
  numbers: [
    { id: 11, number: "15550000001" },
    { id: 12, number: "15550000002" },
    { id: 13, number: "15550000003" },
    { id: 14, number: "15550000004" },
  ],
  brands: [{ brand_id: "BRAND01" }],
  campaigns: [
    {
      brand_id: "BRAND01",
      campaign_id: "CAMP001",
      numbers: [
        { number: "15550000001", status: "APPROVED" },
        { number: "15550000002", status: "FAILED" },
        { number: "15550000003", status: "APPROVED" },
      ],
    },
  ],
  senderIds: [{ sender_id: "15550000003", type: "numeric", allowlisted_in: ["US"], usecase: "transactional" }],
};

/** Links turn APPROVED this long after they are made. */
const APPROVAL_MS = 1500;

async function start(seed: SimSeed = SEED): Promise<WavixClient> {
  sim = await startSimulator({ seed: structuredClone(seed), apiKeys: [{ key: KEY }], asyncDelayMs: APPROVAL_MS });
  return new WavixClient({ apiKey: KEY, baseUrl: sim.url });
}

function parse(yaml: string) {
  const parsed = parseDesiredState(yaml, "t.yaml");
  if (!parsed.ok) throw new Error(parsed.problems.map(formatProblem).join("\n"));
  return parsed.state;
}

const writes = () => sim!.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path} ${e.status}`);
const FILE = (numbers: string[]) => `version: 1\nten_dlc_campaign_numbers:\n  - brand_id: BRAND01\n    campaign_id: CAMP001\n    numbers: [${numbers.map((n) => `"${n}"`).join(", ")}]\n`;

describe("ten_dlc_campaign_numbers in the file", () => {
  it("reports a Campaign twice and a number in two Campaigns as FILE:LINE:COL", () => {
    const r = parseDesiredState(
      [
        "version: 1",
        "ten_dlc_campaign_numbers:",
        '  - { brand_id: B1, campaign_id: C1, numbers: ["15550000001"] }',
        '  - { brand_id: B1, campaign_id: C2, numbers: ["+15550000001"] }',
        "  - { brand_id: B1, campaign_id: C1, numbers: [] }",
        '  - { brand_id: "B/1", campaign_id: C3, numbers: [] }',
        "",
      ].join("\n"),
      "t.yaml",
    );
    expect(r.ok).toBe(false);
    const text = r.ok ? "" : r.problems.map(formatProblem).join("\n");
    expect(text).toMatch(/^t\.yaml:4:\d+: number 15550000001 is declared twice: first at line 3/m);
    expect(text).toMatch(/^t\.yaml:5:\d+: .*duplicate Campaign C1 of Brand B1/m);
    expect(text).toMatch(/^t\.yaml:6:\d+: .*\(at ten_dlc_campaign_numbers\[3\]\.brand_id\)/m);
  });
});

describe("10DLC Campaign numbers against the simulator", () => {
  it("links what is missing; a failed link is shown as a note, not re-sent; undeclared links are unmanaged", async () => {
    const client = await start();
    const prepared = await computePlan(client, parse(FILE(["15550000001", "15550000002", "+15550000004"])));
    expect(prepared.plan.changes.map((c) => `${c.action}:${c.key}`)).toEqual(["create:BRAND01/CAMP001/15550000004"]);
    expect(prepared.plan.unmanaged).toEqual([{ kind: "ten_dlc_number", key: "BRAND01/CAMP001/15550000003" }]);
    expect(prepared.plan.notes).toEqual([{ kind: "ten_dlc_number", key: "BRAND01/CAMP001/15550000002", message: expect.stringMatching(/status FAILED/) }]);
    expect(destructiveCount(prepared)).toBe(0);
    const text = formatPlan(prepared.plan, "t.yaml");
    expect(text).toContain('+ ten_dlc_number "BRAND01/CAMP001/15550000004"');
    expect(text).toContain('Note: ten_dlc_number "BRAND01/CAMP001/15550000002": linked, status FAILED');
    expect(formatPlanMarkdown(prepared.plan, "t.yaml")).toContain("**Notes:**");
    expect(planJson(prepared.plan).notes).toHaveLength(1);

    expect((await applyPlan(client, prepared)).ok).toBe(true);
    expect(writes()).toEqual(["POST /v3/10dlc/brands/BRAND01/campaigns/CAMP001/numbers/15550000004 200"]);
    // Pending right after the link: shown, and the plan stays clean (no flip-flop).
    const pending = await computePlan(client, parse(FILE(["15550000001", "15550000002", "15550000004"])));
    expect(pending.plan.changes).toEqual([]);
    expect(pending.plan.notes?.map((n) => n.message)).toEqual([expect.stringMatching(/FAILED/), expect.stringMatching(/status PENDING/)]);
    await new Promise((r) => setTimeout(r, APPROVAL_MS + 200));
    const approved = await computePlan(client, parse(FILE(["15550000001", "15550000002", "15550000004"])));
    expect(approved.plan.changes).toEqual([]);
    expect(approved.plan.notes?.map((n) => n.key)).toEqual(["BRAND01/CAMP001/15550000002"]);
    // Wavix made the approved number's Sender ID.
    expect([...sim!.store.messaging.senderIds.values()].map((s) => s.sender_id)).toContain("15550000004");
  });

  it("unlinks only with --prune, destructive; the number's Sender ID goes with it", async () => {
    const client = await start();
    const yaml = FILE(["15550000001", "15550000002"]);
    expect((await computePlan(client, parse(yaml))).ops).toEqual([]);
    const pruned = await computePlan(client, parse(yaml), { prune: true });
    expect(pruned.ops.map((o) => `${o.action}:${o.key}:${o.destructive}`)).toEqual(["delete:BRAND01/CAMP001/15550000003:true"]);
    expect(formatPlan(pruned.plan, "t.yaml")).toContain("will be deleted (unlinked from the Campaign; Wavix deletes its Sender ID)");
    expect((await applyPlan(client, pruned)).ok).toBe(true);
    expect(writes()).toEqual(["DELETE /v3/10dlc/brands/BRAND01/campaigns/CAMP001/numbers/15550000003 200"]);
    expect(sim!.store.messaging.senderIds.size).toBe(0);
    expect((await computePlan(client, parse(yaml), { prune: true })).ops).toEqual([]);
  });

  it("names the Brand and the Campaign when either does not exist, and plans the rest", async () => {
    const client = await start();
    const yaml = `${FILE(["15550000001", "15550000002", "15550000003"])}  - brand_id: NOBRAND\n    campaign_id: CAMP001\n    numbers: ["15550000004"]\n  - brand_id: BRAND01\n    campaign_id: NOCAMP\n    numbers: []\n`;
    const p = await computePlan(client, parse(yaml), { prune: true });
    expect(p.ops).toEqual([]);
    expect(p.plan.problems.map((x) => x.key)).toEqual(["NOBRAND/CAMP001", "BRAND01/NOCAMP"]);
    expect(p.plan.problems[0].message).toMatch(/Campaign CAMP001 of Brand NOBRAND was not found .*Brand NOBRAND not found.*created outside wavix-sync/);
    expect(p.plan.problems[1].message).toMatch(/Campaign NOCAMP of Brand BRAND01 was not found .*Campaign NOCAMP not found/);
  });

  it("Sender ID prune leaves the numeric Sender ID of a linked number alone", async () => {
    const client = await start();
    const p = await computePlan(client, parse("version: 1\nsender_ids: []\n"), { prune: true });
    expect(p.ops).toEqual([]);
    expect(p.plan.unmanaged).toEqual([{ kind: "sender_id", key: "15550000003" }]);
  });

  it("exports every Campaign with its links; the export plans clean with --prune", async () => {
    const client = await start();
    const state = await exportAccount(client);
    expect(state.ten_dlc_campaign_numbers).toEqual([
      { brand_id: "BRAND01", campaign_id: "CAMP001", numbers: ["15550000001", "15550000002", "15550000003"], path: "ten_dlc_campaign_numbers[0]" },
    ]);
    let text = "";
    await streamExport(client, (c) => void (text += c), { schemaPath: null });
    const plan = await computePlan(client, parse(text), { prune: true });
    expect(plan.plan.changes).toEqual([]);
    expect(plan.plan.problems).toEqual([]);
  });
});
