/**
 * The requests of the calls every plugin instance serves, read from their protobuf bytes by hand
 * (docs/SPEED.md, "The native plugin's per-call cost" and "The plugin without google-protobuf"):
 * Check and Diff, the engine's two per-resource calls, CheckConfig and DiffConfig (the same
 * messages), Configure, GetSchema, and the Empty of GetPluginInfo and Cancel. The stubs
 * `@pulumi/pulumi` ships decode a request into google-protobuf objects (a Struct is a map of Value
 * objects), which the plugin then turns into plain values (`toJavaScript`); loading them is some 6 ms
 * of each plugin start. Here a request keeps its bytes: its Structs are decoded straight to plain
 * values when asked (`toJavaScript`, the same values google-protobuf gives, keys in the same sorted
 * order), and an answer that hands a Struct back as it came writes those bytes again
 * (src/pulumi/plugin/fast-answers.ts writes the answers).
 *
 * The messages (pulumi/pulumi proto/pulumi/provider.proto; google/protobuf/struct.proto):
 *   CheckRequest { urn 1; olds 2 Struct; news 3 Struct; randomSeed 5; name 6; type 7; autonaming 8 }
 *   DiffRequest  { id 1; urn 2; olds 3 Struct; news 4 Struct; ignoreChanges 5; old_inputs 6 Struct; name 7; type 8 }
 *   ConfigureRequest { variables 1 map<string, string>; args 2 Struct; acceptSecrets 3; acceptResources 4;
 *                      sends_old_inputs 5; sends_old_inputs_to_delete 6; id 7; urn 8; name 9; type 10 }
 *   GetSchemaRequest { version 1 int32; subpackage_name 2; subpackage_version 3 }   google.protobuf.Empty {}
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

  /** A varint read as int32 (its low 32 bits, signed), as google-protobuf reads an int32 field. */
  int32(): number {
    let lo = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const b = this.buf[this.pos++];
      if (shift < 32) lo |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return lo | 0;
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

/** A message whose fields the plugin does not read (google.protobuf.Empty, GetSchemaRequest's): read through, to refuse bytes that are not a message. */
export class RawMessage {
  private version = 0;
  private subpackageName = "";
  private subpackageVersion = "";

  /** GetSchemaRequest's fields: version 1 (int32), subpackage_name 2, subpackage_version 3. */
  getVersion(): number {
    return this.version;
  }
  getSubpackageName(): string {
    return this.subpackageName;
  }
  getSubpackageVersion(): string {
    return this.subpackageVersion;
  }

  static read(buf: Buffer, schemaRequest = false): RawMessage {
    const m = new RawMessage();
    const r = new Reader(buf, 0, buf.length);
    while (r.pos < r.end) {
      const tag = r.varint();
      const f = tag >>> 3;
      const wire = tag & 7;
      if (schemaRequest && f === 1 && wire === VARINT) m.version = r.int32();
      else if (schemaRequest && f === 2 && wire === LEN) m.subpackageName = r.string();
      else if (schemaRequest && f === 3 && wire === LEN) m.subpackageVersion = r.string();
      else r.skip(wire);
    }
    return m;
  }
}

/** ConfigureRequest's fields (variables 1 map<string,string>; args 2 Struct; acceptSecrets 3; acceptResources 4; sends_old_inputs 5; sends_old_inputs_to_delete 6; id 7; urn 8; name 9; type 10), with the stubs' getters. */
export class RawConfigureRequest {
  private readonly variables = new Map<string, string>();
  private args: RawStruct | undefined;
  private readonly flags = [false, false, false, false];
  private readonly strings = ["", "", "", ""];

  /** The variables by key (a Map: `entries`, `get`, as the stubs' map gives them). */
  getVariablesMap(): Map<string, string> {
    return this.variables;
  }
  getArgs(): RawStruct | undefined {
    return this.args;
  }
  getAcceptsecrets(): boolean {
    return this.flags[0];
  }
  getAcceptresources(): boolean {
    return this.flags[1];
  }
  getSendsOldInputs(): boolean {
    return this.flags[2];
  }
  getSendsOldInputsToDelete(): boolean {
    return this.flags[3];
  }
  getId(): string {
    return this.strings[0];
  }
  getUrn(): string {
    return this.strings[1];
  }
  getName(): string {
    return this.strings[2];
  }
  getType(): string {
    return this.strings[3];
  }

  static read(buf: Buffer): RawConfigureRequest {
    const req = new RawConfigureRequest();
    const r = new Reader(buf, 0, buf.length);
    while (r.pos < r.end) {
      const tag = r.varint();
      const f = tag >>> 3;
      const wire = tag & 7;
      if (f === 1 && wire === LEN) {
        // A map entry: key 1, value 2 (either may be absent: ""; the last of each wins).
        const [es, ee] = r.span();
        const e = new Reader(buf, es, ee);
        let key = "";
        let value = "";
        while (e.pos < e.end) {
          const t = e.varint();
          if (t === ((1 << 3) | LEN)) key = e.string();
          else if (t === ((2 << 3) | LEN)) value = e.string();
          else e.skip(t & 7);
        }
        req.variables.set(key, value);
      } else if (f === 2 && wire === LEN) {
        const [a, b] = r.span();
        req.args = new RawStruct(Buffer.from(buf.subarray(a, b)));
      } else if (f >= 3 && f <= 6 && wire === VARINT) req.flags[f - 3] = r.varint() !== 0;
      else if (f >= 7 && f <= 10 && wire === LEN) req.strings[f - 7] = r.string();
      else r.skip(wire);
    }
    return req;
  }
}
