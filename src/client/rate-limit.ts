/**
 * Request pacing (docs/CONTRACT.md part 5: "Request pacing adapts to the server (429, `Retry-After`);
 * `--max-rps` caps it"). The seed states no rate limit, so the client does not guess one:
 *
 * - By default nothing but the concurrency bound (8 in flight, request.ts) limits the pace: the
 *   server's latency sets it, as for any well-behaved HTTP client.
 * - When the server pushes back (429, or 503 with `Retry-After`), the pacer takes over: every
 *   request of the client family waits out `Retry-After` (not only the one that was refused), and
 *   the rate drops to half of what was being sent over the last second (multiplicative decrease,
 *   once per round of requests: the other refusals of requests already in flight do not halve it
 *   again). With no further pushback the rate then grows back by 5 % per answered request and
 *   10 % per second (gradual recovery); once it has grown eightfold, or after 30 s without
 *   pushback, the limit is lifted entirely. Growth per answer is what keeps sporadic refusals (a
 *   few percent of requests, unrelated to the pace) from ratcheting the rate down: up to about 7 %
 *   of requests refused at random, the answers in between win the rate back.
 * - A fixed cap (`maxRequestsPerSecond`, the CLI's `--max-rps`) applies only when the user sets
 *   one, on top of the above.
 *
 * This is the AIMD scheme of TCP congestion control and of the AWS SDKs' "adaptive" retry mode:
 * it converges below whatever limit the server enforces without knowing it in advance, and costs
 * nothing against a server that never pushes back.
 *
 * One pacer is shared by a client and every client derived from it with `withApiKey`, since they
 * hit the same API from the same process.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** Options of `AdaptivePacer`. */
export interface PacerOptions {
  /**
   * A fixed cap in requests per second (token bucket, one second of burst), whatever the server
   * says. `Infinity` for none.
   * @default Infinity
   */
  maxRequestsPerSecond?: number;
  /**
   * The adaptive rate never drops below this after pushback.
   * @default 1
   */
  minRequestsPerSecond?: number;
  /**
   * Growth of the adaptive rate per second without pushback (1.1 = +10 % a second).
   * @default 1.1
   */
  recoveryFactor?: number;
  /**
   * Growth of the adaptive rate per answer that is not pushback (1.05 = +5 % an answer).
   * @default 1.05
   */
  recoveryPerAnswer?: number;
  /**
   * The limit is lifted once the rate has grown this many times over since the last slowdown.
   * @default 8
   */
  liftAtGrowth?: number;
  /**
   * After this long without pushback the adaptive limit is lifted (milliseconds).
   * @default 30000
   */
  liftAfterMs?: number;
  /**
   * Clock, for tests.
   * @default performance.now
   */
  now?: () => number;
  /**
   * Waiting, for tests (with `now`, a virtual clock).
   * @default setTimeout of node:timers/promises
   */
  sleep?: (ms: number) => Promise<unknown>;
}

/** Sends remembered to measure the rate being sent when pushback comes. */
const WINDOW_MS = 1000;

/**
 * A token bucket refilled continuously at `ratePerSecond`, holding at most one second of tokens.
 * Callers wait in arrival order. Kept for a fixed cap (`--max-rps`).
 */
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

/** What the pacer knows now, for tests and notices. */
export interface PacerState {
  /** The adaptive rate in force (requests per second); `Infinity` when no pushback is in force. */
  rate: number;
  /** Times the server pushed back and the rate was lowered. */
  slowdowns: number;
  /** Milliseconds every request still waits because of a `Retry-After`. */
  pausedForMs: number;
}

export class AdaptivePacer {
  private readonly cap: TokenBucket | undefined;
  private readonly minRate: number;
  private readonly recovery: number;
  private readonly perAnswer: number;
  private readonly liftAtGrowth: number;
  private readonly liftAfterMs: number;
  /** Answers without pushback since the last slowdown. */
  private answers = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;
  /** Rate set at the last slowdown; Infinity when no pushback is in force. */
  private baseRate = Infinity;
  /** Time of the last slowdown; requests sent before it do not slow down again. */
  private lastSlowdown = -Infinity;
  private pausedUntil = -Infinity;
  private slowdowns = 0;
  /** Start times of recent sends (ring), to measure the rate sent. */
  private readonly sent: number[] = [];
  /** Next send time allowed by the adaptive rate. */
  private nextSlot = -Infinity;

