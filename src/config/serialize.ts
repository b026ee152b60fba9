/**
 * The way back from DesiredState to the file format: transports as names, no `path`/`pos`/`file`.
 * `parseDesiredState(stringifyDesiredState(s))` gives `s` again (positions aside), which is what
 * makes normalising idempotent and lets `export` write a file that plans clean.
 *
 * The text is written by a small emitter of the file's shapes (block mappings and lists, scalars
 * plain when unambiguous, else JSON-quoted, which YAML reads as double-quoted) instead of `yaml`'s
 * stringify: it is one pass per item, so `export` can stream 100,000 numbers item by item
 * (issue #15) without holding a YAML document of the whole account.
 */
import { NUMBER_SETTING_KEYS, type DesiredNumber, type DesiredState, type DesiredSubAccount } from "./types";
import { transportName } from "./normalize";

/** Options of `stringifyDesiredState`. */
export interface StringifyOptions {
  /**
   * Path of the JSON Schema written in the `# yaml-language-server: $schema=` header, relative to
   * where the file will live; `null` writes no header.
   * @default "schemas/wavix.schema.json"
   */
  schemaPath?: string | null;
}

type Obj = Record<string, unknown>;

/** A sub-account in the file format (keys absent from the state stay absent). */
export function subAccountFileObject(sa: Omit<DesiredSubAccount, "path" | "pos">): Obj {
  const o: Obj = { name: sa.name };
  if (sa.id !== undefined) o.id = sa.id;
  if (sa.status !== undefined) o.status = sa.status;
  if (sa.default_destinations !== undefined) {
    const dd: Obj = {};
    if (sa.default_destinations.sms_endpoint !== undefined) dd.sms_endpoint = sa.default_destinations.sms_endpoint;
    if (sa.default_destinations.dlr_endpoint !== undefined) dd.dlr_endpoint = sa.default_destinations.dlr_endpoint;
    o.default_destinations = dd;
  }
  return o;
}

/** A number in the file format (keys absent from the state stay absent). */
export function numberFileObject(n: Omit<DesiredNumber, "path" | "pos">): Obj {
  const o: Obj = { number: n.number };
  for (const k of NUMBER_SETTING_KEYS) {
    if (k !== "destinations" && n[k] !== undefined) o[k] = n[k];
  }
  if (n.destinations !== undefined) {
    o.destinations = n.destinations.map((d) => {
      const dest: Obj = {
        destination: d.destination,
        transport: transportName(d.transport),
        priority: d.priority,
      };
      if (d.transport === 5 && d.trunk_id !== null) dest.trunk_id = d.trunk_id;
      return dest;
    });
  }
  if (n.on_delete !== undefined) o.on_delete = n.on_delete;
  return o;
}

// ---- the emitter ----

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
function emitMap(obj: Obj, indent: string): string {
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

/** One item of the top-level `numbers` list, as text (streamed by `export`). */
export function numberItemYaml(n: Omit<DesiredNumber, "path" | "pos">): string {
  return emitItem(numberFileObject(n), "  ");
}

/** One item of the top-level `sub_accounts` list, as text. */
export function subAccountItemYaml(sa: Omit<DesiredSubAccount, "path" | "pos">): string {
  return emitItem(subAccountFileObject(sa), "  ");
}

/** The plain object (file format) for a state; keys absent from the state stay absent. */
export function toFileObject(state: DesiredState): Record<string, unknown> {
  const out: Record<string, unknown> = { version: 1 };
  if (state.sub_accounts) out.sub_accounts = state.sub_accounts.map(subAccountFileObject);
  if (state.numbers) out.numbers = state.numbers.map(numberFileObject);
  if (state.call_webhooks) out.call_webhooks = { ...state.call_webhooks };
  if (state.audit) {
    const a: Record<string, unknown> = {};
    if (state.audit.two_fa) {
      const t: Record<string, unknown> = {
        sessions: [...state.audit.two_fa.sessions],
        services: state.audit.two_fa.services.map((s) => ({ service_id: s.service_id, from: s.from, to: s.to })),
      };
      if (state.audit.two_fa.max_failure_ratio !== undefined) t.max_failure_ratio = state.audit.two_fa.max_failure_ratio;
      a.two_fa = t;
    }
    if (state.audit.ten_dlc) {
      const brands = state.audit.ten_dlc.brands;
      const t: Record<string, unknown> = { brands: brands === "all" ? "all" : [...brands] };
      if (state.audit.ten_dlc.min_vetting_score !== undefined) t.min_vetting_score = state.audit.ten_dlc.min_vetting_score;
      a.ten_dlc = t;
    }
    out.audit = a;
  }
  return out;
}

/** The state as YAML text in the file format, with the editor schema header unless told otherwise. */
export function stringifyDesiredState(state: DesiredState, options: StringifyOptions = {}): string {
  return schemaHeader(options.schemaPath) + emitMap(toFileObject(state), "");
}
