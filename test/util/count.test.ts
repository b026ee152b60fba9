/**
 * formatCount (src/plan/count.ts) groups a safe integer by hand, without Intl: the same text as
 * `toLocaleString("en-US")` for every safe integer, and the same as before for anything else.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { formatCount } from "../../src/plan/count";

describe("formatCount", () => {
  it("groups digits by thousands with commas, as toLocaleString(\"en-US\") does", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(4989)).toBe("4,989");
    expect(formatCount(100000)).toBe("100,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-1234)).toBe("-1,234");
    expect(formatCount(-0)).toBe((-0).toLocaleString("en-US"));
  });

  it("matches toLocaleString(\"en-US\") for every safe integer, and for fractions and non-finite numbers", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
      }),
    );
    for (const n of [1.5, 1234.5678, Number.MAX_SAFE_INTEGER + 2, 1e21, NaN, Infinity, -Infinity]) expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });
});