  constructor(options: PacerOptions = {}) {
    const cap = options.maxRequestsPerSecond ?? Infinity;
    if (!(cap > 0)) throw new RangeError(`maxRequestsPerSecond must be a positive number, got ${cap}`);
    this.cap = cap === Infinity ? undefined : new TokenBucket(cap);
    this.minRate = options.minRequestsPerSecond ?? 1;
    this.recovery = options.recoveryFactor ?? 1.1;
    this.perAnswer = options.recoveryPerAnswer ?? 1.05;
    this.liftAtGrowth = options.liftAtGrowth ?? 8;
    this.liftAfterMs = options.liftAfterMs ?? 30_000;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? sleep;
  }

  /** The adaptive rate in force now (requests per second), `Infinity` when unlimited. */
  currentRate(at = this.now()): number {
    if (this.baseRate === Infinity) return Infinity;
    const since = at - this.lastSlowdown;
    const growth = Math.pow(this.recovery, since / 1000) * Math.pow(this.perAnswer, this.answers);
    if (since >= this.liftAfterMs || growth >= this.liftAtGrowth) {
      this.baseRate = Infinity;
      return Infinity;
    }
    return this.baseRate * growth;
  }

  state(): PacerState {
    const at = this.now();
    return { rate: this.currentRate(at), slowdowns: this.slowdowns, pausedForMs: Math.max(0, this.pausedUntil - at) };
  }

  /**
   * Resolves when a request may start, with its start time (pass it to `onResponse`). Free of
   * timers on the common path: no pushback and no cap.
   */
  async take(): Promise<number> {
    if (this.cap) await this.cap.take();
    for (;;) {
      const at = this.now();
      let wait = this.pausedUntil - at;
      const rate = this.currentRate(at);
      if (wait <= 0 && rate !== Infinity) {
        // Space sends 1/rate apart, slots handed out in call order.
        const slot = Math.max(at, this.nextSlot);
        this.nextSlot = slot + 1000 / rate;
        wait = slot - at;
        if (wait > 0) await this.sleep(Math.ceil(wait));
        break;
      }
      if (wait <= 0) break;
      await this.sleep(Math.ceil(wait));
    }
    const started = this.now();
    this.sent.push(started);
    if (this.sent.length > 512) this.sent.splice(0, this.sent.length - 256);
    return started;
  }

  /**
   * Tells the pacer how a request ended. `pushback` is true for 429 (and 503 with `Retry-After`);
   * `retryAfterMs` pauses every request of the family that long.
   */
  onResponse(sentAt: number, pushback: boolean, retryAfterMs?: number): void {
    if (!pushback) {
      // Only answers to requests sent at the lowered rate count towards recovery.
      if (this.baseRate !== Infinity && sentAt >= this.lastSlowdown) this.answers += 1;
      return;
    }
    const at = this.now();
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, at + retryAfterMs);
    // Requests already in flight at the last slowdown were sent at the old rate: one halving per round.
    if (sentAt < this.lastSlowdown) return;
    // The rate sent over the last second, or over the span of the sends when they are younger
    // (8 requests sent in 50 ms is 160 per second, not 8), at least 100 ms so one burst is not infinite.
    const recent = this.sent.filter((t) => t >= at - WINDOW_MS);
    const span = recent.length > 0 ? Math.max(100, at - recent[0]) : WINDOW_MS;
    const measured = (recent.length * 1000) / span;
    const current = this.currentRate(at);
    const from = Math.min(current, Math.max(measured, this.minRate));
    this.baseRate = Math.max(this.minRate, from / 2);
    this.lastSlowdown = at;
    this.answers = 0;
    this.nextSlot = Math.max(this.nextSlot, at);
    this.slowdowns += 1;
  }
}
