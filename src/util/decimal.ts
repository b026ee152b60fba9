/**
 * Exact decimal arithmetic for money. The API sends money as decimal text ("0.0050", docs/CONTRACT.md
 * part 2 "money is decimal text, never a float"); audit sums must be exact and keep the largest
 * scale among their inputs (docs/CONTRACT.md part 5), so "0.0050" + "0.01" is "0.0150", not "0.015".
 */
import type Decimal from "decimal.js";
import { decimalJs } from "./lazy-deps";

let exactDecimal: typeof Decimal | undefined;
/**
 * Addition is exact only if precision never binds: a clone with the maximum precision (a cap, not
 * a cost — work grows with the digits actually present).
 */
function ExactDecimal(): typeof Decimal {
  exactDecimal ??= decimalJs().clone({ precision: 1e9 });
  return exactDecimal;
}

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

/**
 * Sum of decimal texts, written with the largest scale among the inputs. An empty sum is "0".
 * Exact in integers: each value is its digits as a BigInt at the common scale (`"0.05"` at scale 4
 * is 500n), so nothing rounds; a zero sum is never negative. An audit sums two amounts per session:
 * decimal.js objects for each cost a third of a 20,000-session run's CPU (the bench's audit rows);
 * test/util/decimal.test.ts holds this to decimal.js on random inputs.
 */
export function sumDecimals(values: readonly string[]): string {
  let scale = 0;
  for (const value of values) scale = Math.max(scale, scaleOf(value));
  let total = 0n;
  for (const value of values) total += scaledDigits(value, scale);
  return decimalText(total, scale);
}

/**
 * A running {@link sumDecimals}: `add` one text at a time, `toString` the sum so far, the same text
 * `sumDecimals` gives of every value added. The total stays a BigInt between additions (an audit adds
 * three sums per session; writing and reading the text back each time was most of their cost).
 */
export class DecimalSum {
  private total = 0n;
  private scale = 0;
  /** The last text added and its digits at `scale`: a price repeats from session to session. */
  private lastText: string | undefined;
  private lastDigits = 0n;
  add(value: string): void {
    if (value === this.lastText) {
      this.total += this.lastDigits;
      return;
    }
    const scale = scaleOf(value);
    if (scale > this.scale) {
      this.total *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    }
    this.lastDigits = scaledDigits(value, this.scale);
    this.lastText = value;
    this.total += this.lastDigits;
  }
  toString(): string {
    return decimalText(this.total, this.scale);
  }
}

/** `total` (digits at `scale` places) as decimal text; a zero is never negative. */
function decimalText(total: bigint, scale: number): string {
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  return `${negative ? "-" : ""}${whole}${scale > 0 ? `.${digits.slice(digits.length - scale)}` : ""}`;
}

/** A plain decimal text (checked by `scaleOf`) as a BigInt of its digits at `scale` places. */
function scaledDigits(value: string, scale: number): bigint {
  const sign = value[0] === "-" ? -1n : 1n;
  const unsigned = value[0] === "-" || value[0] === "+" ? value.slice(1) : value;
  const dot = unsigned.indexOf(".");
  const whole = dot === -1 ? unsigned : unsigned.slice(0, dot);
  const fraction = dot === -1 ? "" : unsigned.slice(dot + 1);
  return sign * BigInt(`${whole || "0"}${fraction.padEnd(scale, "0")}`);
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
  const d = new (ExactDecimal())(typeof value === "number" ? String(value) : value.trim());
  return d.isZero() ? "0" : d.toFixed();
}

/** Two amounts equal as decimals (`"0.18"` = `"0.1800"`); null (or absent) equals only null. */
export function sameDecimal(a: string | number | null | undefined, b: string | number | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const ca = canonicalDecimal(a);
  return ca !== undefined && ca === canonicalDecimal(b);
}
