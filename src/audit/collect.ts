/**
 * Collect the raw audit data through the typed client (docs/CONTRACT.md part 2: 2FA events and sessions,
 * 10DLC vettings and brands), with memory bounded whatever the number of sessions:
 *
 * - a service's sessions are listed in pieces of whole UTC days (`from`/`to` as YYYY-MM-DD: the
 *   listing is not paged, so a day is the smallest piece the API gives), a day at first and longer
 *   while the days are light ({@link nextPieceDays}), the next piece asked while this one's sessions
 *   are read;
 * - each session's events are read by {@link orderedPool}: at most `window` sessions in flight, results
 *   handed on in listing order, so a report is the same whatever order the answers came in;
 * - nothing is kept here once handed on: the caller folds each session into figures (compute.ts)
 *   and writes it out (store.ts).
 *
 * Pacing is the client's: its concurrency bound, `--max-rps`, and slowing down on 429/Retry-After.
 */
import type { Brand, BrandVetting, TwoFaEvent, TwoFaSession } from "../client/types";
import { NotFoundError } from "../client/errors";
import type { CollectedBrand, CollectedSession, Finding } from "./types";
import { parseTimestamp } from "./time";
import { daysOf, utcDay, type Period } from "./window";

/** Brands read per page with `brands: all` (the API's default is 25; its maximum 100). */
export const BRANDS_PER_PAGE = 100;

/** Sessions whose events may be in flight (or done, waiting for an earlier one) at once. */
export const DEFAULT_WINDOW = 64;

/**
 * The part of `WavixClient` the audit reads. A structural type so the audit can be handed any
 * client built by the front ends (the real `WavixClient` satisfies it).
 */
export interface AuditClient {
  /** `GET /v1/profile`: whose key this is (the report's account; the pin). */
  getAccountProfile(): Promise<{ id: number }>;
  listTwoFaEvents(sessionUuid: string): Promise<TwoFaEvent[]>;
  listTwoFaSessions(serviceId: string, from: string, to: string): Promise<TwoFaSession[]>;
  listBrandVettings(brandId: string): Promise<BrandVetting[]>;
  /** Walked with `per_page` so the walk can tell a short last page from a page the server cut. */
  iterateBrandPages(params: { perPage: number }): AsyncIterable<{ items: Brand[] }>;
}

/** What to collect for 10DLC: listed brand IDs, or `"all"` to page through every brand. */
export interface TenDlcSelection {
  /** @default [] */
  brands?: readonly string[] | "all";
}

/** One thing named in the selection that the account does not have. */
export interface MissingItem {
  kind: "two_fa_session" | "brand";
  id: string;
  message: string;
}

/**
 * Thrown when named sessions or brands do not exist: every one of them is in `missing` (and one per
 * line in `message`), so a run reports all at once.
 */
export class AuditCollectionError extends Error {
  constructor(readonly missing: readonly MissingItem[]) {
    super(missing.map((m) => m.message).join("\n"));
    this.name = "AuditCollectionError";
  }
}

/** Result of a collection: data for what exists, and what was named but not found. */
export interface Collected<T> {
  items: T[];
  missing: MissingItem[];
  /** What the API sent that could not be read (e.g. a session without `session_id`), as report findings. */
  findings: Finding[];
}

const NOT_FOUND = Symbol("not found");

/**
 * A 404 becomes `NOT_FOUND`; any other error (auth, network after retries) propagates: it is not
 * about one item, and repeating it per item would only bury it. The returned promise is marked
 * handled at once, because it may reject before the collector awaits it.
 */
function settle<T>(request: Promise<T>): Promise<T | typeof NOT_FOUND> {
  const p = request.then(
    (value): T | typeof NOT_FOUND => value,
    (err: unknown): typeof NOT_FOUND => {
      if (err instanceof NotFoundError) return NOT_FOUND;
      throw err;
    },
  );
  p.catch(() => undefined);
  return p;
}

/**
 * `work` over `source` with at most `window` items started and not yet handed on, results yielded
 * in source order. An error ends the walk (the items still in flight are left to finish unobserved).
 */
export async function* orderedPool<T, R>(source: AsyncIterable<T> | Iterable<T>, work: (item: T) => Promise<R>, window = DEFAULT_WINDOW): AsyncGenerator<R> {
  const it = Symbol.asyncIterator in source ? (source as AsyncIterable<T>)[Symbol.asyncIterator]() : toAsync((source as Iterable<T>)[Symbol.iterator]());
  const pending: Promise<R>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && pending.length < window) {
        const next = await it.next();
        if (next.done) exhausted = true;
        else {
          const p = work(next.value);
          // Observed in order below; until then a rejection must not count as unhandled.
          p.catch(() => undefined);
          pending.push(p);
        }
      }
      const head = pending.shift();
      if (head === undefined) return;
      yield await head;
    }
  } finally {
    if (!exhausted) await it.return?.();
  }
}

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return { next: async () => it.next(), return: async () => it.return?.() ?? { done: true, value: undefined } };
}

