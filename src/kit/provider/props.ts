/**
 * Plain property bags as a provider sees them (docs/ARCHITECTURE.md, "The provider kit"): values
 * not known yet, keys absent or present, the file's snake_case and the resources' camelCase.
 * Engine-agnostic: the dynamic provider (src/pulumi/provider-host.ts) and a native plugin hand a
 * kind's provider the same plain objects.
 */

/**
 * The value of a property not known yet (a preview): the sentinel `@pulumi/pulumi` uses on the
 * wire (runtime/rpc `unknownValue`). A face that receives unknowns another way turns them into this.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;

/** Drops keys whose value is undefined: the host's Struct conversion refuses undefined. */
export function compact<T extends object>(o: T): T {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

export function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** Removes values not known yet (preview), so the known rest can still be validated. */
export function withoutUnknowns(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (!hasUnknown(v)) out[k] = v;
  return out;
}

/** The values not known yet (preview), kept as the engine sent them. */
export function unknownsOf(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (hasUnknown(v)) out[k] = v;
  return out;
}

export const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

export function snakeToCamel(s: string): string {
  return s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}
