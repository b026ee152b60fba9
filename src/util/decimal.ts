/**
 * Exact decimal arithmetic for money. The API sends money as decimal text ("0.0050", docs/CONTRACT.md
 * part 2 "money is decimal text, never a float"); audit sums must be exact and keep the largest
 * scale among their inputs (docs/CONTRACT.md part 5), so "0.0050" + "0.01" is "0.0150", not "0.015".
 */
import Decimal from "decimal.js";

// Addition is exact only if precision never binds: a clone with the maximum precision (a cap, not
// a cost — work grows with the digits actually present).
const ExactDecimal = Decimal.clone({ precision: 1e9 });

/** Plain decimal text: optional sign, digits, optional fraction. No exponent, no spaces. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Thrown when a value handed to the decimal helpers is not plain decimal text. */
export class DecimalFormatError extends Error {
  constructor(readonly value: string) {
    super(`not a decimal number: ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`);
    this.name = "DecimalFormatError";
  }
}

function scaleOf(value: string): number {
  if (typeof value !== "string" || !DECIMAL_TEXT.test(value)) {
    throw new DecimalFormatError(String(value));
  }
  const dot = value.indexOf(".");
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** Sum of decimal texts, written with the largest scale among the inputs. An empty sum is "0". */
export function sumDecimals(values: readonly string[]): string {
  let scale = 0;
  let total = new ExactDecimal(0);
  for (const value of values) {
    scale = Math.max(scale, scaleOf(value));
    total = total.plus(new ExactDecimal(value));
  }
  // A sum of finite decimals never needs more places than the largest input scale, so toFixed
  // only pads; it never rounds.
  return total.toFixed(scale);
}

/** `a + b` as decimal text at the larger of the two scales. */
export function addDecimal(a: string, b: string): string {
  return sumDecimals([a, b]);
}

/**
 * Money as the API means it, one text per amount: `"0.2500"`, `"0.25"` and `0.25` are all `"0.25"`
 * (no trailing zeros, no exponent). What a file value is normalised to at load and what a value the
 * API serves (at four places: `"0.1800"`) is compared in, so equal amounts never diff. Undefined
 * for anything that is not a finite decimal.
 */
export function canonicalDecimal(value: string | number): string | undefined {
  if (typeof value === "number" ? !Number.isFinite(value) : !DECIMAL_TEXT.test(value.trim())) return undefined;
  const d = new ExactDecimal(typeof value === "number" ? String(value) : value.trim());
  return d.isZero() ? "0" : d.toFixed();
}

/** Two amounts equal as decimals (`"0.18"` = `"0.1800"`); null (or absent) equals only null. */
export function sameDecimal(a: string | number | null | undefined, b: string | number | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const ca = canonicalDecimal(a);
  return ca !== undefined && ca === canonicalDecimal(b);
}
