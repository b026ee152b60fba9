/**
 * The engine's two per-resource calls, Check and Diff, read from their protobuf bytes by hand
 * (docs/SPEED.md, "The native plugin's per-call cost"). The stubs `@pulumi/pulumi` ships decode a
 * request into google-protobuf objects (a Struct is a map of Value objects), which the plugin then
 * turns into plain values (`toJavaScript`), and encode the Struct it sends back value by value; for
 * a stack that changes nothing that was a tenth of a plugin's time a resource. Here a request keeps
 * its bytes: its Structs are decoded straight to plain values when asked (`toJavaScript`, the same
 * values google-protobuf gives, keys in the same sorted order), and an answer that hands a
 * Struct back as it came writes those bytes again (`CHECK_SERVICE`'s serializer).
 *
 * The messages (pulumi/pulumi proto/pulumi/provider.proto; google/protobuf/struct.proto):
 *   CheckRequest { urn 1; olds 2 Struct; news 3 Struct; randomSeed 5; name 6; type 7; autonaming 8 }
 *   DiffRequest  { id 1; urn 2; olds 3 Struct; news 4 Struct; ignoreChanges 5; old_inputs 6 Struct; name 7; type 8 }
 *   CheckResponse { inputs 1 Struct; failures 2 }
 *   Struct { map<string, Value> fields 1 }   ListValue { repeated Value values 1 }
 *   Value { null_value 1; number_value 2 double; string_value 3; bool_value 4; struct_value 5; list_value 6 }
 * Any other field is skipped; a request that does not read as these messages is refused with the
 * reason, as the stubs would refuse it.
 */
