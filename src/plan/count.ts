/**
 * Counts as every output shows them: digits grouped by thousands with commas (`4,989`), in the
 * terminal, the JSON-free reports and the Markdown comment alike, so one figure never reads two ways.
 */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
