/**
 * The fast path of loading (issue #15): most files are valid, and a valid file needs no YAML node
 * tree, only its data and the position of each declared number and sub-account. js-yaml's event
 * parser gives both at several times the speed of `yaml`'s Document and a fraction of its memory.
 *
 * It takes only plain files: one document, no directives, no anchors, aliases or tags. Anything
 * else, any parse error, and any problem found later (schema, semantic, secrets) sends the file
 * through the `yaml` Document path in load.ts, which keeps a position for every node and words
 * every message. So `yaml` stays the only source of messages and positions for bad files, and
 * this path only has to agree with it on the data of good files (test/config/fast-parse.test.ts
 * checks that agreement on fixtures and generated files).
 */
import { filePartsInFileOrder } from "../kinds/file-parts";
import type { Event } from "js-yaml";
// js-yaml is loaded with the first text read (src/util/lazy-deps.ts): checking data already parsed
// (`checkDesiredData`, the native plugin's Check of one entry) never reads text.
import { jsYaml } from "../util/lazy-deps";

const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

function overflowsFloat(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  // Only scalars that can be numbers: a digit, a sign or a dot first.
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return false;
  const s = text.slice(start, end);
  return FLOAT.test(s) && !Number.isFinite(Number(s));
}

/** Lists whose items get a `pos` in the state (normalize.ts): every kind whose file key holds a list. */
let positioned: Set<string> | undefined;
function isPositioned(key: string): boolean {
  positioned ??= new Set(filePartsInFileOrder().filter((k) => k.file.schema.type === "array").map((k) => k.file.key));
  return positioned.has(key);
}

export interface FastParse {
  data: unknown;
  /** Offset in the text of each item of the top-level lists (`numbers`, `sub_accounts`, `sip_trunks`). */
  itemOffsets: Map<string, number[]>;
}

interface Frame {
  kind: "doc" | "map" | "seq";
  /** Children seen so far (a mapping's keys and values both count). */
  children: number;
  /** The last key read, in the root mapping only. */
  key?: string;
  /** For a positioned list: where its items' offsets go. */
  offsets?: number[];
}

/** Data and item positions of a plain file; `undefined` when the file needs the full path. */
export function fastParse(text: string): FastParse | undefined {
  // A byte-order mark shifts offsets; leave such files (and their checks) to the full path.
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  const { constructFromEvents, CORE_SCHEMA, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE } = jsYaml();
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined;
  }
  const itemOffsets = new Map<string, number[]>();
  const stack: Frame[] = [];
  let documents = 0;
  for (const e of events) {
    if (e.type === EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    if (e.type === EVENT_ID.DOCUMENT) {
      documents += 1;
      if (documents > 1 || e.directives.length > 0) return undefined;
      stack.push({ kind: "doc", children: 0 });
      continue;
    }
    if (e.type === EVENT_ID.ALIAS || e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
    // yaml reads a plain float too large for a double as Infinity, js-yaml as a string: leave
    // such files to yaml (found by the property test in test/config/fast-parse.test.ts).
    if (e.type === EVENT_ID.SCALAR && e.style === SCALAR_STYLE.PLAIN && overflowsFloat(text, e.valueStart, e.valueEnd)) return undefined;
    const parent = stack[stack.length - 1];
    if (parent === undefined) return undefined;
    const index = parent.children++;
    const start = e.type === EVENT_ID.SCALAR ? e.valueStart : e.start;
    if (parent.offsets) parent.offsets.push(start);
    // The root mapping is the second frame (after the document).
    const inRootMap = stack.length === 2 && parent.kind === "map";
    let offsets: number[] | undefined;
    if (inRootMap && index % 2 === 0) {
      parent.key = e.type === EVENT_ID.SCALAR ? getScalarValue(text, e) : undefined;
    } else if (inRootMap && e.type === EVENT_ID.SEQUENCE && parent.key !== undefined && isPositioned(parent.key)) {
      // A repeated key is refused by the constructor below (and reported by the full path).
      offsets = [];
      itemOffsets.set(parent.key, offsets);
    }
    if (e.type === EVENT_ID.MAPPING) stack.push({ kind: "map", children: 0 });
    else if (e.type === EVENT_ID.SEQUENCE) stack.push({ kind: "seq", children: 0, offsets });
  }
  if (documents !== 1) return undefined;
  try {
    const [data] = constructFromEvents(events, { source: text, schema: CORE_SCHEMA, maxAliases: 0 });
    return { data, itemOffsets };
  } catch {
    return undefined;
  }
}

/**
 * 1-based line and column of offsets, given in any order. One pass over the text for the line
 * starts, then a binary search per offset (the same counting as `yaml`'s LineCounter).
 */
export function linePositions(text: string): (offset: number) => { line: number; col: number } {
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  };
}
