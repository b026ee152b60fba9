/**
 * Paged listings read so that their callers can trust them (docs/CONTRACT.md part 4, "A complete, fresh
 * view before acting"). A listing is trusted only when it is consistent: the items seen agree with
 * the `total` it claims, each page's `current_page` is the page asked for, no id comes twice and no
 * page comes back empty before the claimed end. When the claims are missing or disagree with each
 * other (e.g. `total_pages: 1` beside `total: 153`), reading goes on to the first empty page, within a
 * bound derived from what the first page claimed (never past `maxPages`); whatever cannot be made
 * consistent that way ends in an {@link IncompleteListingError} naming the listing.
 *
 * A server that ignores paging altogether (the official sub-account listing declares no `page` or
 * `per_page`) answers the whole listing to every request. That is recognised, and the walk ends
 * complete, only when page 2 repeats page 1 exactly, page 1 was shorter than the page size asked
 * for (so no page size cut it) and no claim contradicts it; a full page repeated, or a claimed
 * total beyond what was seen, stays an error (a duplicate create would follow from trusting it).
 *
 * Nothing is ever allocated from a server-claimed count: pages are fetched a few at a time (`prefetch`,
 * within the claimed range only) and held in a map of at most that many entries. The generator keeps
 * only the ids it has seen, so memory is bounded by `maxPages` × page size whatever the server says.
 */
import { IncompleteListingError } from "./errors";
import type { Page } from "./types";

/** Default of `maxPages`: 2,000 pages, i.e. 200,000 records at 100 per page. */
export const DEFAULT_MAX_PAGES = 2_000;

export interface PageWalk<T> {
  /** The listing as named in errors: path and query without `page` (never a secret: Bearer auth only). */
  listing: string;
  /** Fetches one page (1-based). */
  fetchPage: (page: number) => Promise<Page<T>>;
  /** The identity of an item; an identity seen twice means the pages overlap. */
  idOf: (item: T) => unknown;
  /** First page to read. @default 1 */
  first?: number;
  /** Most pages read; more is an error. @default DEFAULT_MAX_PAGES */
  maxPages?: number;
  /**
   * Pages fetched ahead, concurrently, within the range the first page claims (never beyond it, so a
   * lying claim costs at most this many wasted requests).
   * @default 1 (one page at a time)
   */
  prefetch?: number;
  /** The first page when the caller already has it (saves one request). @default undefined */
  firstPage?: Page<T>;
  /** The page size asked for (`per_page`), to tell a short page 1 repeated from a cut one. @default undefined */
  pageSize?: number;
  /**
   * Called as each page is read, with the listing, the page and how many pages the listing claims
   * (when it says): progress for a person, events for a pipeline. @default none
   */
  onPage?: (info: PageRead) => void;
}

/** One page of a listing read (`onPage`). */
export interface PageRead {
  readonly listing: string;
  readonly page: number;
  /** Pages the listing claims (from its first page), when it claims any. */
  readonly pages?: number;
}

