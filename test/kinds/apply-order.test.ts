// The engine's ordering rules (src/plan/engine.ts applyPlan, src/kinds/index.ts applyWaves): a
// kind's writes go after the creates and updates of the kinds it is ordered after, and the
// deletes of a kind others are ordered after wait until those others have written. Two stand-in
// kinds implement the contract (a trunk, and numbers routed to it); no network is needed to see
// the order the engine sends in.
import { describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { applyPlan, type Op, type PreparedPlan } from "../../src/plan";
import { reportedResult, type OpBase } from "../../src/kit/contract";
import type { AnyKind } from "../../src/kinds";
import { KINDS } from "../../src/kinds";

function standIn(name: string, sent: string[], after?: string[]): AnyKind {
  return {
    ...KINDS[0],
    name: name as AnyKind["name"],
    after,
    writes: (ops: readonly OpBase[]) =>
      ops.map((op) => ({
        keys: [op.key],
        fields: () => [],
        async send() {
          sent.push(`start ${name} ${op.action} ${op.key}`);
          await new Promise((r) => setTimeout(r, 20));
          sent.push(`end ${name} ${op.action} ${op.key}`);
        },
      })),
    confirm: async (_ctx, ops: readonly OpBase[], report) => ({ results: ops.map((op) => reportedResult(op, [], report)) }),
  };
}

const op = (kind: string, action: OpBase["action"], key: string): Op => ({ kind: kind as Op["kind"], key, action, destructive: action === "delete", effects: action === "delete" ? ["delete"] : [], data: { key, action } });

describe("apply order between kinds", () => {
  it("creates the trunk before the numbers routed to it, and deletes the old trunk after them", async () => {
    const sent: string[] = [];
    const kinds = [standIn("trunk", sent), standIn("number", sent, ["trunk"])];
    const prepared: PreparedPlan = {
      plan: { changes: [], unmanaged: [], problems: [], summary: { create: 1, update: 2, replace: 0, delete: 1, unchanged: 0, destructive: 1 } },
      ops: [op("trunk", "create", "new-pbx"), op("trunk", "delete", "old-pbx"), op("number", "update", "15550000001"), op("number", "update", "15550000002")],
    };
    const client = new WavixClient({ apiKey: "unused-key-0000", baseUrl: "http://127.0.0.1:9" });
    const result = await applyPlan(client, prepared, { kinds, concurrency: 8 });
    expect(result.ok).toBe(true);
    expect(result.results.map((r) => `${r.kind} ${r.action} ${r.key}`)).toEqual([
      "trunk create new-pbx",
      "trunk delete old-pbx",
      "number update 15550000001",
      "number update 15550000002",
    ]);
    const at = (line: string) => sent.indexOf(line);
    // The create has finished before any number write starts; both numbers go out together.
    expect(at("end trunk create new-pbx")).toBeLessThan(at("start number update 15550000001"));
    expect(at("start number update 15550000002")).toBeLessThan(at("end number update 15550000001"));
    // The delete starts only once every number write has finished.
    expect(at("start trunk delete old-pbx")).toBeGreaterThan(at("end number update 15550000001"));
    expect(at("start trunk delete old-pbx")).toBeGreaterThan(at("end number update 15550000002"));
  });

  it("sends kinds with no order between them together, deletes included", async () => {
    const sent: string[] = [];
    const kinds = [standIn("trunk", sent), standIn("number", sent)];
    const prepared: PreparedPlan = {
      plan: { changes: [], unmanaged: [], problems: [], summary: { create: 0, update: 1, replace: 0, delete: 1, unchanged: 0, destructive: 1 } },
      ops: [op("trunk", "delete", "old-pbx"), op("number", "update", "15550000001")],
    };
    const client = new WavixClient({ apiKey: "unused-key-0000", baseUrl: "http://127.0.0.1:9" });
    await applyPlan(client, prepared, { kinds });
    expect(sent.slice(0, 2).sort()).toEqual(["start number update 15550000001", "start trunk delete old-pbx"]);
  });
});
