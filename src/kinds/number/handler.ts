/**
 * Phone numbers: identity (digits), batched reads, normalisation, diff of managed keys, writes.
 * Shared by the CLI engine and the Pulumi `PhoneNumber` provider.
 *
 * The tool never buys numbers (docs/CONTRACT.md part 4, "Adoption"): a declared number must already be owned.
 */
import type { GatedClient } from "../../kit/gate";
import { sameUrl } from "../../util/url";
import type { WavixClient } from "../../client";
import { readAll } from "../../client";
import type { NumberListResponse, NumberUpdate, WavixNumber } from "../../client/types";
import { NUMBER_SETTING_KEYS, type DesiredNumber } from "./types";
import { notFoundToUndefined } from "../../client/not-found";
import { canonicalKey, type FieldDiff } from "../../kit/change/diff";
import { canonicalDestinations, destinationsForWire, sameDestinations, type CanonicalDestination } from "./destinations";

/** The fields of a number this tool manages, in display order. */
export const NUMBER_FIELDS = NUMBER_SETTING_KEYS;
export type NumberField = (typeof NUMBER_FIELDS)[number];

/** Fields whose bulk change the API applies asynchronously (official bulk update). */
export const ASYNC_BULK_FIELDS: ReadonlySet<NumberField> = new Set(["destinations", "sms_relay_url"]);

/**
 * Desired settings of one number: a field that is undefined is not managed. The file's own shape
 * (a desired destination is already canonical in form: trunk_id null unless a trunk).
 */
export type NumberSettings = Pick<DesiredNumber, NumberField>;

/** Page size used for listing; the API's own default (25) would cost four times the requests. */
export const NUMBERS_PER_PAGE = 100;
/** The most ids one bulk PATCH carries. */
export const BULK_CHUNK = 100;

export function settingsOf(desired: DesiredNumber): NumberSettings {
  const s: NumberSettings = {};
  for (const f of NUMBER_FIELDS) {
    const v = desired[f];
    if (v === undefined) continue;
    if (f === "destinations") s.destinations = canonicalDestinations(desired.destinations ?? []);
    else (s as Record<string, unknown>)[f] = v;
  }
  return s;
}

/** The URL fields of a number this tool manages; `null` in the file clears them. */
export const NUMBER_URL_FIELDS = ["sms_relay_url", "call_status_url"] as const;
export type NumberUrlField = (typeof NUMBER_URL_FIELDS)[number];
const isUrlField = (f: string): f is NumberUrlField => (NUMBER_URL_FIELDS as readonly string[]).includes(f);

/** A URL as read: `null`, `""` (or blank) and absent all mean unset (docs/CONTRACT.md part 4). */
export function urlOrNull(v: string | null | undefined): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/** The managed fields as the account holds them, normalised (an unset URL is null however sent). */
export function currentSettings(n: WavixNumber): Required<NumberSettings> {
  return {
    sms_enabled: n.sms_enabled,
    sms_relay_url: urlOrNull(n.sms_relay_url),
    call_status_url: urlOrNull(n.call_status_url),
    call_recording_enabled: n.call_recording_enabled,
    transcription_enabled: n.transcription_enabled,
    transcription_threshold: n.transcription_threshold,
    destinations: canonicalDestinations(n.destination ?? []),
  };
}

/** Diff of managed keys only: a key the desired state leaves undefined never differs. */
export function diffNumber(desired: NumberSettings, current: WavixNumber): FieldDiff[] {
  const cur = currentSettings(current);
  const out: FieldDiff[] = [];
  for (const f of NUMBER_FIELDS) {
    const want = desired[f];
    if (want === undefined) continue;
    const have = cur[f];
    const same =
      f === "destinations"
        ? sameDestinations(want as CanonicalDestination[], have as CanonicalDestination[])
        : isUrlField(f)
          ? sameUrl(want as string | null, have as string | null)
          : want === have;
    if (!same) out.push({ path: f, before: have, after: want });
  }
  return out;
}

/**
 * The managed fields that differ between two desired settings (a Pulumi diff of old and new inputs);
 * a field that is managed on one side only differs too, since dropping it changes what is managed.
 */
export function changedNumberFields(olds: NumberSettings, news: NumberSettings): NumberField[] {
  const out: NumberField[] = [];
  for (const f of NUMBER_FIELDS) {
    const a = olds[f];
    const b = news[f];
    if (a === undefined && b === undefined) continue;
    const same =
      a !== undefined && b !== undefined && (f === "destinations" ? sameDestinations(a as CanonicalDestination[], b as CanonicalDestination[]) : a === b);
    if (!same) out.push(f);
  }
  return out;
}

/** The PATCH body that makes the listed fields true. */
export function patchFor(desired: NumberSettings, fields: Iterable<string>): NumberUpdate {
  const patch: NumberUpdate = {};
  for (const f of fields) {
    if (f === "destinations") patch.destinations = destinationsForWire(desired.destinations ?? []);
    else (patch as Record<string, unknown>)[f] = (desired as Record<string, unknown>)[f];
  }
  return patch;
}

