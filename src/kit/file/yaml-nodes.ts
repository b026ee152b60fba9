/**
 * Finding YAML nodes by path, so every problem points at `FILE:LINE:COL` of the node it is about
 * (docs/CONTRACT.md part 3: "one per line as FILE:LINE:COL: message (at path)").
 */
import type { Document, LineCounter, Node } from "yaml";
import { yamlLib } from "./yaml-lib";

/** One step of a path: a mapping key or a list index. */
export type PathSegment = string | number;

/** `numbers[0].destinations[2].transport`; keys that are not plain words are quoted: `a["b c"]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const seg of segments) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Splits an ajv `instancePath` (a JSON pointer), typing list indexes as numbers by walking `data`. */
export function pointerToSegments(pointer: string, data: unknown): PathSegment[] {
  if (pointer === "") return [];
  const raw = pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const out: PathSegment[] = [];
  let cur: unknown = data;
  for (const s of raw) {
    if (Array.isArray(cur)) {
      const i = Number(s);
      out.push(i);
      cur = cur[i];
    } else {
      out.push(s);
      cur = cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[s] : undefined;
    }
  }
  return out;
}

/** The nodes found for a path: the value node and, when the last step was a mapping key, the key node. */
export interface LocatedNode {
  /** The deepest node reached (the value itself when the whole path exists). */
  node: Node | null;
  /** The key node of the last mapping step, when the whole path exists and ends on a key. */
  key: Node | null;
  /** Whether the whole path was found. */
  found: boolean;
}

type Pair = { key: unknown; value: unknown };

/**
 * The pair of `key` in a mapping, or in what it merges (`<<: *defaults`, `<<: [*a, *b]`), so a
 * problem in a merged value points at the anchor where it is written. Own keys win, then merged
 * ones in order, as YAML merge keys are resolved.
 */
function findPair(doc: Document, map: Node, key: string, depth = 0): Pair | undefined {
  const { isAlias, isMap, isScalar, isSeq } = yamlLib();
  if (!isMap(map)) return undefined;
  // The last pair with the key: a key given twice (a problem of its own) holds its later value, as in the data.
  let own: Pair | undefined;
  for (let i = map.items.length - 1; i >= 0 && own === undefined; i--) {
    const p = map.items[i];
    if (isScalar(p.key) && String(p.key.value) === key) own = p;
  }
  if (own || depth > 20) return own;
  for (const p of map.items) {
    // With `merge` on, yaml gives the key's value as the string or a symbol described "<<".
    const k = isScalar(p.key) ? p.key.value : undefined;
    if (!(k === "<<" || (typeof k === "symbol" && k.description === "<<"))) continue;
    const sources = isSeq(p.value) ? p.value.items : [p.value];
    for (const src of sources) {
      const target = isAlias(src) ? (src.resolve(doc) as Node | undefined) : (src as Node | undefined);
      const found = target ? findPair(doc, target, key, depth + 1) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

export function locate(doc: Document, segments: readonly PathSegment[]): LocatedNode {
  const { isAlias, isMap, isScalar, isSeq } = yamlLib();
  let node: Node | null = (doc.contents as Node | null) ?? null;
  let key: Node | null = null;
  for (const seg of segments) {
    if (isAlias(node)) node = (node.resolve(doc) as Node | undefined) ?? null;
    if (isMap(node)) {
      const pair = findPair(doc, node, String(seg));
      if (!pair) return { node, key: null, found: false };
      key = pair.key as Node;
      node = (pair.value as Node | null) ?? null;
      // `key:` with nothing after it: point at the key, not at the empty spot after the colon.
      if (node === null || (isScalar(node) && node.source === "" && node.value === null)) node = key;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)] as Node | undefined;
      if (!item) return { node, key: null, found: false };
      node = item;
      key = null;
    } else {
      return { node, key: null, found: false };
    }
  }
  return { node, key, found: true };
}

/** 1-based line and column of a node's start; 1:1 when it has no range (an empty document). */
export function nodeLinePos(node: Node | null, lineCounter: LineCounter): { line: number; col: number } {
  const offset = node?.range?.[0];
  if (offset === undefined) return { line: 1, col: 1 };
  return lineCounter.linePos(offset);
}

/** The source text of a scalar, e.g. `+15551230002` for a value YAML read as a number. */
export function scalarSource(node: Node | null): string | undefined {
  if (yamlLib().isScalar(node) && typeof node.source === "string" && node.source !== "") return node.source;
  return undefined;
}
