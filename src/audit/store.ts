/**
 * Where a report's sessions wait between collection and rendering. In memory for the library
 * ({@link audit} returns them in the report); for the CLI, in memory up to {@link SPOOL_IN_MEMORY}
 * sessions and beyond that spooled to a temporary file, one JSON line per session, so a period
 * with 100,000 sessions never holds them all in memory: the renderers read them back, once per
 * file they write.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { AuditSession } from "./types";

/** The sessions of a report, in report order; can be read any number of times. */
export interface SessionSource extends AsyncIterable<AuditSession> {
  readonly count: number;
  /** The same sessions in arrays (a renderer's loop then takes no step per session). @default one array per session */
  batches?(): AsyncIterable<readonly AuditSession[]>;
}

/** Sessions read back from a spool's file per array. */
const READ_BATCH = 256;

/** The sessions of `source` in arrays, in order: its own {@link SessionSource.batches}, else one by one. */
export async function* sessionBatches(source: SessionSource): AsyncGenerator<readonly AuditSession[]> {
  if (source.batches) {
    yield* source.batches();
    return;
  }
  for await (const s of source) yield [s];
}

/** Receives the report's sessions in order while they are collected. */
export interface SessionSink {
  add(session: AuditSession): void | Promise<void>;
}

/** Sessions kept in an array. */
export class MemorySessions implements SessionSink, SessionSource {
  readonly sessions: AuditSession[] = [];
  get count(): number {
    return this.sessions.length;
  }
  add(session: AuditSession): void {
    this.sessions.push(session);
  }
  async *[Symbol.asyncIterator](): AsyncIterator<AuditSession> {
    yield* this.sessions;
  }
  async *batches(): AsyncGenerator<readonly AuditSession[]> {
    yield this.sessions;
  }
}

/** Characters of session lines gathered before one write to the spool. */
const SPOOL_CHUNK = 64 * 1024;

/**
 * Sessions a spool keeps in memory before it writes them to its file (a few MB): a report of this
 * many is read back from memory, never written out and parsed again once per file rendered; a
 * larger one is all in the file, and memory stays flat at any size.
 */
export const SPOOL_IN_MEMORY = 20_000;

/**
 * Sessions kept as they come, up to `inMemory` of them in memory, beyond that in a temporary file
 * (every one of them, in order); {@link dispose} removes the file.
 */
export class SpooledSessions implements SessionSink, SessionSource {
  private dir: string | undefined;
  private file: string | undefined;
  private out: WriteStream | undefined;
  private closed = false;
  private n = 0;
  /** Lines not yet handed to the file. */
  private pending = "";
  /** The sessions while there are at most `inMemory`; undefined once they went to the file. */
  private held: AuditSession[] | undefined = [];

  constructor(
    private readonly parent = tmpdir(),
    private readonly inMemory = SPOOL_IN_MEMORY,
  ) {}

  get count(): number {
    return this.n;
  }

  /**
   * Appends one session; the promise, when there is one, waits while the file lags behind (bounded
   * buffering). Lines are handed to the file some 64 KB at a time, rather than one write per session.
   */
  add(session: AuditSession): Promise<void> | undefined {
    if (this.closed) return Promise.reject(new Error("session spool already closed"));
    this.n += 1;
    if (this.held) {
      if (this.held.length < this.inMemory) {
        // Kept in memory: nothing to wait for (no promise for each of 20,000 sessions).
        this.held.push(session);
        return undefined;
      }
      // One more than memory keeps: every session so far goes to the file, in order.
      this.open();
      for (const s of this.held) this.pending += `${JSON.stringify(s)}\n`;
      this.held = undefined;
    }
    this.pending += `${JSON.stringify(session)}\n`;
    return this.pending.length >= SPOOL_CHUNK ? this.flush() : undefined;
  }

  private open(): void {
    this.dir = mkdtempSync(join(this.parent, "wavix-audit-"));
    this.file = join(this.dir, "sessions.ndjson");
    this.out = createWriteStream(this.file, { encoding: "utf8" });
    // A write error surfaces in add()/close(); never as an unhandled 'error' event.
    this.out.on("error", () => undefined);
  }

  /** Hands the pending lines to the file, waiting while it lags behind. */
  private async flush(): Promise<void> {
    const out = this.out;
    if (!out || this.pending === "") return;
    const chunk = this.pending;
    this.pending = "";
    if (!out.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => {
          out.off("drain", done);
          out.off("error", done);
          if (err) reject(err);
          else resolve();
        };
        out.once("drain", done);
        out.once("error", done);
      });
    }
  }

  /** Flushes the file; reading waits for it. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    const out = this.out;
    if (!out) return;
    this.out = undefined;
    await new Promise<void>((resolve, reject) => {
      out.once("error", reject);
      out.end(() => resolve());
    });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AuditSession> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** The sessions in arrays: those held in memory as one; from the file, some hundreds at a time. */
  async *batches(): AsyncGenerator<readonly AuditSession[]> {
    await this.close();
    if (this.held) {
      yield this.held;
      return;
    }
    const lines = createInterface({ input: createReadStream(this.file!, { encoding: "utf8" }), crlfDelay: Infinity });
    let batch: AuditSession[] = [];
    for await (const line of lines) {
      if (line === "") continue;
      batch.push(JSON.parse(line) as AuditSession);
      if (batch.length >= READ_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /** Drops the sessions and removes the temporary file (idempotent). */
  dispose(): void {
    this.closed = true;
    this.held = [];
    this.out?.destroy();
    this.out = undefined;
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * What Markdown and HTML show of the sessions: every one when there are at most `limit`, else the
 * first `limit` not verified (the ones a reviewer acts on). The rest are in the JSON and CSV.
 */
export interface SessionSample {
  sessions: AuditSession[];
  /** Sessions in the report. */
  total: number;
  /** What `sessions` holds: all of them, or only (some of) those not verified. */
  kind: "all" | "not_verified";
}

/** Default number of sessions Markdown and HTML list. */
export const SAMPLE_LIMIT = 100;

/** Keeps a {@link SessionSample} while sessions stream past (memory bounded by the limit). */
export class SampleCollector implements SessionSink {
  private readonly first: AuditSession[] = [];
  private readonly unverified: AuditSession[] = [];
  private total = 0;
  constructor(private readonly limit = SAMPLE_LIMIT) {}
  add(s: AuditSession): void {
    this.total += 1;
    if (this.first.length <= this.limit) this.first.push(s);
    if (!s.verified && this.unverified.length < this.limit) this.unverified.push(s);
  }
  sample(): SessionSample {
    return this.total <= this.limit
      ? { sessions: this.first.slice(0, this.total), total: this.total, kind: "all" }
      : { sessions: this.unverified, total: this.total, kind: "not_verified" };
  }
}

/** The sample of sessions held in memory. */
export function sampleOf(sessions: Iterable<AuditSession>, limit = SAMPLE_LIMIT): SessionSample {
  const c = new SampleCollector(limit);
  for (const s of sessions) c.add(s);
  return c.sample();
}
