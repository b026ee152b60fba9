// The audit's bounded, ordered pools (src/audit/collect.ts): `orderedPool` (item by item) and
// `orderedBatches` (one listing's sessions at a time), the mechanism every events read and
// listing of the audit goes through. Property-based: any mix of results known at once and results
// that settle later in any order, any window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderedBatches, orderedPool } from "../../src/audit/collect";

type Item = { value: number; delay: number | null };

/** `work` that answers at once (delay null) or after `delay` ms, counting what is in flight. */
function worker() {
  let inFlight = 0;
  let most = 0;
  const work = (item: Item): number | Promise<number> => {
    if (item.delay === null) return item.value * 2;
    inFlight++;
    most = Math.max(most, inFlight);
    return new Promise((resolve) =>
      setTimeout(() => {
        inFlight--;
        resolve(item.value * 2);
      }, item.delay!),
    );
  };
  return { work, most: () => most };
}

const items = fc.array(fc.record({ value: fc.integer(), delay: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }) }), { maxLength: 40 });

describe("the audit's ordered pools", () => {
  it("orderedPool: every result, in the source's order, never more than `window` started and not handed on", async () => {
    await fc.assert(
      fc.asyncProperty(items, fc.integer({ min: 1, max: 8 }), async (list, window) => {
        const w = worker();
        const out: number[] = [];
        for await (const r of orderedPool(list, w.work, window)) out.push(r);
        expect(out).toEqual(list.map((i) => i.value * 2));
        expect(w.most()).toBeLessThanOrEqual(window);
      }),
      { numRuns: 60 },
    );
  });

  it("orderedBatches: the same results in order, whatever the arrays they come in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(items, { maxLength: 6 }), fc.integer({ min: 1, max: 8 }), async (batches, window) => {
        const w = worker();
        async function* source() {
          for (const b of batches) yield b;
        }
        const out: number[] = [];
        for await (const some of orderedBatches(source(), w.work, window)) {
          expect(some.length).toBeGreaterThan(0);
          out.push(...some);
        }
        expect(out).toEqual(batches.flat().map((i) => i.value * 2));
        expect(w.most()).toBeLessThanOrEqual(window);
      }),
      { numRuns: 60 },
    );
  });

  it("orderedPool: a consumer that stops early ends the source's walk (its finally runs), and an error ends the walk", async () => {
    let ended = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield { value: i, delay: i % 2 === 0 ? null : 1 };
      } finally {
        ended = true;
      }
    }
    const w = worker();
    const got: number[] = [];
    for await (const r of orderedPool(source(), w.work, 4)) {
      got.push(r);
      if (got.length === 5) break;
    }
    expect(got).toEqual([0, 2, 4, 6, 8]);
    expect(ended).toBe(true);

    const failing = (i: number) => (i === 3 ? Promise.reject(new Error("item 3")) : i);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const r of orderedPool([0, 1, 2, 3, 4, 5], failing, 2)) seen.push(r);
      })(),
    ).rejects.toThrow("item 3");
    expect(seen).toEqual([0, 1, 2]);
  });
});
