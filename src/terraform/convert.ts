/**
 * Terraform values (snake_case attributes, null for unset, the unknown value) as the plain props a
 * kind's provider works with (camelCase, keys absent when unset, the kit's `UNKNOWN`), and back —
 * by the schema generated from the kinds (./schema.ts).
 *
 * Configuration → kind: a null attribute is absent (the setting is not managed, as a key the file
 * leaves out); `""` where the attribute says so is `null` (clear the setting); an unknown value is
 * the kit's `UNKNOWN`. Kind → Terraform: absent is null, a code an attribute also takes as a name is
 * the name (`transport` 1 → `"sip"`).
 */
import { UNKNOWN, type Props } from "../kit/provider/props";
import type { TfAttribute } from "./schema";
import { UNKNOWN_VALUE, type TfObject, type TfValue } from "./values";

/** The kind's inputs from a configuration (or a state's input attributes). */
export function toKind(value: TfObject | null, attributes: readonly TfAttribute[], inputsOnly = true): Props {
  const out: Props = {};
  if (!value) return out;
  for (const a of attributes) {
    if (inputsOnly && !a.input) continue;
    if (a.prop === "id") continue;
    const v = value[a.name];
    if (v === null || v === undefined) continue;
    out[a.prop] = attrToKind(v, a);
  }
  return out;
}

function attrToKind(v: TfValue, a: TfAttribute): unknown {
  if (v === UNKNOWN_VALUE) return UNKNOWN;
  if (a.emptyClears && v === "") return null;
  if (a.nested) {
    const inner = (x: TfValue): unknown => (x === UNKNOWN_VALUE ? UNKNOWN : x !== null && typeof x === "object" && !Array.isArray(x) ? toKind(x, a.nested!.attributes, false) : x);
    return a.nested.nesting === "single" ? inner(v) : Array.isArray(v) ? v.map(inner) : v;
  }
  return plain(v);
}

function plain(v: TfValue): unknown {
  if (v === UNKNOWN_VALUE) return UNKNOWN;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
}

/** A Terraform object (every attribute, null when unset) from a kind's props. */
export function fromKind(props: Props, attributes: readonly TfAttribute[]): TfObject {
  const out: TfObject = {};
  for (const a of attributes) out[a.name] = attrFromKind(props[a.prop], a);
  return out;
}

function attrFromKind(v: unknown, a: TfAttribute): TfValue {
  if (v === undefined || v === null) return null;
  if (v === UNKNOWN) return UNKNOWN_VALUE;
  if (a.nested) {
    const inner = (x: unknown): TfValue => (x !== null && typeof x === "object" && !Array.isArray(x) ? fromKind(x as Props, a.nested!.attributes) : (x as TfValue));
    return a.nested.nesting === "single" ? inner(v) : Array.isArray(v) ? v.map(inner) : null;
  }
  if (a.codes && typeof v === "number") return a.codes.get(v) ?? String(v);
  if (a.jsonText) return JSON.stringify(v);
  return json(v);
}

function json(v: unknown): TfValue {
  if (v === undefined || v === null) return null;
  if (v === UNKNOWN) return UNKNOWN_VALUE;
  if (Array.isArray(v)) return v.map(json);
  if (typeof v === "object") {
    const out: TfObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = json(x);
    return out;
  }
  return v as TfValue;
}

/** The value at a top-level attribute, with every unknown replaced from `from` (null where it has none). */
export function fillUnknowns(planned: TfValue, from: TfValue): TfValue {
  if (planned === UNKNOWN_VALUE) return from === UNKNOWN_VALUE ? null : from;
  if (Array.isArray(planned)) return planned.map((x, i) => fillUnknowns(x, Array.isArray(from) ? (from[i] ?? null) : null));
  if (planned !== null && typeof planned === "object") {
    const src = from !== null && typeof from === "object" && !Array.isArray(from) ? from : {};
    const out: TfObject = {};
    for (const [k, x] of Object.entries(planned)) out[k] = fillUnknowns(x, (src as TfObject)[k] ?? null);
    return out;
  }
  return planned;
}
