/**
 * A number's destinations as the service compares them (docs/CONTRACT.md part 4, "Normalisation
 * (no perpetual diffs)"): a set of (priority, transport, destination, trunk_id).
 */
import type { InboundCallDestination, NumberDestinationInput, TransportCode } from "../../client/types";
import type { DesiredDestination } from "./types";

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
