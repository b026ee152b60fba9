// The registry of kinds (src/kinds/index.ts): what the engine, validate, export, the renderers and
// the file schema iterate; and the engine stays generic (it names no kind).
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
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

  it("names, for each list part of the file, what identifies an entry; its key gives the entry's fields back (the Account resource's map keys)", () => {
    const lists = kindsInFileOrder().filter((k) => k.file.schema.type === "array");
    expect(lists.map((k) => k.file.key)).toEqual(["sub_accounts", "sip_trunks", "numbers", "sender_ids", "ten_dlc_campaign_numbers"]);
    // A part that is one value (or a map keyed by data) has none.
    for (const k of kindsInFileOrder()) expect(k.fileForm.entryKey !== undefined, k.file.key).toBe(lists.includes(k));
    const identityOf = (key: string) => KINDS.find((k) => k.file.key === key)!.fileForm.entryKey!;
    expect(identityOf("numbers").of({ number: "15551230001", sms_enabled: true })).toBe("15551230001");
    expect(identityOf("sip_trunks").fields("Main PBX")).toEqual({ label: "Main PBX" });
    expect(identityOf("ten_dlc_campaign_numbers").of({ brand_id: "B1", campaign_id: "C/2", numbers: [] })).toBe("B1/C/2");
    fc.assert(
      fc.property(fc.constantFrom(...lists), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (kind, a, b) => {
        const identity = kind.fileForm.entryKey!;
        // A brand id holds no "/" (the API's ids are letters and digits); a campaign id may.
        const key = kind.file.key === "ten_dlc_campaign_numbers" ? `${a.replaceAll("/", "")}/${b}` : a;
        return identity.of(identity.fields(key)) === key;
      }),
    );
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