function claim(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Every page of a listing, in order, checked as described in the module comment. */
export async function* walkPages<T>(walk: PageWalk<T>): AsyncGenerator<Page<T>> {
  const first = walk.first ?? 1;
  const maxPages = walk.maxPages ?? DEFAULT_MAX_PAGES;
  const prefetch = Math.max(1, walk.prefetch ?? 1);
  const fail = (page: number, detail: string): IncompleteListingError =>
    new IncompleteListingError(`listing incomplete: ${detail}; refusing to act on a partial view of the account`, {
      method: "GET",
      path: walk.listing,
      status: 200,
      page,
    });

  const seen = new Set<unknown>();
  let firstIds: unknown[] | undefined;
  // The page size the first page claims: a server that cut `per_page` (answering 25 to 100) says so.
  let firstPerPage: number | undefined;
  let count = 0;
  // Totals can only be checked when the listing is read from its start.
  let claimedTotal: number | undefined;
  // The last page this walk may read: one past what the first page claims (the empty page that
  // proves the end), or `maxPages` when it claims nothing.
  let lastAllowed = first + maxPages - 1;
  // Pages fetched ahead only up to what the first page claims.
  let lastClaimed = first;
  let pagesClaimed: number | undefined;
  const inflight = new Map<number, Promise<Page<T>>>();
  const fetch = (page: number): Promise<Page<T>> => {
    let pending = inflight.get(page);
    if (pending === undefined) {
      pending = walk.fetchPage(page);
      // A page fetched ahead and never awaited (the walk stopped first) must not be an unhandled rejection.
      pending.catch(() => undefined);
      inflight.set(page, pending);
    }
    return pending;
  };

  for (let page = first; ; page++) {
    if (page > lastAllowed) {
      const read = page - first;
      throw fail(
        page,
        read === maxPages
          ? `still not at its end after ${read} pages (${count} items): the page bound (maxPages)`
          : `still not at its end after ${read} pages (${count} items), past the ${read - 1} it claims`,
      );
    }
    // This page first (the concurrency bound is first come, first served), then the ones ahead.
    const pending = page === first && walk.firstPage !== undefined ? Promise.resolve(walk.firstPage) : fetch(page);
    for (let ahead = page + 1; ahead <= Math.min(lastClaimed, page + prefetch - 1); ahead++) fetch(ahead);
    const result = await pending;
    inflight.delete(page);
    const items = result.items;
    const pagination = (result.pagination ?? undefined) as Partial<Page<T>["pagination"]> | undefined;
    const current = claim(pagination?.current_page);
    // A server ignoring paging: page 2 is page 1 again, and page 1 provably held everything.
    if (page === first + 1 && first === 1 && firstIds !== undefined && ignoresPaging(firstIds, items.map(walk.idOf), walk.pageSize, claimedTotal, firstPerPage)) return;
    if (current !== undefined && current !== page) {
      throw fail(page, `asked for page ${page}, the server answered page ${current} (it may ignore paging)`);
    }
    const claimedPages = claim(pagination?.total_pages);
    if (page === first) {
      if (first === 1) claimedTotal = claim(pagination?.total);
      const size = items.length;
      const byTotal = claimedTotal !== undefined && size > 0 ? Math.ceil(claimedTotal / size) : undefined;
      const expected = Math.max(claimedPages ?? 0, byTotal ?? 0);
      if (expected > maxPages) {
        throw fail(page, `it claims ${expected} pages, more than the page bound of ${maxPages} (maxPages)`);
      }
      if (claimedPages !== undefined || byTotal !== undefined) {
        lastClaimed = first + Math.max(expected, 1) - 1;
        lastAllowed = Math.min(lastAllowed, lastClaimed + 1);
        pagesClaimed = Math.max(expected, 1);
      }
    }
    walk.onPage?.({ listing: walk.listing, page: page - first + 1, ...(pagesClaimed !== undefined ? { pages: pagesClaimed } : {}) });
    if (items.length === 0) {
      if (claimedTotal !== undefined && count !== claimedTotal) {
        throw fail(page, `page ${page} came back empty after ${count} of the ${claimedTotal} items it claims`);
      }
      return;
    }
    for (const item of items) {
      const id = walk.idOf(item);
      if (seen.has(id)) {
        throw fail(page, `page ${page} repeats id ${String(id)}, already read on an earlier page (the server may ignore paging)`);
      }
      seen.add(id);
    }
    if (page === first) {
      firstIds = items.map(walk.idOf);
      firstPerPage = claim(pagination?.per_page);
    }
    count += items.length;
    if (claimedTotal !== undefined && count > claimedTotal) {
      throw fail(page, `${count} items read by page ${page}, more than the ${claimedTotal} it claims`);
    }
    yield result;
    // A consistent end needs no extra request: the claimed last page reached, every claimed item seen.
    const totalsAgree = first === 1 ? claimedTotal !== undefined && count === claimedTotal : true;
    if (claimedPages !== undefined && page >= claimedPages && totalsAgree) return;
    // Otherwise read on to the first empty page (within lastAllowed).
  }
}

/**
 * Page 2 repeats a short page 1 id for id, and no claim says there is more: neither a claimed total
 * nor a claimed page size of the length of page 1 (a server that cut 100 to 25 and ignores `page` is
 * consistent, but short: 25 of 150 read).
 */
function ignoresPaging(
  firstIds: readonly unknown[],
  ids: readonly unknown[],
  pageSize: number | undefined,
  claimedTotal: number | undefined,
  claimedPerPage: number | undefined,
): boolean {
  if (pageSize === undefined || firstIds.length === 0 || firstIds.length >= pageSize) return false;
  if (claimedPerPage !== undefined && claimedPerPage < pageSize && firstIds.length >= claimedPerPage) return false;
  if (claimedTotal !== undefined && claimedTotal !== firstIds.length) return false;
  return ids.length === firstIds.length && ids.every((id, i) => id === firstIds[i]);
}

/**
 * Every item of a listing. A listing that changed while it was read (an item created on page 1
 * shifts the rest) looks inconsistent, so an {@link IncompleteListingError} is given one more full
 * read before it is thrown; a listing past its page bound is not read again.
 */
export async function readAll<T>(open: () => AsyncIterable<Page<T>>): Promise<T[]>;
/** The same, keeping `map(item)` of each item as its page arrives (the items themselves are dropped). */
export async function readAll<T, U>(open: () => AsyncIterable<Page<T>>, map: (item: T) => U): Promise<U[]>;
export async function readAll<T, U>(open: () => AsyncIterable<Page<T>>, map?: (item: T) => U): Promise<(T | U)[]> {
  for (let attempt = 1; ; attempt++) {
    const all: (T | U)[] = [];
    try {
      for await (const page of open()) for (const item of page.items) all.push(map ? map(item) : item);
      return all;
    } catch (err) {
      // A listing past its page bound would only cost as much again.
      const again = attempt < 2 && err instanceof IncompleteListingError && !/page bound/.test(err.message);
      if (!again) throw err;
    }
  }
}