/** Does the number, as read, show every desired field? */
export function numberConverged(desired: NumberSettings, current: WavixNumber): boolean {
  return diffNumber(desired, current).length === 0;
}

/**
 * Resolve declared digits to the account's numbers with as few requests as the account allows
 * (docs/CONTRACT.md part 8): one listing page tells the account's size; then either page through the
 * rest (when the declared set is large next to the account) or search number by number.
 */
export async function findNumbers(client: WavixClient, digits: readonly string[]): Promise<Map<string, WavixNumber>> {
  return (await findNumbersListed(client, digits)).found;
}

/** The account's numbers the reads of {@link findNumbersListed} listed on the way (no request of their own). */
export interface ListedNumbers {
  /** Every number on the listing pages read, in order. */
  readonly numbers: readonly WavixNumber[];
  /** The whole listing was read (proved complete): `numbers` is every number of the account. */
  readonly complete: boolean;
  /** How many numbers the account holds, as the first page's pagination says (`numbers.length` when complete). */
  readonly total: number;
}

/**
 * {@link findNumbers}, and what the listing pages it read showed: enough to report the numbers
 * the account holds that the file does not declare, with no request beyond the ones it sends anyway.
 */
export async function findNumbersListed(client: WavixClient, digits: readonly string[]): Promise<{ found: Map<string, WavixNumber>; listed: ListedNumbers }> {
  const found = new Map<string, WavixNumber>();
  const wanted = new Set(digits);
  if (wanted.size === 0) return { found, listed: { numbers: [], complete: false, total: 0 } };
  const first = await client.listNumbers({ page: 1, perPage: NUMBERS_PER_PAGE });
  for (const n of first.items) if (wanted.has(n.number)) found.set(n.number, n);
  // A cost estimate only (capped, never allocated from): completeness is the walk's to prove.
  const totalPages = Math.min(claimedPages(first), 1_000_000);
  const claimedTotal = typeof first.pagination?.total === "number" && Number.isFinite(first.pagination.total) ? first.pagination.total : first.items.length;
  const missing = [...wanted].filter((d) => !found.has(d));
  const onlyFirst: ListedNumbers = { numbers: first.items, complete: totalPages <= 1 && claimedTotal <= first.items.length, total: Math.max(claimedTotal, first.items.length) };
  if (missing.length === 0) return { found, listed: onlyFirst };

  if (totalPages - 1 <= missing.length) {
    // The whole listing, checked for completeness: a number absent from it is really not owned.
    const all = await listAllNumbers(client, first);
    for (const n of all) if (wanted.has(n.number)) found.set(n.number, n);
    return { found, listed: { numbers: all, complete: true, total: all.length } };
  }
  await Promise.all(
    missing.map(async (d) => {
      const n = await searchNumber(client, d);
      if (n) found.set(d, n);
    }),
  );
  return { found, listed: onlyFirst };
}

/** What a listing page claims as its page count, as a plain number (0 when it claims nothing usable). */
function claimedPages(page: { pagination?: { total_pages?: unknown } }): number {
  const n = page.pagination?.total_pages;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}

