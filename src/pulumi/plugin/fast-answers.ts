/**
 * The answers of the calls every plugin instance serves, written to their protobuf bytes by hand
 * (docs/SPEED.md, "The plugin without google-protobuf"): GetPluginInfo, GetSchema, CheckConfig,
 * DiffConfig, Configure, Check, Diff and Cancel. With their requests read by hand
 * (src/pulumi/plugin/fast-wire.ts), an instance that only answers the language host's GetSchema, or
 * serves a stack that changes nothing, never loads google-protobuf and the stubs `@pulumi/pulumi`
 * ships, some 6 ms of each of the four instances the engine starts in an `up` with its preview.
 * Writes (Create, Read, Update, Delete, Invoke) keep the stubs, loaded by their first call.
 *
 * Each answer is a class with the getters the stubs' message has for the fields the plugin sets
 * (so an in-process caller reads it as it would read the stubs' message) and `serializeBinary()`,
 * which writes the bytes the stubs write for the same message, byte for byte: fields in number
 * order, proto3 defaults left out, map entries sorted by key (test/pulumi/plugin-fast-answers.test.ts
 * holds every answer to the stubs' serializer). The messages (pulumi/pulumi proto/pulumi/provider.proto,
 * plugin.proto; google/protobuf/struct.proto):
 *   CheckResponse { inputs 1 Struct; failures 2 CheckFailure { property 1; reason 2 } }
 *   DiffResponse { replaces 1; stables 2; deleteBeforeReplace 3; changes 4; diffs 5;
 *                  detailedDiff 6 map<string, PropertyDiff { kind 1; inputDiff 2 }>; hasDetailedDiff 7 }
 *   ConfigureResponse { acceptSecrets 1; supportsPreview 2; acceptResources 3; acceptOutputs 4; supportsAutonamingConfiguration 5 }
 *   GetSchemaResponse { schema 1 }   PluginInfo { version 1 }   google.protobuf.Empty {}
 *   Struct { map<string, Value> fields 1 }   ListValue { repeated Value values 1 }
 *   Value { null_value 1; number_value 2 double; string_value 3; bool_value 4; struct_value 5; list_value 6 }
 */
import type { JsonValue, StructLike } from "./wire";
import { RawStruct } from "./fast-wire";

const LEN = 2;

/** A varint's bytes (up to 2^53, as google-protobuf's writer takes them). */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** A length-delimited field: its key, its length, its bytes. */
function field(num: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(num << 3) | LEN, ...varint(body.length)]), body]);
}

const stringField = (num: number, s: string): Buffer => field(num, Buffer.from(s, "utf8"));
const boolField = (num: number, b: boolean): Buffer => Buffer.from([num << 3, b ? 1 : 0]);
const enumField = (num: number, n: number): Buffer => Buffer.from([num << 3, ...varint(n)]);

/** A Value's bytes, as google-protobuf's `Value.fromJavaScript` builds it (anything else is refused as it refuses it). */
function valueBytes(v: unknown): Buffer {
  if (v === null) return Buffer.from([0x08, 0x00]);
  switch (typeof v) {
    case "string":
      return stringField(3, v);
    case "number": {
      const b = Buffer.allocUnsafe(9);
      b[0] = 0x11;
      b.writeDoubleLE(v, 1);
      return b;
    }
    case "boolean":
      return boolField(4, v);
    case "object":
      return Array.isArray(v) ? field(6, Buffer.concat(v.map((x) => field(1, valueBytes(x))))) : field(5, structBytes(v as object));
    default:
      throw new Error("Unexpected struct type.");
  }
}

/** A map's entries, sorted by key as google-protobuf writes a map. */
function mapBytes(num: number, keys: string[], valueOf: (key: string) => Buffer): Buffer {
  keys.sort();
  return Buffer.concat(keys.map((k) => field(num, Buffer.concat([stringField(1, k), field(2, valueOf(k))]))));
}

/** A Struct's bytes, as `Struct.fromJavaScript(o).serializeBinary()` writes them. */
export function structBytes(o: object): Buffer {
  const keys: string[] = [];
  // google-protobuf walks the object with for…in.
  for (const k in o) keys.push(k);
  return mapBytes(1, keys, (k) => valueBytes((o as Record<string, unknown>)[k]));
}

/** A Struct the plugin builds from plain values: written by hand, read back (`toJavaScript`) from the very bytes it sends. */
export class PlainStruct implements StructLike {
  private written: Buffer | undefined;
  constructor(private readonly values: { [key: string]: JsonValue }) {}

  serializeBinary(): Uint8Array {
    this.written ??= structBytes(this.values);
    return this.written;
  }

  toJavaScript(): { [key: string]: JsonValue } {
    return new RawStruct(Buffer.from(this.serializeBinary())).toJavaScript();
  }
}

/** A Struct as an answer holds it: read by hand (its bytes), built here, or the stubs' (an in-process caller's request). */
type AnyStruct = StructLike & { serializeBinary?(): Uint8Array };

function structOut(s: AnyStruct): Buffer {
  if (s instanceof RawStruct) return s.bytes;
  if (typeof s.serializeBinary === "function") return Buffer.from(s.serializeBinary());
  return structBytes(s.toJavaScript());
}

export class CheckFailureOut {
  constructor(
    private readonly property: string,
    private readonly reason: string,
  ) {}
  getProperty(): string {
    return this.property;
  }
  getReason(): string {
    return this.reason;
  }
  serializeBinary(): Buffer {
    return Buffer.concat([...(this.property ? [stringField(1, this.property)] : []), ...(this.reason ? [stringField(2, this.reason)] : [])]);
  }
}

