/**
 * Request pacing (docs/CONTRACT.md part 5: "Request pacing adapts to the server (429, `Retry-After`);
 * `--max-rps` caps it"). The seed states no rate limit, so the client does not guess one:
 *
 * - By default nothing but the concurrency bound (8 in flight, request.ts) limits the pace: the
 *   server's latency sets it, as for any well-behaved HTTP client.
 * - When the server pushes back (429, or 503 with `Retry-After`) while it still answers other
 *   requests, it is enforcing a rate: the pacer learns that rate from the answers it let through
 *   over the last second, and paces the whole client family at 90 % of it (multiplicative decrease
 *   from the learned limit, once per round of requests: the other refusals of requests already in
 *   flight do not lower it again). It then grows back by 1 % per answered request up to the learned
 *   limit and by 0.2 % past it (the probe for a limit that has risen), and by 10 % per second; once
 *   the pace has grown eightfold, or after 30 s without pushback, the limit is lifted entirely. Only the refused request waits out its `Retry-After` (its retry, request.ts): the rest
 *   go on at the learned pace, as a plain loop's other workers would, so the server's capacity is
 *   used while one request waits.
 * - When the server refuses everything (no answer let through over the last second) and says
 *   `Retry-After`, every request of the family waits it out, not only the refused one, and the pace
 *   drops to half of what was being sent.
 * - A refusal while a pace is in force, after a second in which the server let through most of
 *   what was sent, lowers the pace from itself (the pace is about the limit; the refusal came from
 *   sends bunched up), not to what that second carried: a second with a pause in it (this process
 *   busy reading a long answer) says nothing about the server's limit.
 * - Sends are released one at a time from the clock at release, never more than two at once after
 *   a pause, so a busy moment does not turn into a burst the server refuses.
 * - Growth per answer is what keeps sporadic refusals (a few percent of requests, unrelated to the
 *   pace) from ratcheting the rate down: up to about 5 % of requests refused at random, the
 *   answers in between win the rate back.
 * - A fixed cap (`maxRequestsPerSecond`, the CLI's `--max-rps`) applies only when the user sets
 *   one, on top of the above.
 *
 * This is the AIMD scheme of TCP congestion control and of the AWS SDKs' "adaptive" retry mode
 * (which also lowers from the measured rate): it converges just below whatever limit the server
 * enforces without knowing it in advance, probes past it now and then (a refusal or two, retried),
 * and costs nothing against a server that never pushes back. Halving the rate sent, as this pacer
 * did before, and pausing every request for each `Retry-After` left a 50 requests/s server at under
 * 20 requests/s (issue #35; the comparison with a plain loop is test/client/pacing.test.ts and
 * `npm run bench`'s audit rows).
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
   * After pushback, the pace as a fraction of the rate the server let through over the last
   * second (the learned limit).
   * @default 0.9
   */
  decrease?: number;
  /**
   * Growth of the adaptive rate per second without pushback (1.1 = +10 % a second).
   * @default 1.1
   */
  recoveryFactor?: number;
  /**
   * Growth of the adaptive rate per answer that is not pushback while the rate is below the learned
   * limit (or none was learned): 1.01 = +1 % an answer.
   * @default 1.01
   */
  recoveryPerAnswer?: number;
  /**
   * Growth of the adaptive rate per answer once it is at or above the learned limit: the probe for
   * a limit that has risen.
   * @default 1.002
   */
  probePerAnswer?: number;
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
 * A refusal while a pace is in force, when the server let through at least this share of the rate
 * sent over the last second, says the pace is about the limit (`onResponse`).
 */
const LET_THROUGH_MOST = 0.8;

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
  /** Milliseconds every request still waits because of a `Retry-After` (the server refusing everything). */
  pausedForMs: number;
  /** The rate the server let through when it last pushed back (requests per second); 0 before. */
  learnedRate: number;
}

/** Times of recent events (sends, answers let through), to measure a rate over the last second. */
class RecentTimes {
  private readonly times: number[] = [];

  push(at: number): void {
    this.times.push(at);
    if (this.times.length > 512) this.times.splice(0, this.times.length - 256);
  }

