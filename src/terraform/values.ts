/**
 * Terraform's values on the wire (the `DynamicValue` of the plugin protocol: OpenTofu's
 * docs/plugin-protocol/object-wire-format.md) as plain JavaScript values, and back
 * (docs/TERRAFORM.md, "How the provider works"):
 *
 *  - MessagePack, shaped by the schema the provider gave: an object is a map holding every one of
 *    its attributes (null when unset), a list or set an array, a number an integer or a float;
 *  - a value not known yet (a plan) is a MessagePack extension: code 0, or code 12 for a "refined"
 *    unknown whose refinements a provider may ignore — any extension code means unknown. Decoded,
 *    it is {@link UNKNOWN_VALUE}; encoded, always code 0 (the plain form the format asks for).
 */
import { decode as msgpackDecode, encode as msgpackEncode, ExtData, ExtensionCodec } from "@msgpack/msgpack";
import type { TfAttribute, TfBlock, TfType } from "./schema";

/** A value not known yet. One object, compared by identity. */
export const UNKNOWN_VALUE: unique symbol = Symbol("unknown");
export type TfValue = null | string | number | boolean | typeof UNKNOWN_VALUE | TfValue[] | { [key: string]: TfValue };
export type TfObject = { [key: string]: TfValue };

const codec = new ExtensionCodec();
// Any extension code is an unknown value (the payload of code 12 refines it; ignoring it is allowed):
// codes 0 and 12 decode to it here, any other arrives as ExtData and is settled below.
codec.register({ type: 12, encode: () => null, decode: () => UNKNOWN_VALUE });
codec.register({
  type: 0,
  encode: (v: unknown) => (v === UNKNOWN_VALUE ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN_VALUE,
});

/** Replaces what the decoder left as raw extension data (none with the codec above) by the unknown value. */
function settle(v: unknown): TfValue {
  if (v instanceof ExtData || v === UNKNOWN_VALUE) return UNKNOWN_VALUE;
  if (Array.isArray(v)) return v.map(settle);
  if (v instanceof Uint8Array) return Buffer.from(v).toString("utf8");
  if (v !== null && typeof v === "object") {
    const out: TfObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = settle(x);
    return out;
  }
  if (typeof v === "bigint") return Number(v);
  return v as TfValue;
}

/** A DynamicValue's MessagePack (or its JSON, which a few requests may carry) as a value; empty: null. */
export function decodeValue(dv: { msgpack?: Uint8Array | Buffer; json?: Uint8Array | Buffer } | null | undefined): TfValue {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) return settle(msgpackDecode(dv.msgpack, { extensionCodec: codec }));
  if (dv.json && dv.json.length > 0) return settle(JSON.parse(Buffer.from(dv.json).toString("utf8")));
  return null;
}

/** A value as MessagePack, shaped by the block's schema (every attribute present). */
export function encodeObject(value: TfObject | null, block: TfBlock): { msgpack: Uint8Array } {
  return { msgpack: msgpackEncode(value === null ? null : shapeBlock(value, block), { extensionCodec: codec, ignoreUndefined: false }) };
}

/** The object with exactly the block's attributes, each shaped by its type. */
export function shapeBlock(value: TfObject, block: TfBlock): TfObject {
  return shapeAttributes(value, block.attributes);
}

function shapeAttributes(value: TfObject, attributes: readonly TfAttribute[]): TfObject {
  const out: TfObject = {};
  for (const a of attributes) out[a.name] = shapeAttribute(value[a.name] ?? null, a);
  return out;
}

function shapeAttribute(v: TfValue, a: TfAttribute): TfValue {
  if (v === null || v === UNKNOWN_VALUE) return v;
  if (a.nested) {
    if (a.nested.nesting === "single") return typeof v === "object" && !Array.isArray(v) ? shapeAttributes(v, a.nested.attributes) : v;
    return Array.isArray(v) ? v.map((x) => (x !== null && x !== UNKNOWN_VALUE && typeof x === "object" && !Array.isArray(x) ? shapeAttributes(x, a.nested!.attributes) : x)) : v;
  }
  return shapeType(v, a.type!);
}

function shapeType(v: TfValue, t: TfType): TfValue {
  if (v === null || v === UNKNOWN_VALUE) return v;
  if (t === "string") return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : v;
  if (t === "number") return typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  if (t === "bool") return v;
  if (Array.isArray(t) && (t[0] === "list" || t[0] === "set")) return Array.isArray(v) ? v.map((x) => shapeType(x, t[1] as TfType)) : v;
  return v;
}

/** True when `v` holds an unknown value anywhere. */
export function hasUnknownValue(v: TfValue): boolean {
  if (v === UNKNOWN_VALUE) return true;
  if (Array.isArray(v)) return v.some(hasUnknownValue);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknownValue);
  return false;
}

/** Deep equality of two values (sets compared as the arrays they arrive as, then as sets of their JSON). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}