// ---------------------------------------------------------------------------------------------
// 2FA

/** A service's sessions to list over a period. */
export interface ServiceListing {
  serviceId: string;
  period: Period;
}

/**
 * How the sessions listing is asked for a period: first one day; while the days come back light
 * (fewer than {@link LIGHT_DAY} sessions a day) the next piece is twice as long, up to
 * {@link MAX_PIECE_DAYS}; a heavy piece sends it back to one day. A quiet month costs a handful of
 * requests, a busy one a request a day, and no answer holds more than a week of a quiet service's
 * sessions or a day of a busy one's.
 */
export const LIGHT_DAY = 2_000;
/** Longest piece of the period one listing request asks for, in days. */
export const MAX_PIECE_DAYS = 7;

/** The next piece's length in days, after a piece of `days` days that listed `count` sessions. */
export function nextPieceDays(days: number, count: number): number {
  return count < LIGHT_DAY * days ? Math.min(MAX_PIECE_DAYS, days * 2) : 1;
}

/** What a listing produced besides its sessions, per service: for the findings. */
interface ListingNotes {
  withoutId: TwoFaSession[];
  outside: { count: number; examples: string[] };
}

/**
 * The sessions of each service over its period, listed in pieces of whole UTC days
 * ({@link nextPieceDays}; the next piece asked while this one is read), a 404 read as a piece
 * without sessions (the official document: "Returns when no verifications match the service and
 * date range"). Sessions created outside the period are left out; a session listed again (in
 * another piece, or under another service) is handed on once (`seen`). `onFindings` gets each
 * service's listing findings when its period is done.
 */
export async function* listSessions(
  client: AuditClient,
  listings: readonly ServiceListing[],
  seen: Set<string>,
  onFindings: (findings: Finding[]) => void,
  prefix = "",
): AsyncGenerator<Omit<CollectedSession, "events">> {
  interface Piece {
    listing: number;
    /** Index of its first day in the listing's days. */
    from: number;
    days: string[];
    answer: Promise<TwoFaSession[] | typeof NOT_FOUND>;
  }
  const dayLists = listings.map((l) => daysOf(l.period));
  const ask = (listing: number, from: number, length: number): Piece | undefined => {
    // Past this listing's days: the next listing with any, from its first day.
    while (listing < listings.length && from >= dayLists[listing].length) {
      listing += 1;
      from = 0;
      length = 1;
    }
    if (listing >= listings.length) return undefined;
    const days = dayLists[listing].slice(from, from + length);
    return { listing, from, days, answer: settle(client.listTwoFaSessions(listings[listing].serviceId, days[0], days[days.length - 1])) };
  };
  let piece = ask(0, 0, 1);
  let notes: ListingNotes = { withoutId: [], outside: { count: 0, examples: [] } };
  while (piece) {
    const { serviceId, period } = listings[piece.listing];
    const answer = await piece.answer;
    const items = answer === NOT_FOUND ? [] : answer;
    // The next piece is asked now, while this one's sessions are read.
    const next = ask(piece.listing, piece.from + piece.days.length, nextPieceDays(piece.days.length, items.length));
    const asked = new Set(piece.days);
    for (const s of items) {
      // `session_id` is optional in the official ListSessionsResponseItem: without it there are no
      // events to ask for (never `/session/undefined/events`).
      if (typeof s.session_id !== "string" || s.session_id.trim() === "") {
        notes.withoutId.push(s);
        continue;
      }
      const time = typeof s.created_at === "string" ? parseTimestamp(s.created_at) : null;
      if (time !== null && (time < period.from || time >= period.to)) {
        // Outside the period: expected from the partly covered days of an hour window; a server
        // listing days it was not asked for is worth a warning.
        if (!asked.has(utcDay(time))) {
          notes.outside.count += 1;
          if (notes.outside.examples.length < 3) notes.outside.examples.push(`${s.session_id} created ${s.created_at}`);
        }
        continue;
      }
      if (seen.has(s.session_id)) continue;
      seen.add(s.session_id);
      yield {
        session_id: s.session_id,
        service_id: serviceId,
        ...(typeof s.service_name === "string" && s.service_name.trim() !== "" ? { service_name: s.service_name.trim() } : {}),
        ...(s.created_at !== undefined ? { created_at: s.created_at } : {}),
        listed_day: piece.days[0],
      };
    }
    if (!next || next.listing !== piece.listing) {
      onFindings(listingFindings(serviceId, notes, prefix));
      notes = { withoutId: [], outside: { count: 0, examples: [] } };
    }
    piece = next;
  }
}

