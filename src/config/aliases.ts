/**
 * YAML anchors and aliases, bounded by what they expand to rather than by how often they are used.
 *
 * The yaml library's `maxAliasCount` refuses a plain anchor used more than N times (101 numbers
 * sharing `destinations: *d` failed at 100), while the real danger, a "billion laughs" file whose
 * aliases nest, is about the size of the expanded data. Aliases become shared references in the
 * plain data, cheap to build; everything after (schema, checks, normalising) walks them expanded,
 * so the expanded size is what is capped here, before any of that runs.
 */

/**
 * Most values (scalars, lists and mappings) the file may expand to once aliases are followed.
 * A value takes at least about 4 bytes of text, so a 16 MiB file (the size cap) written out in full
 * holds under this; a nested-alias bomb grows exponentially and passes it at once.
 */
export const MAX_EXPANDED_VALUES = 5_000_000;

export type ExpansionCheck = { ok: true } | { ok: false; reason: "too-large" | "cycle" };

/** Counts the values of `data` as if every shared reference were a copy, stopping at the cap. */
export function checkExpansion(data: unknown, max: number = MAX_EXPANDED_VALUES): ExpansionCheck {
  let count = 0;
  const onPath = new Set<object>();
  // Iterative with an explicit stack: nesting depth is the file's to choose.
  type Frame = { value: unknown; exit?: object };
  const stack: Frame[] = [{ value: data }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      onPath.delete(frame.exit);
      continue;
    }
    if (++count > max) return { ok: false, reason: "too-large" };
    const v = frame.value;
    if (v === null || typeof v !== "object") continue;
    if (onPath.has(v)) return { ok: false, reason: "cycle" };
    onPath.add(v);
    stack.push({ value: undefined, exit: v });
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) stack.push({ value: c });
  }
  return { ok: true };
}