export class CheckResponseOut {
  private inputs: AnyStruct | undefined;
  private readonly failures: CheckFailureOut[] = [];

  setInputs(s: AnyStruct | undefined): this {
    this.inputs = s;
    return this;
  }
  getInputs(): AnyStruct | undefined {
    return this.inputs;
  }
  addFailures(f: CheckFailureOut): this {
    this.failures.push(f);
    return this;
  }
  getFailuresList(): CheckFailureOut[] {
    return this.failures;
  }
  serializeBinary(): Buffer {
    return Buffer.concat([...(this.inputs ? [field(1, structOut(this.inputs))] : []), ...this.failures.map((f) => field(2, f.serializeBinary()))]);
  }
}

/** PropertyDiff.Kind and DiffResponse.DiffChanges, the stubs' numbers. */
export const DiffKind = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 } as const;
export const DiffChanges = { DIFF_UNKNOWN: 0, DIFF_NONE: 1, DIFF_SOME: 2 } as const;

export class PropertyDiffOut {
  constructor(
    private readonly kind: number,
    private readonly inputDiff: boolean,
  ) {}
  getKind(): number {
    return this.kind;
  }
  getInputdiff(): boolean {
    return this.inputDiff;
  }
  serializeBinary(): Buffer {
    return Buffer.concat([...(this.kind !== 0 ? [enumField(1, this.kind)] : []), ...(this.inputDiff ? [boolField(2, true)] : [])]);
  }
}

export class DiffResponseOut {
  private replaces: string[] = [];
  private stables: string[] = [];
  private deleteBeforeReplace = false;
  private changes = 0;
  private diffs: string[] = [];
  private readonly detailed = new Map<string, PropertyDiffOut>();
  private hasDetailedDiff = false;

  setReplacesList(v: string[]): this {
    this.replaces = v;
    return this;
  }
  getReplacesList(): string[] {
    return this.replaces;
  }
  setStablesList(v: string[]): this {
    this.stables = v;
    return this;
  }
  getStablesList(): string[] {
    return this.stables;
  }
  setDeletebeforereplace(v: boolean): this {
    this.deleteBeforeReplace = v;
    return this;
  }
  getDeletebeforereplace(): boolean {
    return this.deleteBeforeReplace;
  }
  setChanges(v: number): this {
    this.changes = v;
    return this;
  }
  getChanges(): number {
    return this.changes;
  }
  setDiffsList(v: string[]): this {
    this.diffs = v;
    return this;
  }
  getDiffsList(): string[] {
    return this.diffs;
  }
  /** The detailed diff by property path (a Map: `get`, `keys`, `entries` as the stubs' map gives them). */
  getDetaileddiffMap(): Map<string, PropertyDiffOut> {
    return this.detailed;
  }
  setHasdetaileddiff(v: boolean): this {
    this.hasDetailedDiff = v;
    return this;
  }
  getHasdetaileddiff(): boolean {
    return this.hasDetailedDiff;
  }
  serializeBinary(): Buffer {
    const parts: Buffer[] = [];
    for (const s of this.replaces) parts.push(stringField(1, s));
    for (const s of this.stables) parts.push(stringField(2, s));
    if (this.deleteBeforeReplace) parts.push(boolField(3, true));
    if (this.changes !== 0) parts.push(enumField(4, this.changes));
    for (const s of this.diffs) parts.push(stringField(5, s));
    if (this.detailed.size > 0) parts.push(mapBytes(6, [...this.detailed.keys()], (k) => this.detailed.get(k)!.serializeBinary()));
    if (this.hasDetailedDiff) parts.push(boolField(7, true));
    return Buffer.concat(parts);
  }
}

export class ConfigureResponseOut {
  constructor(
    private readonly flags: { acceptSecrets: boolean; supportsPreview: boolean; acceptResources: boolean; acceptOutputs: boolean; supportsAutonamingConfiguration?: boolean },
  ) {}
  getAcceptsecrets(): boolean {
    return this.flags.acceptSecrets;
  }
  getSupportspreview(): boolean {
    return this.flags.supportsPreview;
  }
  getAcceptresources(): boolean {
    return this.flags.acceptResources;
  }
  getAcceptoutputs(): boolean {
    return this.flags.acceptOutputs;
  }
  getSupportsAutonamingConfiguration(): boolean {
    return this.flags.supportsAutonamingConfiguration === true;
  }
  serializeBinary(): Buffer {
    const f = this.flags;
    const set = [f.acceptSecrets, f.supportsPreview, f.acceptResources, f.acceptOutputs, f.supportsAutonamingConfiguration === true];
    return Buffer.concat(set.flatMap((b, i) => (b ? [boolField(i + 1, true)] : [])));
  }
}

/** An answer of one string field 1 (PluginInfo's version, GetSchemaResponse's schema); its bytes made once. */
class OneString {
  private bytes: Buffer | undefined;
  constructor(protected readonly text: string) {}
  serializeBinary(): Buffer {
    this.bytes ??= this.text ? stringField(1, this.text) : Buffer.alloc(0);
    return this.bytes;
  }
}

export class PluginInfoOut extends OneString {
  getVersion(): string {
    return this.text;
  }
}

export class SchemaResponseOut extends OneString {
  getSchema(): string {
    return this.text;
  }
}

export class EmptyOut {
  serializeBinary(): Buffer {
    return Buffer.alloc(0);
  }
}
