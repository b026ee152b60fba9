/**
 * Client-side rate limit (PRODUCT.md part 8 "Speed": "a client-side rate limit"): a token bucket
 * refilled continuously at `requestsPerSecond`, holding at most one second of tokens (the burst).
 * Callers wait in arrival order. One bucket is shared by a client and every client derived from
 * it with `withApiKey`, since they hit the same API from the same process.
 */
import { setTimeout as sleep } from "node:timers/promises";

export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  /** @param ratePerSecond tokens added per second; `Infinity` disables the limit */
  constructor(private readonly ratePerSecond: number) {
    if (!(ratePerSecond > 0)) {
      throw new RangeError(`requestsPerSecond must be a positive number, got ${ratePerSecond}`);
    }
    this.tokens = this.capacity;
    this.last = performance.now();
  }

  private get capacity(): number {
    return Math.max(1, this.ratePerSecond);
  }

  /** Resolves when a request may start. */
  take(): Promise<void> {
    if (this.ratePerSecond === Infinity) return Promise.resolve();
    const turn = this.queue.then(() => this.takeOne());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
  }

  private async takeOne(): Promise<void> {
    this.refill();
    if (this.tokens < 1) {
      await sleep(Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000));
      this.refill();
    }
    this.tokens = Math.max(0, this.tokens - 1);
  }
}
