/**
 * The plain-data vocabulary of a diff, and the service's own equality rules in one place
 * (docs/CONTRACT.md part 4, "Normalisation (no perpetual diffs)").
 */
import type { InboundCallDestination, NumberDestinationInput, TransportCode } from "../client/types";
import type { DesiredDestination } from "../config/types";

/** Marker shown instead of a secret value. */
export const SENSITIVE = "(sensitive)";

/** One changed field. `before`/`after` are plain JSON values; secrets are {@link SENSITIVE}. */
export interface FieldDiff {
  path: string;
  before: unknown;
  after: unknown;
  sensitive?: boolean;
  /** The API cannot show the current value (a write-only field): `before` is shown as {@link UNREADABLE}. */
  unreadable?: boolean;
}

/** Shown instead of the value the API cannot show back. */
export const UNREADABLE = "(cannot be read back)";

/** A destination reduced to what identifies its routing: server-made fields (id, srtp, trunk_label) dropped. */
export interface CanonicalDestination {
  priority: number;
  transport: TransportCode;
  destination: string;
  /** Only meaningful for trunks (transport 5); always null otherwise. */
  trunk_id: number | null;
}

function destinationKey(d: CanonicalDestination): string {
  // A tuple, not JSON of an object: key order can never differ.
  return [d.priority, d.transport, d.destination, d.trunk_id ?? ""].join("\u0000");
}

/** Reduce destinations to a canonical, sorted, de-duplicated set. Idempotent. */
export function canonicalDestinations(
  list: ReadonlyArray<InboundCallDestination | NumberDestinationInput | DesiredDestination | CanonicalDestination>,
): CanonicalDestination[] {
  const byKey = new Map<string, CanonicalDestination>();
  for (const d of list) {
    const transport = Number(d.transport) as TransportCode;
    const c: CanonicalDestination = {
      priority: Number(d.priority),
      transport,
      destination: String(d.destination),
      trunk_id: transport === 5 && d.trunk_id !== undefined && d.trunk_id !== null ? Number(d.trunk_id) : null,
    };
    byKey.set(destinationKey(c), c);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => c)
    .sort((a, b) => a.priority - b.priority);
}

/** Destinations compared as a set of (priority, transport, destination, trunk_id). */
export function sameDestinations(
  a: ReadonlyArray<InboundCallDestination | NumberDestinationInput | DesiredDestination | CanonicalDestination>,
  b: ReadonlyArray<InboundCallDestination | NumberDestinationInput | DesiredDestination | CanonicalDestination>,
): boolean {
  const ka = new Set(canonicalDestinations(a).map(destinationKey));
  const kb = new Set(canonicalDestinations(b).map(destinationKey));
  if (ka.size !== kb.size) return false;
  for (const k of ka) if (!kb.has(k)) return false;
  return true;
}

/** The body form of destinations for a PATCH: trunk_id only for trunks. */
export function destinationsForWire(list: ReadonlyArray<CanonicalDestination>): NumberDestinationInput[] {
  return canonicalDestinations(list).map((d) =>
    d.transport === 5
      ? { destination: d.destination, priority: d.priority, transport: d.transport, trunk_id: d.trunk_id }
      : { destination: d.destination, priority: d.priority, transport: d.transport },
  );
}

/** Structural equality of plain JSON values, independent of object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** A stable text key for a plain JSON value (sorted object keys), for grouping equal patches. */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalKey(o[k])}`)
    .join(",")}}`;
}
