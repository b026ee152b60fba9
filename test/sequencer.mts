/**
 * The order test files start in (vitest `sequence.sequencer`): the longest first, so the run does not
 * end with one long file alone (docs/SPEED.md), but not all the files that mostly wait at once.
 *
 * A file's length is its duration in vitest's cache of the last run on this machine
 * (node_modules/.vite/vitest), or else its measured duration in SLOW below (seconds, two files at a
 * time on the 2-core machine), or else its size in bytes / 1,000 (a new file runs early rather than
 * late). Update SLOW when `.ci/run`'s ten slowest files change much.
 *
 * A file's CPU-s (with the processes it waited for) from the last run that ran it are in
 * .tmp/file-cpu.json (test/global-setup.ts writes them). With them, the order follows the pool as it
 * would run: while the files running would keep fewer than the cores busy, the next to start is
 * the longest of those that compute (busy half their time or more), else the longest of those that
 * wait. Without the
 * pairing, the quick loop started its longest files together, most of them waiting on timers and
 * CLI processes, and the cores were a third idle over its first minute.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SLOW: Record<string, number> = {
  "test/pulumi/engine.test.ts": 455,
  "test/gitops/ci-examples-gitlab.test.ts": 213,
  "test/gitops/ci-examples-github.test.ts": 125,
  "test/install/consumer-repo.test.ts": 89,
  "test/pulumi/native-yaml.test.ts": 81,
  "test/pulumi/real-engine-idiomatic.test.ts": 75,
  "test/reliability/fault-matrix.test.ts": 72,
  "test/pulumi/real-engine-guards.test.ts": 63,
  "test/pulumi/real-engine-runs.test.ts": 56,
  "test/pulumi/real-engine.test.ts": 50,
  "test/pulumi/native-languages.test.ts": 49,
};

/** A file computes when it keeps a core busy at least this share of its time. */
const BUSY = 0.5;

interface Timed<T> {
  item: T;
  /** seconds */
  wall: number;
  /** cores kept busy on average (CPU-s / wall), when known */
  share?: number;
}

/**
 * The start order for `slots` files at a time on `cores` cores, by their lengths: while the files
 * started and not yet done keep fewer than `cores` busy, the longest of those that compute, else
 * the longest of those that wait (the longest of all when there is none of the kind asked). Files
 * of unknown share count as computing, so without shares the order is longest first.
 */
export function pairedOrder<T>(files: Timed<T>[], slots: number, cores: number): T[] {
  const left = [...files].sort((a, b) => b.wall - a.wall);
  const running: { end: number; share: number }[] = [];
  const order: T[] = [];
  let now = 0;
  while (left.length > 0) {
    if (running.length >= slots) {
      running.sort((a, b) => a.end - b.end);
      now = running.shift()!.end;
      continue;
    }
    // Below the cores: the longest that computes; at them: the longest that waits, keeping the
    // computing ones for when the cores would idle. Either, when there is no such file left.
    const demand = running.reduce((n, r) => n + r.share, 0);
    const computes = demand < cores;
    const at = Math.max(0, left.findIndex((f) => (f.share ?? 1) >= BUSY === computes));
    const [next] = left.splice(at, 1);
    running.push({ end: now + next!.wall, share: next!.share ?? 1 });
    order.push(next!.item);
  }
  return order;
}

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    let cpu: Record<string, number> = {};
    try {
      cpu = JSON.parse(readFileSync(join(root, ".tmp", "file-cpu.json"), "utf8")) as Record<string, number>;
    } catch {
      // no run has written it yet: longest first
    }
    const timed = files.map((spec): Timed<TestSpecification> => {
      const file = relative(root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      const wall =
        cached && !cached.failed && cached.duration > 0 ? cached.duration / 1000 : SLOW[file] !== undefined ? SLOW[file]! : (this.ctx.cache.getFileStats(key)?.size ?? 0) / 1000;
      return { item: spec, wall, share: cpu[file] !== undefined && wall > 0 ? cpu[file]! / wall : undefined };
    });
    const slots = Number(this.ctx.config.maxWorkers) || 1;
    return pairedOrder(timed, slots, Math.max(2, availableParallelism()));
  }
}
