// The registry of kinds (src/kinds/index.ts): what the engine, validate, export, the renderers and
// the file schema iterate; and the engine stays generic (it names no kind).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyWaves, KINDS, kindRank, kindsInFileOrder } from "../../src/kinds";
import type { AnyKind } from "../../src/kinds";

const ROOT = path.join(__dirname, "..", "..");

/** A stand-in kind for ordering only (never planned or applied). */
const fake = (name: string, after?: string[]): AnyKind => ({ ...KINDS[0], name: name as AnyKind["name"], after });

describe("the kind registry", () => {
  it("keeps plans, reports and results in the order they always had: sub-accounts, (SIP trunks,) call webhooks, numbers (then the messaging kinds)", () => {
    expect(KINDS.map((k) => k.name)).toEqual(["sub_account", "sip_trunk", "call_webhook", "number", "sender_id", "ten_dlc_number", "account_callbacks"]);
    expect(kindRank("number")).toBe(3);
  });

  it("keeps the file's (schema, export, validate) order: sub_accounts, sip_trunks, numbers, call_webhooks (then the messaging kinds)", () => {
    expect(kindsInFileOrder().map((k) => k.file.key)).toEqual(["sub_accounts", "sip_trunks", "numbers", "call_webhooks", "sender_ids", "ten_dlc_campaign_numbers", "account_callbacks"]);
  });

  it("has unique names and file keys", () => {
    expect(new Set(KINDS.map((k) => k.name)).size).toBe(KINDS.length);
    expect(new Set(KINDS.map((k) => k.file.key)).size).toBe(KINDS.length);
  });

  it("applies numbers after SIP trunks (a number routed to a trunk created in the same run); the rest in one wave", () => {
    expect(applyWaves().map((w) => w.map((k) => k.name))).toEqual([["sub_account", "sip_trunk", "call_webhook", "sender_id", "ten_dlc_number", "account_callbacks"], ["number"]]);
  });

  it("orders a kind after the kinds it names: a trunk before the numbers routed to it", () => {
    const waves = applyWaves([fake("number", ["sip_trunk"]), fake("sip_trunk"), fake("call_webhook")]);
    expect(waves.map((w) => w.map((k) => k.name))).toEqual([["sip_trunk", "call_webhook"], ["number"]]);
  });

  it("refuses an ordering cycle or an unknown kind", () => {
    expect(() => applyWaves([fake("a", ["b"]), fake("b", ["a"])])).toThrow(/cycle: a, b/);
    expect(() => applyWaves([fake("a", ["nope"])])).toThrow(/nope, which is not registered/);
  });
});

describe("the plan engine", () => {
  it.each(["engine.ts", "saved.ts"])("names no kind: no kind's name, file key or handler appears in src/plan/%s", (file) => {
    const text = readFileSync(path.join(ROOT, "src", "plan", file), "utf8");
    for (const kind of KINDS) {
      expect(text).not.toContain(`"${kind.name}"`);
      expect(text).not.toContain(kind.file.key);
    }
    expect(text).not.toMatch(/webhook|subaccount|sub-account|sub_account|phone-number/i);
    expect(text).not.toMatch(/from "\.\.\/kinds\/[a-z-]+\/|from "\.\.\/resources"/);
  });
});
