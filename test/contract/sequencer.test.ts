/**
 * The test files' start order (test/sequencer.mts): longest first when nothing is known of their
 * CPU; with it, the files that compute started while the cores would idle and the ones that wait
 * while they are busy; every file exactly once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pairedOrder } from "../sequencer.mjs";

describe("the test files' start order", () => {
  it("is longest first when no file's CPU is known", () => {
    const files = [5, 50, 12, 30, 1].map((wall, i) => ({ item: `f${i}`, wall }));
    expect(pairedOrder(files, 4, 2)).toEqual(["f1", "f3", "f2", "f0", "f4"]);
  });

  it("starts files that compute while the running ones keep fewer than the cores busy, and files that wait while they keep them all", () => {
    const wait = (item: string, wall: number) => ({ item, wall, share: 0.1 });
    const compute = (item: string, wall: number) => ({ item, wall, share: 0.8 });
    const files = [wait("W1", 50), wait("W2", 40), wait("W3", 30), compute("C1", 20), compute("C2", 15), compute("C3", 12), compute("C4", 10)];
    // t=0: C1 (demand 0.8), C2 (1.6), C3 (2.4 ≥ 2): then W1, W2 fill the five slots.
    // t=12, C3 ends (1.8 < 2): C4; t=15, C2 ends: W3 is all that is left.
    expect(pairedOrder(files, 5, 2)).toEqual(["C1", "C2", "C3", "W1", "W2", "C4", "W3"]);
    // Longest first would have started the three that wait together, at 0.3 cores busy.
    expect(pairedOrder(files.map(({ item, wall }) => ({ item, wall })), 5, 2)).toEqual(["W1", "W2", "W3", "C1", "C2", "C3", "C4"]);
  });

  it("orders every file exactly once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ wall: fc.double({ min: 0, max: 500, noNaN: true }), share: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }) })),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (specs, slots, cores) => {
          const files = specs.map((s, i) => ({ item: i, ...s }));
          expect([...pairedOrder(files, slots, cores)].sort((a, b) => a - b)).toEqual(files.map((f) => f.item));
        },
      ),
    );
  });
});