import type { JsonValue, StructLike } from "./wire";

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/** A reader over one message's bytes, from `pos` to `end`. */
class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const b = this.buf[this.pos++];
      // Beyond 2^53 precision is lost, as in google-protobuf's readers for lengths and tags.
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error("varint too long");
    }
  }

  /** The bounds of a length-delimited field's content. */
  span(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new Error("truncated field");
    this.pos = start + len;
    return [start, start + len];
  }

  string(): string {
    const [s, e] = this.span();
    return this.buf.toString("utf8", s, e);
  }

  skip(wire: number): void {
    switch (wire) {
      case VARINT:
        this.varint();
        return;
      case I64:
        this.pos += 8;
        break;
      case LEN:
        this.span();
        return;
      case I32:
        this.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${wire}`);
    }
    if (this.pos > this.end) throw new Error("truncated field");
  }
}

/** Each map entry of a Struct's bytes, in the order written: its key and where its Value is (-1 when it has none). */
function eachEntry(buf: Buffer, start: number, end: number, visit: (key: string, vs: number, ve: number) => void): void {
  const r = new Reader(buf, start, end);
  while (r.pos < r.end) {
    const tag = r.varint();
    if (tag >>> 3 !== 1 || (tag & 7) !== LEN) {
      r.skip(tag & 7);
      continue;
    }
    // A map entry: key 1, value 2 (either may be absent: the default then; the last of each wins).
    const [es, ee] = r.span();
    const e = new Reader(buf, es, ee);
    let key = "";
    let vs = -1;
    let ve = -1;
    while (e.pos < e.end) {
      const t = e.varint();
      if (t === ((1 << 3) | LEN)) key = e.string();
      else if (t === ((2 << 3) | LEN)) [vs, ve] = e.span();
      else e.skip(t & 7);
    }
    visit(key, vs, ve);
  }
}

function structOf(buf: Buffer, start: number, end: number): { [key: string]: JsonValue } {
  const entries: Array<[string, JsonValue]> = [];
  eachEntry(buf, start, end, (key, vs, ve) => entries.push([key, vs < 0 ? null : valueOf(buf, vs, ve)]));
  // google-protobuf's Struct.toJavaScript walks its map in sorted key order (the last of a key wins).
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of entries) out[k] = v;
  return out;
}

function listOf(buf: Buffer, start: number, end: number): JsonValue[] {
  const out: JsonValue[] = [];
  const r = new Reader(buf, start, end);
  while (r.pos < r.end) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) {
      const [s, e] = r.span();
      out.push(valueOf(buf, s, e));
    } else r.skip(tag & 7);
  }
  return out;
}

function valueOf(buf: Buffer, start: number, end: number): JsonValue {
  const r = new Reader(buf, start, end);
  // A oneof: the last kind written wins; a Value with none set is refused as google-protobuf refuses it.
  let value: JsonValue | undefined;
  while (r.pos < r.end) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === VARINT) {
      r.varint();
      value = null;
    } else if (field === 2 && wire === I64) {
      if (r.pos + 8 > r.end) throw new Error("truncated double");
      value = buf.readDoubleLE(r.pos);
      r.pos += 8;
    } else if (field === 3 && wire === LEN) value = r.string();
    else if (field === 4 && wire === VARINT) value = r.varint() !== 0;
    else if (field === 5 && wire === LEN) {
      const [s, e] = r.span();
      value = structOf(buf, s, e);
    } else if (field === 6 && wire === LEN) {
      const [s, e] = r.span();
      value = listOf(buf, s, e);
    } else r.skip(wire);
  }
  if (value === undefined) throw new Error("Unexpected struct type");
  return value;
}

/** A Struct still in its bytes: decoded to plain values when asked, written back as it came. */
export class RawStruct implements StructLike {
  constructor(readonly bytes: Buffer) {}

  toJavaScript(): { [key: string]: JsonValue } {
    return structOf(this.bytes, 0, this.bytes.length);
  }
}

/** The Struct held in a field, if it is one read by hand. */
export function rawBytesOf(s: unknown): Buffer | undefined {
  return s instanceof RawStruct ? s.bytes : undefined;
}

/** The fields of CheckRequest and DiffRequest the plugin reads, with the getters the stubs give them. */
export class RawRequest {
  private urn = "";
  private type = "";
  private name = "";
  private id = "";
  private olds: RawStruct | undefined;
  private news: RawStruct | undefined;
  private oldInputs: RawStruct | undefined;

  getUrn(): string {
    return this.urn;
  }
  getType(): string {
    return this.type;
  }
  getName(): string {
    return this.name;
  }
  getId(): string {
    return this.id;
  }
  getOlds(): RawStruct | undefined {
    return this.olds;
  }
  getNews(): RawStruct | undefined {
    return this.news;
  }
  getOldInputs(): RawStruct | undefined {
    return this.oldInputs;
  }

  /** Field numbers of the message read (CheckRequest's or DiffRequest's). */
  static read(buf: Buffer, fields: { urn: number; olds: number; news: number; name: number; type: number; id?: number; oldInputs?: number }): RawRequest {
    const req = new RawRequest();
    const r = new Reader(buf, 0, buf.length);
    while (r.pos < r.end) {
      const tag = r.varint();
      const field = tag >>> 3;
      if ((tag & 7) !== LEN) {
        r.skip(tag & 7);
        continue;
      }
      if (field === fields.urn) req.urn = r.string();
      else if (field === fields.type) req.type = r.string();
      else if (field === fields.name) req.name = r.string();
      else if (field === fields.id) req.id = r.string();
      else if (field === fields.olds || field === fields.news || field === fields.oldInputs) {
        const [s, e] = r.span();
        // A copy: grpc-js may reuse the frame's buffer once the call is handed over.
        const struct = new RawStruct(Buffer.from(buf.subarray(s, e)));
        if (field === fields.olds) req.olds = struct;
        else if (field === fields.news) req.news = struct;
        else req.oldInputs = struct;
      } else r.skip(LEN);
    }
    return req;
  }
}

export const readCheckRequest = (buf: Buffer): RawRequest => RawRequest.read(buf, { urn: 1, olds: 2, news: 3, name: 6, type: 7 });
export const readDiffRequest = (buf: Buffer): RawRequest => RawRequest.read(buf, { id: 1, urn: 2, olds: 3, news: 4, oldInputs: 6, name: 7, type: 8 });

/** A length-delimited field's key and length (field numbers below 16). */
function lenPrefix(field: number, length: number): Buffer {
  const bytes = [(field << 3) | LEN];
  let n = length;
  while (n > 0x7f) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** Where a CheckResponse keeps inputs to send as the bytes they came in (set by {@link setInputsAsGiven}). */
const RAW_INPUTS = Symbol("rawInputs");

interface Serializable {
  serializeBinary(): Uint8Array;
  setInputs(s: never): void;
}

/**
 * Sets a CheckResponse's inputs to a Struct of a request: a Struct read by hand is written back as
 * its bytes when the answer is serialized; one the stubs decoded (a test's in-process call) is set as usual.
 */
export function setInputsAsGiven<R extends Serializable>(res: R, struct: StructLike | undefined): void {
  const raw = rawBytesOf(struct);
  if (raw) (res as unknown as { [RAW_INPUTS]?: Buffer })[RAW_INPUTS] = raw;
  else res.setInputs(struct as never);
}

/** A CheckResponse's bytes: the stubs' serializer, and field 1 (inputs) from the request's bytes when kept. */
export function writeCheckResponse(res: Serializable): Buffer {
  const rest = Buffer.from(res.serializeBinary());
  const raw = (res as unknown as { [RAW_INPUTS]?: Buffer })[RAW_INPUTS];
  // Protobuf readers take fields in any order: the inputs first, then what the stubs wrote (the failures).
  return raw ? Buffer.concat([lenPrefix(1, raw.length), raw, rest]) : rest;
}

/** The service definition with Check and Diff read by hand and Check's answer written as above. */
export function fastService<S extends Readonly<Record<string, object>>>(service: S): S {
  const out: Record<string, object> = { ...service };
  if (service.check) out.check = { ...service.check, requestDeserialize: readCheckRequest, responseSerialize: writeCheckResponse as (v: unknown) => Buffer };
  if (service.diff) out.diff = { ...service.diff, requestDeserialize: readDiffRequest };
  return out as S;
}
