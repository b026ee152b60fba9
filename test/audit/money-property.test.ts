import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeAudit } from "../../src/audit/compute";
import type { TwoFaEvent } from "../../src/client/types";

/** Decimal text with 0..6 places, e.g. "12.0050". */
const money = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
  .map(([units, scale]) => {
    if (scale === 0) return units.toString();
    const digits = units.toString().padStart(scale + 1, "0");
    return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  });

/** The oracle: scale every value to the largest scale as a BigInt, add, write back. */
function bigintSum(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => (v.includes(".") ? v.length - v.indexOf(".") - 1 : 0)));
  const total = values.reduce((acc, v) => {
    const [int, frac = ""] = v.split(".");
    return acc + BigInt(int + frac.padEnd(scale, "0"));
  }, 0n);
  if (scale === 0) return total.toString();
  const digits = total.toString().padStart(scale + 1, "0");
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

describe("charge totals (property)", () => {
  it("equal a BigInt-scaled sum, per session and overall", () => {
    fc.assert(
      fc.property(fc.array(fc.array(money, { maxLength: 8 }), { minLength: 1, maxLength: 6 }), (perSession) => {
        const sessions = perSession.map((charges, i) => ({
          session_id: `s${i}`,
          events: charges.map((charge, j): TwoFaEvent => ({
            created_at: `2026-11-01T00:00:${String(j).padStart(2, "0")}Z`,
            event: "Code sent via SMS",
            status: "success",
            charge,
            error: null,
          })),
        }));
        const r = computeAudit({ sessions, brands: [] }, undefined, { now: new Date(0), accountId: 1 });
        perSession.forEach((charges, i) => {
          expect(r.two_fa.sessions[i].charge_total).toBe(charges.length === 0 ? "0" : bigintSum(charges));
        });
        const all = perSession.flat();
        expect(r.two_fa.charge_total).toBe(all.length === 0 ? "0" : bigintSum(all));
      }),
      { numRuns: 300 },
    );
  });
});
