import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecimalFormatError, DecimalSum, addDecimal, sumDecimals } from "../../src/util/decimal";

describe("decimal sums", () => {
  it("adds exactly at the largest scale", () => {
    expect(addDecimal("0.1", "0.2")).toBe("0.3");
    expect(addDecimal("0.0050", "0.01")).toBe("0.0150");
    expect(sumDecimals(["0.0525", "0.3", "0"])).toBe("0.3525");
    expect(sumDecimals([])).toBe("0");
    expect(sumDecimals(["12345678901234567890.0001", "0.0001"])).toBe("12345678901234567890.0002");
    expect(addDecimal("-1.50", "1")).toBe("-0.50");
  });

  it("property: the same text as decimal.js, for every shape of decimal text the API may send (signs, `.5`, `5.`, `-0.00`)", () => {
    // The referee: decimal.js at unbounded precision, what sumDecimals used before it summed BigInts.
    const Exact = Decimal.clone({ precision: 1e9 });
    const reference = (values: string[]) => {
      let scale = 0;
      let total = new Exact(0);
      for (const v of values) {
        const dot = v.indexOf(".");
        scale = Math.max(scale, dot === -1 ? 0 : v.length - dot - 1);
        total = total.plus(new Exact(v));
      }
      return total.toFixed(scale);
    };
    const text = fc
      .tuple(fc.constantFrom("", "+", "-"), fc.stringMatching(/^\d{0,25}$/), fc.option(fc.stringMatching(/^\d{0,12}$/), { nil: undefined }))
      .filter(([, whole, fraction]) => whole !== "" || (fraction !== undefined && fraction !== ""))
      .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}`);
    fc.assert(fc.property(fc.array(text, { maxLength: 8 }), (values) => {
          expect(sumDecimals(values)).toBe(reference(values));
        }), { numRuns: 2000 });
    expect(sumDecimals(["-0.00"])).toBe("0.00");
    expect(sumDecimals([".5", "5."])).toBe("5.5");
  });

  it("property: a running DecimalSum gives, after each addition, the text sumDecimals gives of everything added so far", () => {
    const text = fc
      .tuple(fc.constantFrom("", "+", "-"), fc.stringMatching(/^\d{0,20}$/), fc.option(fc.stringMatching(/^\d{0,10}$/), { nil: undefined }))
      .filter(([, whole, fraction]) => whole !== "" || (fraction !== undefined && fraction !== ""))
      .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}`);
    fc.assert(
      // Runs of one text too (a price repeats from session to session: the sum keeps the last one's digits).
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 1, max: 3 })), { maxLength: 8 }).map((runs) => runs.flatMap(([v, n]) => Array<string>(n).fill(v))), (values) => {
        const running = new DecimalSum();
        expect(running.toString()).toBe(sumDecimals(["0"]));
        values.forEach((v, i) => {
          running.add(v);
          expect(running.toString()).toBe(sumDecimals(["0", ...values.slice(0, i + 1)]));
        });
      }),
      { numRuns: 1000 },
    );
    const zero = new DecimalSum();
    zero.add("-0.0050");
    zero.add("0.005");
    expect(zero.toString()).toBe("0.0000");
    expect(() => new DecimalSum().add("1e3")).toThrow(DecimalFormatError);
  });

  it("rejects non-decimal text clearly", () => {
    for (const bad of ["", "abc", "1e3", "1,5", " 1", "NaN", "Infinity", "0x10"]) {
      expect(() => sumDecimals([bad])).toThrow(DecimalFormatError);
    }
    expect(() => addDecimal("0.1", "ten")).toThrow(/not a decimal number: "ten"/);
  });

  // Decimal text with an arbitrary scale, built from integer units so the expected sum is exact.
  const decimalText = fc
    .record({ units: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), scale: fc.integer({ min: 0, max: 12 }) })
    .map(({ units, scale }) => ({ text: toText(units, scale), units, scale }));

  function toText(units: bigint, scale: number): string {
    const negative = units < 0n;
    const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
    const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return negative ? `-${body}` : body;
  }

  it("property: the sum is exact and written at the maximum input scale", () => {
    fc.assert(
      fc.property(fc.array(decimalText, { maxLength: 8 }), (values) => {
        const scale = Math.max(0, ...values.map((v) => v.scale));
        const exact = values.reduce((acc, v) => acc + v.units * 10n ** BigInt(scale - v.scale), 0n);
        expect(sumDecimals(values.map((v) => v.text))).toBe(toText(exact, scale));
      }),
    );
  });

  it("property: addition is associative and commutative", () => {
    fc.assert(
      fc.property(decimalText, decimalText, decimalText, (a, b, c) => {
        expect(addDecimal(addDecimal(a.text, b.text), c.text)).toBe(addDecimal(a.text, addDecimal(b.text, c.text)));
        expect(addDecimal(a.text, b.text)).toBe(addDecimal(b.text, a.text));
      }),
    );
  });
});
