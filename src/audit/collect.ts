/**
 * Collect the raw audit data through the typed client (docs/CONTRACT.md part 2: 2FA events and sessions,
 * 10DLC vettings and brands), with memory bounded whatever the number of sessions:
 *
 * - a service's sessions are listed with one request per period (its UTC days and one more day on
 *   each side, filtered by `created_at`: {@link listSessions}); the listing gives each session's
 *   status and charge, which is all the headline figures need;
 * - events are read only where a table needs them (`--events`) or the listing leaves a session's
 *   figures unread, by {@link orderedPool}: at most `window` sessions in flight, results handed on in
 *   listing order, so a report is the same whatever order the answers came in;
 * - nothing is kept here once handed on: the caller folds each session into figures (compute.ts)
 *   and writes it out (store.ts).
 *
 * Pacing is the client's: its concurrency bound, `--max-rps`, and slowing down on 429/Retry-After.
 */
import type { Brand, BrandVetting, TwoFaEvent, TwoFaSession } from "../client/types";
import { NotFoundError } from "../client/errors";
import type { CollectedBrand, CollectedSession, Finding } from "./types";
import { parseTimestamp } from "./time";
import { listingDays, utcDay, type Period } from "./window";

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
 * {@link orderedBatches} over the items one at a time.
 */
export async function* orderedPool<T, R>(source: AsyncIterable<T> | Iterable<T>, work: (item: T) => R | Promise<R>, window = DEFAULT_WINDOW): AsyncGenerator<R> {
  for await (const results of orderedBatches(oneByOne(source), work, window)) yield* results;
}

async function* oneByOne<T>(source: AsyncIterable<T> | Iterable<T>): AsyncGenerator<readonly T[]> {
  for await (const item of source) yield [item];
}

/**
 * `work` over items that come in arrays (one listing's sessions), with at most `window` items
 * started and not yet handed on; results handed on in source order, in arrays too: the results ready
 * at the head, else the head once it settles. Per session this costs no promise (an async
 * generator's step is one; a listing has a thousand sessions). An error ends the walk (the items
 * still in flight are left to finish unobserved). A result known at once (`work` returned no
 * promise: nothing to ask) waits for no request.
 */
export async function* orderedBatches<T, R>(source: AsyncIterable<readonly T[]>, work: (item: T) => R | Promise<R>, window = DEFAULT_WINDOW): AsyncGenerator<R[]> {
  const it = source[Symbol.asyncIterator]();
  const pending: (R | Promise<R>)[] = [];
  let batch: readonly T[] = [];
  let at = 0;
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && pending.length < window) {
        if (at < batch.length) {
          const p = work(batch[at++]);
          // Observed in order below; until then a rejection must not count as unhandled.
          if (p instanceof Promise) p.catch(() => undefined);
          pending.push(p);
          continue;
        }
        // The array is used up: not held while the next one is awaited.
        batch = [];
        at = 0;
        const next = await it.next();
        if (next.done) exhausted = true;
        else batch = next.value;
      }
      if (pending.length === 0) return;
      const out: R[] = [];
      while (pending.length > 0 && !(pending[0] instanceof Promise)) out.push(pending.shift() as R);
      if (out.length === 0) out.push(await (pending.shift() as Promise<R>));
      yield out;
    }
  } finally {
    if (!exhausted) await it.return?.();
  }
}

// ---------------------------------------------------------------------------------------------
// 2FA

/** A service's sessions to list over a period. */
export interface ServiceListing {
  serviceId: string;
  period: Period;
}

/** What a listing produced besides its sessions, per service: for the findings. */
interface ListingNotes {
  withoutId: TwoFaSession[];
  outside: { count: number; examples: string[] };
}

/** The answer to the `i`-th listing of a sequence (`NOT_FOUND` for a 404), taken in order. */
export type ListingAnswers = (i: number) => Promise<TwoFaSession[] | typeof NOT_FOUND>;

/**
 * The answers to `listings`, taken in order: taking the `i`-th has the listings up to `i + ahead`
 * asked, so the next ones are on their way while this one is read (the client's concurrency bound
 * still holds). Memory: at most `ahead + 1` listing answers held besides the one being read. One
 * sequence may span the period's listings and then the previous period's, so the latter are asked
 * while the former are still read.
 */
