/**
 * The listing walk (src/client/pagination.ts) as a property: a truthful server is read whole with no
 * extra request; a server that lies in the ways issue #13 measured (`total_pages` wrong, `pagination`
 * missing, pages empty too early, paging ignored, `current_page` wrong) yields either every item or an
 * IncompleteListingError, never a shorter list, at a bounded cost. (A server that lies consistently in
 * every claim at once, e.g. no pagination and an early empty page, cannot be told from the truth by
 * any client; the property leaves that one out.)
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IncompleteListingError, walkPages, type PageWalk } from "../../src/client";
import type { Page } from "../../src/client/types";

interface Lie {
  dropPagination: boolean;
  dropTotal: boolean;
  totalPages?: number;
  currentPageOff: boolean;
  emptyFrom?: number;
  ignorePaging: boolean;
}

function server(n: number, size: number, lie: Lie) {
  const ids = Array.from({ length: n }, (_, i) => 100 + i);
  const calls: number[] = [];
  const fetchPage = async (asked: number): Promise<Page<{ id: number }>> => {
    calls.push(asked);
    const page = lie.ignorePaging ? 1 : asked;
    let items = ids.slice((page - 1) * size, page * size).map((id) => ({ id }));
    if (lie.emptyFrom !== undefined && asked >= lie.emptyFrom) items = [];
    const pagination: Record<string, number> = {
      current_page: lie.currentPageOff ? asked + 1 : asked,
      per_page: size,
      total: n,
      total_pages: lie.totalPages ?? Math.ceil(n / size),
    };
    if (lie.dropTotal) delete pagination.total;
    return (lie.dropPagination ? { items } : { items, pagination }) as unknown as Page<{ id: number }>;
  };
  return { ids, calls, fetchPage, truePages: Math.ceil(n / size) };
}

async function walk(w: PageWalk<{ id: number }>): Promise<number[] | IncompleteListingError> {
  const out: number[] = [];
  try {
    for await (const page of walkPages(w)) out.push(...page.items.map((x) => x.id));
    return out;
  } catch (err) {
    if (err instanceof IncompleteListingError) return err;
    throw err;
  }
}

describe("walkPages", () => {
  it("reads a truthful listing whole, in order, with exactly one request per page", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 8 }), async (n, size, prefetch) => {
        const s = server(n, size, { dropPagination: false, dropTotal: false, currentPageOff: false, ignorePaging: false });
        const got = await walk({ listing: "/x", fetchPage: s.fetchPage, idOf: (x) => x.id, prefetch });
        expect(got).toEqual(s.ids);
        expect(s.calls.length).toBe(Math.max(1, s.truePages));
      }),
      { numRuns: 150 },
    );
  });

  it("under the measured lies, yields every item or an IncompleteListingError, never fewer, at a bounded cost", async () => {
    const lie = fc.record({
      dropPagination: fc.boolean(),
      dropTotal: fc.boolean(),
      totalPages: fc.option(fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(1e9)), { nil: undefined }),
      currentPageOff: fc.boolean(),
      emptyFrom: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      ignorePaging: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 8 }), lie, async (n, size, prefetch, l) => {
        // An early empty page is only detectable against a claimed total (see the module comment).
        fc.pre(l.emptyFrom === undefined || (!l.dropPagination && !l.dropTotal));
        const s = server(n, size, l);
        const got = await walk({ listing: "/x?per_page=" + size, fetchPage: s.fetchPage, idOf: (x) => x.id, prefetch, maxPages: 1000 });
        if (got instanceof IncompleteListingError) {
          expect(got.message).toMatch(/^GET \/x\?per_page=\d+: listing incomplete: .+; refusing to act on a partial view of the account$/);
        } else {
          expect(got).toEqual(s.ids);
        }
        expect(s.calls.length).toBeLessThanOrEqual(s.truePages + 1 + prefetch);
      }),
      { numRuns: 400 },
    );
  });

  it("names what was wrong", async () => {
    const base: Lie = { dropPagination: false, dropTotal: false, currentPageOff: false, ignorePaging: false };
    const run = (l: Partial<Lie>) => {
      const s = server(153, 100, { ...base, ...l });
      return walk({ listing: "/v1/sub-organizations?per_page=100", fetchPage: s.fetchPage, idOf: (x) => x.id });
    };
    expect(await run({ totalPages: 1 })).toHaveLength(153);
    expect(((await run({ emptyFrom: 2 })) as Error).message).toContain("page 2 came back empty after 100 of the 153 items it claims");
    expect(((await run({ ignorePaging: true })) as Error).message).toContain("page 2 repeats id 100, already read on an earlier page");
    expect(((await run({ currentPageOff: true })) as Error).message).toContain("asked for page 1, the server answered page 2");
    expect(((await run({ totalPages: 1e9 })) as Error).message).toContain("it claims 1000000000 pages, more than the page bound of 2000 (maxPages)");
  });
});

describe("a server that ignores paging (answers the whole listing to every request)", () => {
  const whole = (n: number) => {
    const calls: number[] = [];
    const items = Array.from({ length: n }, (_, i) => ({ id: 500 + i }));
    // No pagination object: the official sub-account listing declares no paging and makes it optional.
    const fetchPage = async (asked: number): Promise<Page<{ id: number }>> => {
      calls.push(asked);
      return { items } as Page<{ id: number }>;
    };
    return { calls, fetchPage };
  };
  const read = async (walk: PageWalk<{ id: number }>) => {
    const out: number[] = [];
    for await (const p of walkPages(walk)) out.push(...p.items.map((i) => i.id));
    return out;
  };

  it("is read whole, once: page 2 repeating a page 1 shorter than the size asked ends the listing", async () => {
    const s = whole(30);
    const ids = await read({ listing: "/v1/sub-organizations?per_page=100", fetchPage: s.fetchPage, idOf: (i) => i.id, pageSize: 100 });
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(s.calls).toEqual([1, 2]);
  });

  it("is refused when page 1 was full (a page size may have cut it): nothing proves the rest is not there", async () => {
    const s = whole(100);
    await expect(read({ listing: "/v1/sub-organizations?per_page=100", fetchPage: s.fetchPage, idOf: (i) => i.id, pageSize: 100 })).rejects.toThrow(
      /page 2 repeats id 500, already read on an earlier page/,
    );
  });

  it("is refused when the page size asked is unknown", async () => {
    const s = whole(30);
    await expect(read({ listing: "/v1/sub-organizations", fetchPage: s.fetchPage, idOf: (i) => i.id })).rejects.toThrow(IncompleteListingError);
  });
});