function listingFindings(serviceId: string, notes: ListingNotes, prefix: string): Finding[] {
  const findings: Finding[] = [];
  const { withoutId, outside } = notes;
  if (withoutId.length > 0) {
    findings.push({
      severity: "warning",
      code: "session_without_id",
      subject: serviceId,
      message: `${prefix}2FA service ${serviceId}: ${withoutId.length} session(s) listed without a session_id (${withoutId
        .slice(0, 3)
        .map((s) => `created ${JSON.stringify(s.created_at ?? null)}`)
        .join(", ")}${withoutId.length > 3 ? ", …" : ""}); their events cannot be read and are not in the report`,
    });
  }
  if (outside.count > 0) {
    findings.push({
      severity: "warning",
      code: "session_outside_window",
      subject: serviceId,
      message: `${prefix}2FA service ${serviceId}: the API listed ${outside.count} session(s) created outside the period, on days it was not asked about (${outside.examples.join(", ")}${outside.count > 3 ? ", …" : ""}); left out`,
    });
  }
  return findings;
}

/**
 * Each listed session with its events, in listing order, at most `window` in flight. A session the
 * service listed but whose events the API does not find is kept without events (not verified) with
 * a `session_events_not_found` finding; `cached` answers sessions read already (the named ones).
 */
export function withEvents(
  client: AuditClient,
  sessions: AsyncIterable<Omit<CollectedSession, "events">>,
  onFindings: (findings: Finding[]) => void,
  options: { window?: number; cached?: Map<string, TwoFaEvent[]>; prefix?: string } = {},
): AsyncGenerator<CollectedSession> {
  return orderedPool(
    sessions,
    async (s) => {
      const known = options.cached?.get(s.session_id);
      if (known) return { ...s, events: known };
      const events = await settle(client.listTwoFaEvents(s.session_id));
      if (events === NOT_FOUND) {
        onFindings([
          {
            severity: "warning",
            code: "session_events_not_found",
            subject: s.session_id,
            message: `${options.prefix ?? ""}2FA session ${s.session_id}${s.service_id !== undefined ? ` (listed by service ${s.service_id})` : ""}: the API does not find its events (404); counted as a session without events`,
          },
        ]);
        return { ...s, events: [] };
      }
      return { ...s, events };
    },
    options.window,
  );
}

/**
 * The events of sessions named directly (deduplicated, file order kept). Unknown ones are all in
 * `missing`, in file order.
 */
export async function collectNamedSessions(client: AuditClient, ids: readonly string[], window = DEFAULT_WINDOW): Promise<Collected<CollectedSession>> {
  const unique = [...new Set(ids)];
  const items: CollectedSession[] = [];
  const missing: MissingItem[] = [];
  let i = 0;
  for await (const events of orderedPool(unique, (id) => settle(client.listTwoFaEvents(id)), window)) {
    const id = unique[i++];
    if (events === NOT_FOUND) missing.push({ kind: "two_fa_session", id, message: `2FA session ${id} not found` });
    else items.push({ session_id: id, events });
  }
  return { items, missing, findings: [] };
}

// ---------------------------------------------------------------------------------------------
// 10DLC

/**
 * Vettings of the listed brands (deduplicated, file order kept), or of every brand when `"all"`:
 * brand pages are walked and each brand's vettings requested as soon as its page arrives.
 */
export async function collectTenDlc(client: AuditClient, selection: TenDlcSelection): Promise<Collected<CollectedBrand>> {
  const ids: string[] = [];
  const requests: Promise<BrandVetting[] | typeof NOT_FOUND>[] = [];
  const seen = new Set<string>();
  const start = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    ids.push(id);
    requests.push(settle(client.listBrandVettings(id)));
  };

  const brands = selection.brands ?? [];
  if (brands === "all") {
    for await (const page of client.iterateBrandPages({ perPage: BRANDS_PER_PAGE })) {
      for (const b of page.items) start(b.brand_id);
    }
  } else {
    for (const id of brands) start(id);
  }
  const results = await Promise.all(requests);
  const items: CollectedBrand[] = [];
  const missing: MissingItem[] = [];
  results.forEach((vettings, i) => {
    const id = ids[i];
    if (vettings === NOT_FOUND) missing.push({ kind: "brand", id, message: `10DLC brand ${id} not found` });
    else items.push({ brand_id: id, vettings });
  });
  return { items, missing, findings: [] };
}