export function listingAnswers(client: AuditClient, listings: readonly ServiceListing[], ahead = 1): ListingAnswers {
  const asked: (Promise<TwoFaSession[] | typeof NOT_FOUND> | undefined)[] = [];
  let next = 0;
  return (i) => {
    for (; next < listings.length && next <= i + ahead; next++) {
      const days = listingDays(listings[next].period);
      asked[next] = settle(client.listTwoFaSessions(listings[next].serviceId, days.from, days.to));
    }
    const answer = asked[i];
    // Handed on once: the answer is not held here after it is taken.
    asked[i] = undefined;
    if (answer === undefined) throw new Error(`listing ${i} taken twice or out of range`);
    return answer;
  };
}

/**
 * The sessions of each service over its period: one listing request per service and period, asked
 * for the period's UTC days with one more day on each side ({@link listingDays}: the official
 * document does not say in which zone the listing's dates are), the next service's listing asked
 * while this one is read. A 404 reads as no sessions (the official document: "Returns when no
 * verifications match the service and date range"). Each session comes with the listing's
 * `status` and `charge` (the headline figures need nothing more). Sessions created outside the
 * period are left out (the edge days are expected to give some); a session listed again (under
 * another service) is handed on once (`seen`). `onFindings` gets each service's listing findings.
 */
export async function* listSessions(...args: Parameters<typeof listSessionBatches>): AsyncGenerator<Omit<CollectedSession, "events">> {
  for await (const batch of listSessionBatches(...args)) yield* batch;
}

/**
 * {@link listSessions}, one array per listing (its sessions in order, the listing's findings handed
 * to `onFindings` before it): the answer itself is let go once read.
 */
export async function* listSessionBatches(
  client: AuditClient,
  listings: readonly ServiceListing[],
  seen: Set<string>,
  onFindings: (findings: Finding[]) => void,
  prefix = "",
  answers: ListingAnswers = listingAnswers(client, listings),
): AsyncGenerator<Omit<CollectedSession, "events">[]> {
  for (let i = 0; i < listings.length; i++) {
    const { serviceId, period } = listings[i];
    const got = await answers(i);
    const items = got === NOT_FOUND ? [] : got;
    const days = listingDays(period);
    const notes: ListingNotes = { withoutId: [], outside: { count: 0, examples: [] } };
    const batch: Omit<CollectedSession, "events">[] = [];
    for (const s of items) {
      // `session_id` is optional in the official ListSessionsResponseItem: without it a session
      // cannot be told from another (nor its events asked for: never `/session/undefined/events`).
      if (typeof s.session_id !== "string" || s.session_id.trim() === "") {
        notes.withoutId.push(s);
        continue;
      }
      const time = typeof s.created_at === "string" ? parseTimestamp(s.created_at) : null;
      if (time !== null && (time < period.from || time >= period.to)) {
        // Outside the period: expected from the edge days; a server listing days it was not asked
        // about is worth a warning.
        const day = utcDay(time);
        if (day < days.from || day > days.to) {
          notes.outside.count += 1;
          if (notes.outside.examples.length < 3) notes.outside.examples.push(`${s.session_id} created ${s.created_at}`);
        }
        continue;
      }
      if (seen.has(s.session_id)) continue;
      seen.add(s.session_id);
      // Assigned one by one (in this key order) rather than spread: this runs for every session.
      const out: Omit<CollectedSession, "events"> = { session_id: s.session_id, service_id: serviceId };
      if (typeof s.service_name === "string" && s.service_name.trim() !== "") out.service_name = s.service_name.trim();
      if (s.created_at !== undefined) out.created_at = s.created_at;
      if (s.status !== undefined && s.status !== null) out.status = String(s.status);
      if (s.charge !== undefined && s.charge !== null) out.charge = String(s.charge);
      batch.push(out);
    }
    onFindings(listingFindings(serviceId, notes, prefix));
    yield batch;
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
        .join(", ")}${withoutId.length > 3 ? ", …" : ""}); they cannot be told apart, so they are not in the report`,
      gap: true,
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
 * The listed sessions in listing order, each with its events when `needEvents` says so (`--events`,
 * or a session whose listing gives no usable status or charge), at most `window` in flight. A
 * session whose events answer 404 keeps the listing's status and charge, marked `events_not_found`,
 * with a `session_events_not_found` gap; `cached` answers sessions read already (the named ones).
 */
export function withEvents(
  client: AuditClient,
  sessions: AsyncIterable<Omit<CollectedSession, "events">>,
  onFindings: (findings: Finding[]) => void,
  options: WithEventsOptions = {},
): AsyncGenerator<CollectedSession> {
  return orderedPool(sessions, eventsReader(client, onFindings, options), options.window);
}

/** {@link withEvents} over {@link listSessionBatches}: the sessions in listing order, in arrays. */
export function withEventsBatched(
  client: AuditClient,
  batches: AsyncIterable<readonly Omit<CollectedSession, "events">[]>,
  onFindings: (findings: Finding[]) => void,
  options: WithEventsOptions = {},
): AsyncGenerator<CollectedSession[]> {
  return orderedBatches(batches, eventsReader(client, onFindings, options), options.window);
}

/** Options of {@link withEvents}. */
export interface WithEventsOptions {
  window?: number;
  cached?: Map<string, TwoFaEvent[]>;
  prefix?: string;
  needEvents?: (s: Omit<CollectedSession, "events">) => boolean;
}

/** A listed session with its events when they are needed (else as it is, at once). */
function eventsReader(
  client: AuditClient,
  onFindings: (findings: Finding[]) => void,
  options: WithEventsOptions,
): (s: Omit<CollectedSession, "events">) => CollectedSession | Promise<CollectedSession> {
  const need = options.needEvents ?? (() => true);
  return (s) => {
    const known = options.cached?.get(s.session_id);
    if (known) return { ...s, events: known };
    if (!need(s)) return s;
    return readEvents(s);
  };
  async function readEvents(s: Omit<CollectedSession, "events">): Promise<CollectedSession> {
    const events = await settle(client.listTwoFaEvents(s.session_id));
    if (events === NOT_FOUND) {
      onFindings([
        {
          severity: "warning",
          code: "session_events_not_found",
          subject: s.session_id,
          message: `${options.prefix ?? ""}2FA session ${s.session_id}${s.service_id !== undefined ? ` (listed by service ${s.service_id})` : ""}: the API does not find its events (404); the listing's status and charge stand in, and its events are missing from the report`,
          gap: true,
        },
      ]);
      return { ...s, events_not_found: true };
    }
    return { ...s, events };
  }
}

