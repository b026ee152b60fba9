/**
 * Counts as every output shows them: digits grouped by thousands with commas (`4,989`), in the
 * terminal, the JSON-free reports and the Markdown comment alike, so one figure never reads two ways.
 *
 * A safe integer (every count) is grouped here by hand: `toLocaleString` loads Intl's number
 * formatting on its first call, some 20 ms of CPU, once in every CLI run that prints a count
 * (docs/SPEED.md, "The test suite's time"). Anything else (a fraction, a huge or non-finite number,
 * and -0) still go through `toLocaleString("en-US")`, whose output the integer path matches digit for digit
 * (test/util/count.test.ts).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
