/**
 * The one identity rule of the kinds whose objects carry a Wavix id and a name a person chose
 * (sub-accounts by name, SIP trunks by label): an `id:` in the file pins one object; without it the
 * object is found by its exact name, and two of that name are an error asking for the pin.
 */

/**
 * The existing object for a desired one: by pinned id, else by exact name. `ambiguous` makes the
 * error for a name several objects share (with their ids).
 */
export function matchByIdentity<T extends { id: number }>(
  desired: { id?: number },
  name: string,
  existing: readonly T[],
  nameOf: (item: T) => string,
  ambiguous: (ids: number[]) => Error,
): T | undefined {
  if (desired.id !== undefined) return existing.find((x) => x.id === desired.id);
  const hits = existing.filter((x) => nameOf(x) === name);
  if (hits.length > 1) throw ambiguous(hits.map((x) => x.id));
  return hits[0];
}
