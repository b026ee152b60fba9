/**
 * A small emitter of the file's shapes (block mappings and lists, scalars plain when unambiguous,
 * else JSON-quoted, which YAML reads as double-quoted): one pass per item, so `export` can stream
 * 100,000 numbers item by item (issue #15). Used by serialize.ts and by each kind's export.
 */

type Obj = Record<string, unknown>;


/** Words every YAML reader takes for something else than a string (1.2 core, and 1.1's booleans). */
const RESERVED = /^(?:null|true|false|yes|no|on|off|y|n|~)$/i;
/** A plain scalar that reads back as the same string in block context: a letter first, no `: `, ` #`, no trailing blank or colon. */
const PLAIN = /^[A-Za-z][A-Za-z0-9_.~:/?&=%+@ -]*$/;

/** A scalar as YAML text: plain when that reads back as the same value, else JSON-quoted. */
export function yamlScalar(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new RangeError(`cannot write ${v} to the file`);
    return Object.is(v, -0) ? "-0" : String(v);
  }
  const s = String(v);
  if (PLAIN.test(s) && !RESERVED.test(s) && !/[: ]$/.test(s) && !s.includes(": ")) return s;
  // JSON text is a YAML double-quoted scalar; escape what YAML does not allow unescaped there.
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** `key: value` lines of a mapping, each starting with `indent`. */
export function emitMap(obj: Obj, indent: string): string {
  let out = "";
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    out += `${indent}${yamlScalar(k)}:${emitValue(v, indent)}`;
  }
  return out;
}

/** What follows `key:` (a space and a scalar, or a new line and a nested block). */
function emitValue(v: unknown, indent: string): string {
  if (Array.isArray(v)) return v.length === 0 ? " []\n" : `\n${v.map((item) => emitItem(item, `${indent}  `)).join("")}`;
  if (isObj(v)) return Object.keys(v).length === 0 ? " {}\n" : `\n${emitMap(v, `${indent}  `)}`;
  return ` ${yamlScalar(v)}\n`;
}

/** One list item: `- ` then a mapping whose first key shares the line, or a scalar. */
export function emitItem(item: unknown, indent: string): string {
  if (isObj(item) && Object.keys(item).length > 0) return `${indent}- ${emitMap(item, `${indent}  `).slice(indent.length + 2)}`;
  if (Array.isArray(item) || isObj(item)) return `${indent}- ${JSON.stringify(item)}\n`;
  return `${indent}- ${yamlScalar(item)}\n`;
}

/** The `# yaml-language-server` header line, or nothing. */
export function schemaHeader(schemaPath: string | null | undefined): string {
  const path = schemaPath === undefined ? "schemas/wavix.schema.json" : schemaPath;
  return path === null ? "" : `# yaml-language-server: $schema=${path}\n`;
}

/** A top-level `key: value` of the file (e.g. `call_webhooks`), as text. */
export function topLevelYaml(key: string, value: unknown): string {
  return `${key}:${emitValue(value, "")}`;
}