/** True when the listing leaves a session's outcome or charge unread: its events are the stand-in. */
export function listingLacksFigures(s: Omit<CollectedSession, "events">): boolean {
  const status = s.status?.trim().toLowerCase();
  const statusOk = status !== undefined && LISTED_STATUSES.has(status);
  return !statusOk || s.charge === undefined || !DECIMAL_CHARGE.test(s.charge.trim());
}

/** The sessions listing's statuses the audit reads (compute.ts: verified or not). */
const LISTED_STATUSES = new Set(["verified", "approved", "pending", "failed", "expired", "canceled", "cancelled", "rejected"]);
/** A charge the audit sums: decimal text. */
const DECIMAL_CHARGE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A session named directly: its events are all there is (no listing gives its status and charge). */
export type NamedSession = CollectedSession & { events: TwoFaEvent[] };

/**
 * The events of sessions named directly (deduplicated, file order kept). Unknown ones are all in
 * `missing`, in file order.
 */
export async function collectNamedSessions(client: AuditClient, ids: readonly string[], window = DEFAULT_WINDOW): Promise<Collected<NamedSession>> {
  const unique = [...new Set(ids)];
  const items: NamedSession[] = [];
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
  const findings: Finding[] = [];
  results.forEach((vettings, i) => {
    const id = ids[i];
    if (vettings !== NOT_FOUND) items.push({ brand_id: id, vettings });
    // A brand the account lists whose vettings answer 404 is a gap of this report, not a reason to
    // give no report (issue #35, item 8); a brand the file names and the API does not know is the
    // file's error.
    else if (brands === "all") {
      findings.push({
        severity: "warning",
        code: "brand_vettings_not_found",
        subject: id,
        message: `10DLC brand ${id}: listed by the account, but its vettings answer 404; the brand is not in the report`,
        gap: true,
      });
    } else missing.push({ kind: "brand", id, message: `10DLC brand ${id} not found` });
  });
  return { items, missing, findings };
}
