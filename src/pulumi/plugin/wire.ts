/**
 * The engine's property values (protobuf Structs, pulumi/pulumi sdk/go/common/resource/plugin/rpc.go)
 * as the plain props a kind's provider works with, and back (docs/ARCHITECTURE.md, "The per-kind
 * provider"). Values not known yet arrive as the unknown sentinel, which is the kit's `UNKNOWN`
 * already; secrets arrive wrapped (`{<sig>: <secret sig>, value}`) because Configure says the
 * plugin accepts secrets: they are unwrapped for the kind, and the top-level properties that held
 * one are remembered so that the answer wraps them again. Resources and output values are never
 * sent (Configure says the plugin accepts neither), so they need no case here.
 */
import type { Props } from "../../kit/provider/props";

/** The key marking a special value, and the value marking a secret (pulumi/pulumi sdk/go/common/resource/sig). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** What `Struct.toJavaScript()` gives and `Struct.fromJavaScript()` takes. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Anything that turns into JSON (the generated stubs' Struct). */
export interface StructLike {
  toJavaScript(): { [key: string]: JsonValue };
}

function isSecret(v: unknown): v is { value?: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_SIG;
}

/** A value with every secret unwrapped; `found` is set when one was. */
function unwrap(v: unknown, found: { secret: boolean }): unknown {
  if (isSecret(v)) {
    found.secret = true;
    return unwrap(v.value, found);
  }
  if (Array.isArray(v)) return v.map((x) => unwrap(x, found));
  if (v !== null && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = unwrap(x, found);
    return out;
  }
  return v;
}

/** The key under which a dynamic resource's state holds its provider's text (src/kit/pulumi/shim.ts). */
const DYNAMIC_PROVIDER_KEY = "__provider";

/** Plain props from the engine, and the top-level keys whose value held a secret. */
export interface Decoded {
  readonly props: Props;
  readonly secrets: ReadonlySet<string>;
  /** The values as the engine sent them (secrets wrapped), to tell whether an answer may send them back as they came. */
  readonly raw: { [key: string]: JsonValue };
}

export function decode(struct: StructLike | undefined): Decoded {
  const props: Props = {};
  const secrets = new Set<string>();
  const raw = struct?.toJavaScript() ?? {};
  for (const [k, v] of Object.entries(raw)) {
    // The dynamic provider's text, left in the state of a resource migrated from its dynamic twin
    // (docs/PULUMI.md, "Migrating from the dynamic resources"): never ours, dropped on the next read.
    if (k === DYNAMIC_PROVIDER_KEY) continue;
    const found = { secret: false };
    props[k] = unwrap(v, found);
    if (found.secret) secrets.add(k);
  }
  return { props, secrets, raw };
}

/** Whether two JSON values are equal, whatever the order of their keys. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}

/** A JSON value without `undefined` anywhere (a Struct refuses it). */
function json(v: unknown): JsonValue | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map((x) => json(x) ?? null);
  if (v !== null && typeof v === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) {
      const j = json(x);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return v as JsonValue;
}

/** Props for the engine: every top-level key of `secrets` wrapped as a secret. */
export function encode(props: object, secrets: Iterable<string> = []): { [key: string]: JsonValue } {
  const wrap = new Set(secrets);
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(props)) {
    const j = json(v);
    if (j === undefined) continue;
    out[k] = wrap.has(k) ? { [SIG_KEY]: SECRET_SIG, value: j } : j;
  }
  return out;
}
