/**
 * Reads of many numbers, one at a time (a Pulumi refresh asks the provider for each `PhoneNumber`
 * separately), at the cost of pages rather than one GET each once there are many of them
 * (docs/CONTRACT.md part 8).
 *
 * The reader cannot know how many reads will come, so it uses the rent-or-buy rule: it answers with
 * one GET each until it has spent as many GETs as the whole listing costs in pages, then reads the
 * listing once and answers from that snapshot for a short while. A few reads cost one GET each;
 * N reads in a P-page account cost at most about 2P requests instead of N.
 */
import type { WavixClient } from "../../client";
import type { WavixNumber } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import { listAllNumbers, NUMBERS_PER_PAGE } from "./handler";

export interface NumberReaderOptions {
  /** Reads answered by GET before the account's size is looked up. @default 8 */
  readonly probeAfter?: number;
  /** How long a listing snapshot answers reads, in ms. @default 60000 */
  readonly snapshotTtlMs?: number;
}

export class NumberReader {
  private reads = 0;
  private pages: number | undefined;
  private snapshot: { at: number; byId: Map<number, WavixNumber> } | undefined;
  private loading: Promise<Map<number, WavixNumber>> | undefined;
  private probing: Promise<number> | undefined;
  private readonly probeAfter: number;
  private readonly ttlMs: number;

  constructor(
    private readonly client: WavixClient,
    options: NumberReaderOptions = {},
  ) {
    this.probeAfter = options.probeAfter ?? 8;
    this.ttlMs = options.snapshotTtlMs ?? 60_000;
  }

  /** The number as the account holds it now, or undefined when it is gone (404 or released). */
  async read(id: number): Promise<WavixNumber | undefined> {
    this.reads++;
    const snap = await this.currentSnapshot();
    if (snap) {
      const hit = snap.get(id);
      if (hit) return hit;
      // Absent from the snapshot: confirm with a GET (it may be newer than the snapshot).
    }
    return notFoundToUndefined(this.client.getNumber(id));
  }

  /** After a write, earlier snapshots may be stale: forget them. */
  invalidate(): void {
    this.snapshot = undefined;
  }

  private fresh(): Map<number, WavixNumber> | undefined {
    return this.snapshot && Date.now() - this.snapshot.at < this.ttlMs ? this.snapshot.byId : undefined;
  }

  private async currentSnapshot(): Promise<Map<number, WavixNumber> | undefined> {
    const before = this.fresh();
    if (before) return before;
    if (this.loading) return this.loading;
    if (this.reads < this.probeAfter) return undefined;
    if (this.pages === undefined) {
      // One request tells the account's size (one at a time, however many reads are waiting).
      this.probing ??= this.client
        .listNumbers({ page: 1, perPage: NUMBERS_PER_PAGE })
        // A cost estimate, capped: a claimed count is never trusted as a size (issue #13).
        .then((first) => {
          const n = first.pagination?.total_pages;
          return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.min(n, 1_000_000) : 1;
        })
        .finally(() => (this.probing = undefined));
      this.pages = await this.probing;
    }
    // Every read that waited on the probe resumes here together: the first starts the listing and
    // the others wait on it. Checking again after the await is what keeps it to one listing per
    // process at any --parallel (issue #19: 8 / 16 / 64 waiting reads each listed the account).
    const after = this.fresh();
    if (after) return after;
    if (this.loading) return this.loading;
    if (this.reads < this.pages) return undefined;
    this.loading = listAllNumbers(this.client)
      .then((all) => {
        const byId = new Map(all.map((n) => [n.id, n]));
        this.snapshot = { at: Date.now(), byId };
        this.reads = 0;
        return byId;
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }
}