/** One number by its digits: `search` matches partially, so keep the exact match. */
export async function searchNumber(client: WavixClient, digits: string): Promise<WavixNumber | undefined> {
  for await (const page of client.iterateNumberPages({ search: digits, perPage: NUMBERS_PER_PAGE })) {
    const hit = page.items.find((n) => n.number === digits);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Why a declared number cannot be managed: the tool never buys numbers (docs/CONTRACT.md part 4,
 * "Adoption"). One wording for the CLI's plan and the Pulumi provider.
 */
export function numberNotOwnedMessage(digits: string, owner = "the account"): string {
  return `number ${digits} is not owned by ${owner} (wavix-sync never buys numbers; buy it first)`;
}

/** The owned number with these digits; throws {@link numberNotOwnedMessage} when there is none. */
export async function findOwnedNumber(client: WavixClient, digits: string, owner?: string): Promise<WavixNumber> {
  const n = await searchNumber(client, digits);
  if (!n) throw new Error(numberNotOwnedMessage(digits, owner));
  return n;
}

/**
 * Split the fields to write into the ordinary ones (one PATCH) and the URL clears, each of which
 * goes out on its own request (docs/CONTRACT.md part 4): the official update schema has no null, so a
 * server may refuse a clear, and that must cost only the clear, never the number's other changes.
 */
export function splitClears(desired: NumberSettings, fields: readonly string[]): { main: string[]; clears: NumberUrlField[] } {
  const main: string[] = [];
  const clears: NumberUrlField[] = [];
  for (const f of fields) {
    if ((NUMBER_URL_FIELDS as readonly string[]).includes(f) && (desired as Record<string, unknown>)[f] === null) {
      clears.push(f as NumberUrlField);
    } else main.push(f);
  }
  return { main, clears };
}

/** The message for a clear the API refused, naming the number and the field. */
export function refusedClearMessage(field: string, digits: string, err: unknown): string {
  return `the API refused to clear ${field} of ${digits}: ${err instanceof Error ? err.message : String(err)}`;
}

/** Is this error the API refusing the request (a 4xx other than 429), as opposed to a failure to reach it? */
export function isRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 429;
}

/**
 * Write the fields that differ (nothing sent when nothing does): one PATCH of the ordinary fields,
 * then each URL clear on its own. Returns the number as last written; a refused clear throws
 * {@link refusedClearMessage} after the other fields were written.
 */
export async function writeNumber(client: GatedClient, desired: NumberSettings, current: WavixNumber): Promise<WavixNumber> {
  const fields = diffNumber(desired, current).map((d) => d.path);
  if (fields.length === 0) return current;
  const { main, clears } = splitClears(desired, fields);
  let written = current;
  if (main.length > 0) written = await client.updateNumber(current.id, patchFor(desired, main));
  const refused: string[] = [];
  for (const f of clears) {
    try {
      written = await client.updateNumber(current.id, { [f]: null });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      refused.push(refusedClearMessage(f, current.number, err));
    }
  }
  if (refused.length > 0) throw new Error(refused.join("; "));
  return written;
}

/** Pages fetched ahead when the whole number listing is read (within what its first page claims). */
export const LISTING_PREFETCH = 8;

/**
 * Every number of the account, page by page (a few pages fetched ahead at once), proved complete
 * (client pagination: an inconsistent listing is an `IncompleteListingError`, never a shorter list).
 */
export async function listAllNumbers(client: WavixClient, firstPage?: NumberListResponse): Promise<WavixNumber[]> {
  let given = firstPage;
  return readAll(() => {
    // The page the caller read serves the first reading only; a second reading starts afresh.
    const walk = { prefetch: LISTING_PREFETCH, ...(given ? { firstPage: given } : {}) };
    given = undefined;
    return client.iterateNumberPages({ perPage: NUMBERS_PER_PAGE }, walk);
  });
}

/**
 * Re-read numbers by id: one GET each when they are few, the listing when that is cheaper.
 * Returns those it could read; a released number is simply absent.
 */
export async function rereadNumbers(client: WavixClient, ids: readonly number[], options: { missingOk?: boolean } = {}): Promise<Map<number, WavixNumber>> {
  const out = new Map<number, WavixNumber>();
  if (ids.length === 0) return out;
  const wanted = new Set(ids);
  // `missingOk`: a number answered 404 is left out (released) instead of failing the read.
  const getOne = async (id: number) => {
    const n = options.missingOk ? await notFoundToUndefined(client.getNumber(id)) : await client.getNumber(id);
    if (n !== undefined) out.set(id, n);
  };
  if (ids.length <= 3) {
    await Promise.all(ids.map(getOne));
    return out;
  }
  const first = await client.listNumbers({ page: 1, perPage: NUMBERS_PER_PAGE });
  const totalPages = Math.min(claimedPages(first), 1_000_000);
  const pick = (items: WavixNumber[]) => {
    for (const n of items) if (wanted.has(n.id)) out.set(n.id, n);
  };
  pick(first.items);
  const remaining = ids.filter((id) => !out.has(id));
  if (remaining.length === 0) return out;
  if (totalPages - 1 <= remaining.length) {
    pick(await listAllNumbers(client, first));
  } else {
    await Promise.all(remaining.map(getOne));
  }
  return out;
}

/** One pending write: a number, the fields to change, and the patch that changes them. */
export interface NumberWrite {
  id: number;
  digits: string;
  fields: string[];
  patch: NumberUpdate;
}

/** A batch of writes: either one bulk PATCH for several numbers, or a single PATCH. */
export interface NumberWriteBatch {
  ids: number[];
  digits: string[];
  patch: NumberUpdate;
  bulk: boolean;
}

/**
 * Group writes that carry the same patch into bulk PATCHes of at most {@link BULK_CHUNK} ids
 * (docs/CONTRACT.md part 8: a uniform change to many numbers goes out as bulk PATCHes).
 */
export function batchNumberWrites(writes: readonly NumberWrite[], chunk = BULK_CHUNK): NumberWriteBatch[] {
  const groups = new Map<string, NumberWrite[]>();
  for (const w of writes) {
    const key = canonicalKey(w.patch);
    const g = groups.get(key);
    if (g) g.push(w);
    else groups.set(key, [w]);
  }
  const batches: NumberWriteBatch[] = [];
  for (const group of groups.values()) {
    if (group.length === 1) {
      const w = group[0];
      batches.push({ ids: [w.id], digits: [w.digits], patch: w.patch, bulk: false });
      continue;
    }
    for (let i = 0; i < group.length; i += chunk) {
      const part = group.slice(i, i + chunk);
      batches.push({ ids: part.map((w) => w.id), digits: part.map((w) => w.digits), patch: part[0].patch, bulk: true });
    }
  }
  return batches;
}

/** Send one batch. */
export async function sendNumberBatch(client: GatedClient, batch: NumberWriteBatch): Promise<void> {
  if (batch.bulk) await client.bulkUpdateNumbers(batch.ids, batch.patch);
  else await client.updateNumber(batch.ids[0], batch.patch);
}
