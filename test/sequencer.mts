/**
 * The order test files start in (vitest `sequence.sequencer`): the longest first, so that with two
 * files at a time the run does not end with one long file alone (docs/SPEED.md).
 *
 * A file's weight is its duration in vitest's cache of the last run on this machine
 * (node_modules/.vite/vitest), or else its measured duration in SLOW below (seconds, two files at a
 * time on the 2-core machine), or else its size in bytes / 1,000 (a new file runs early rather than
 * late). Update SLOW when `.ci/run`'s ten slowest files change much.
 */
import { relative } from "node:path";
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

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      if (cached && !cached.failed && cached.duration > 0) return cached.duration / 1000;
      if (SLOW[file] !== undefined) return SLOW[file]!;
      return (this.ctx.cache.getFileStats(key)?.size ?? 0) / 1000;
    };
    const weights = new Map(files.map((f) => [f, weight(f)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}