  /**
   * Events per second over the second before `at`, or over the span of the events when they are younger
   * (8 requests sent in 50 ms is 160 per second, not 8), at least 100 ms so one burst is not infinite.
   * 0 when none in the last second.
   */
  rate(at: number): number {
    // Events after `at` (when asked about a moment past) are not counted.
    let end = this.times.length;
    while (end > 0 && this.times[end - 1] > at) end--;
    let first = -1;
    for (let i = end - 1; i >= 0 && this.times[i] >= at - WINDOW_MS; i--) first = i;
    if (first < 0) return 0;
    const count = end - first;
    return (count * 1000) / Math.max(100, at - this.times[first]);
  }
}

export class AdaptivePacer {
  private readonly cap: TokenBucket | undefined;
  private readonly minRate: number;
  private readonly decrease: number;
  private readonly recovery: number;
  private readonly perAnswer: number;
  private readonly probe: number;
  private readonly liftAtGrowth: number;
  private readonly liftAfterMs: number;
  /** Growth won by answers without pushback since the last slowdown (a factor). */
  private answerGrowth = 1;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;
  /** Rate set at the last slowdown; Infinity when no pushback is in force. */
  private baseRate = Infinity;
  /** Time of the last slowdown; requests sent before it do not slow down again. */
  private lastSlowdown = -Infinity;
  private pausedUntil = -Infinity;
  private slowdowns = 0;
  private learned = 0;
  /** Start times of recent sends, to measure the rate sent. */
  private readonly sent = new RecentTimes();
  /** Times of recent answers that were not pushback, to measure the rate the server lets through. */
  private readonly accepted = new RecentTimes();
  /** Next send time allowed by the adaptive rate. */
  private nextSlot = -Infinity;
  /** Callers of `take` waiting for their turn (`release`, one at a time, in call order). */
  private waiting = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: PacerOptions = {}) {
    const cap = options.maxRequestsPerSecond ?? Infinity;
    if (!(cap > 0)) throw new RangeError(`maxRequestsPerSecond must be a positive number, got ${cap}`);
    this.cap = cap === Infinity ? undefined : new TokenBucket(cap);
    this.minRate = options.minRequestsPerSecond ?? 1;
    this.decrease = options.decrease ?? 0.9;
    if (!(this.decrease > 0 && this.decrease < 1)) throw new RangeError(`decrease must be between 0 and 1, got ${this.decrease}`);
    this.recovery = options.recoveryFactor ?? 1.1;
    this.perAnswer = options.recoveryPerAnswer ?? 1.01;
    this.probe = options.probePerAnswer ?? 1.002;
    this.liftAtGrowth = options.liftAtGrowth ?? 8;
    this.liftAfterMs = options.liftAfterMs ?? 30_000;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? sleep;
  }

  /** The adaptive rate in force now (requests per second), `Infinity` when unlimited. */
  currentRate(at = this.now()): number {
    if (this.baseRate === Infinity) return Infinity;
    const since = at - this.lastSlowdown;
    const growth = Math.pow(this.recovery, since / 1000) * this.answerGrowth;
    if (since >= this.liftAfterMs || growth >= this.liftAtGrowth) {
      this.baseRate = Infinity;
      return Infinity;
    }
    return this.baseRate * growth;
  }

  state(): PacerState {
    const at = this.now();
    return { rate: this.currentRate(at), slowdowns: this.slowdowns, pausedForMs: Math.max(0, this.pausedUntil - at), learnedRate: this.learned };
  }

  /**
   * Resolves when a request may start, with its start time (pass it to `onResponse`). Free of
   * timers on the common path: no pushback, no cap and nobody waiting.
   */
  async take(): Promise<number> {
    if (this.cap) await this.cap.take();
    const at = this.now();
    if (this.waiting === 0 && this.pausedUntil <= at && this.currentRate(at) === Infinity) {
      this.sent.push(at);
      return at;
    }
    // Paced: one waiter at a time is released, in call order (`release`).
    this.waiting += 1;
    const turn = this.queue.then(() => this.release());
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    try {
      const started = await turn;
      this.sent.push(started);
      return started;
    } finally {
      this.waiting -= 1;
    }
  }

  /**
   * Waits for the next send the pace allows and returns its time. Each send's time is decided when
   * the one before it has gone, from the clock then, not handed out in advance: a process that was
   * busy (or descheduled) past several slots sends at most two at once when it wakes, not every
   * request that was waiting. Requests handed their slots in advance all woke together after such
   * a stall and reached the server as one burst, which a server with a small burst refused even
   * though the pace was below its limit, and each refusal lowered the pace (issue #35).
   */
  private async release(): Promise<number> {
    for (;;) {
      const at = this.now();
      const paused = this.pausedUntil - at;
      if (paused > 0) {
        await this.sleep(Math.ceil(paused));
        continue;
      }
      const rate = this.currentRate(at);
      if (rate === Infinity) return at;
      const interval = 1000 / rate;
      // At most one slot missed while nobody was sending is still used: a burst of two, never more.
      const slot = Math.max(this.nextSlot, at - interval);
      if (slot <= at) {
        this.nextSlot = slot + interval;
        return at;
      }
      // The rate may change while this waits (an answer wins some back, a refusal lowers it): looked at again.
      await this.sleep(Math.ceil(slot - at));
    }
  }

  /**
   * Tells the pacer how a request ended. `pushback` is true for 429 (and 503 with `Retry-After`);
   * `retryAfterMs` pauses every request of the family that long when the server let nothing
   * through over the last second (otherwise only the refused request waits it, in its retry).
   */
  onResponse(sentAt: number, pushback: boolean, retryAfterMs?: number): void {
    const at = this.now();
    if (!pushback) {
      this.accepted.push(at);
      // Only answers to requests sent at the lowered rate count towards recovery: quickly back up
      // to the limit learned, slowly past it.
      if (this.baseRate !== Infinity && sentAt >= this.lastSlowdown) {
        const rate = this.currentRate(at);
        if (rate !== Infinity) this.answerGrowth *= this.learned === 0 || rate < this.learned ? this.perAnswer : this.probe;
      }
      return;
    }
    const letThrough = this.accepted.rate(at);
    if (letThrough === 0 && retryAfterMs !== undefined && retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, at + retryAfterMs);
    // Requests already in flight at the last slowdown were sent at the old rate: one decrease per round.
    if (sentAt < this.lastSlowdown) return;
    // The server still lets requests through: that rate is its limit, and the pace goes just below
    // it. Half of what was being sent is the floor: over a short span (the run's first answers, a
    // server with no burst) the rate let through says little, and a burst far past the limit comes
    // down in a few rounds. It lets none through: half of what was being sent.
    // What was being sent is measured up to the refused request's own start: a client whose answers
    // are handled late (a busy event loop, a long answer being read) would otherwise count the
    // time it spent busy as time sending nothing, and learn a pace far below the server's.
    const current = this.currentRate(at);
    const sentRate = this.sent.rate(sentAt);
    if (current !== Infinity && letThrough >= LET_THROUGH_MOST * sentRate) {
      // A pace is in force and the server let through most of what was sent: the pace is about
      // its limit, and this refusal came from sends bunched up (this process or the server busy
      // for a moment), not from a rate far past the limit. The pace is lowered from itself, and
      // what a second with a pause in it let through is not taken for the limit: learned that way,
      // one busy moment held the client at half a 50 requests/s server's pace (issue #35). The
      // limit learned stays (or is first learned here); the pace wins it back at 1 % an answer.
      this.learned = Math.max(letThrough, this.learned);
      this.baseRate = Math.max(this.minRate, current * this.decrease);
    } else {
      const from = Math.max(letThrough * this.decrease, sentRate / 2, this.minRate);
      // Learned only when it is what sets the pace: the run's first answers (one profile let
      // through before the first burst) say nothing of the limit, and a limit learned from them
      // held the pace's recovery to the probe's 0.2 % an answer (issue #35).
      if (letThrough > 0 && letThrough * this.decrease >= sentRate / 2) this.learned = letThrough;
      this.baseRate = Math.max(this.minRate, Math.min(current, from));
    }
    this.lastSlowdown = at;
    this.answerGrowth = 1;
    this.nextSlot = Math.max(this.nextSlot, at);
    this.slowdowns += 1;
  }
}
