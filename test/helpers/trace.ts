/**
 * With `WAVIX_PULUMI_TRACE=FILE`, every Pulumi CLI command (test/helpers/real-pulumi.ts) and every
 * OpenTofu command (test/helpers/real-tofu.ts) is run under `/usr/bin/time` and one JSON line is
 * appended to FILE: the test, the command (`tofu plan` for OpenTofu, `up` for Pulumi), its wall
 * time and the CPU seconds of the CLI and of every process it started and waited for (language
 * host, program, provider plugins) — where a real-engine test's time goes (docs/SPEED.md).
 * `scripts/pulumi-trace.js FILE` sums it.
 */
import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const TRACE = process.env.WAVIX_PULUMI_TRACE;

/** `cmd args` as spawned (under /usr/bin/time when tracing), and `done(wall ms)` to call once it has exited. `label` prefixes the command's name in the trace. */
export function traced(cmd: string, args: string[], label = ""): { cmd: string; args: string[]; done(wall: number): void } {
  if (!TRACE || !existsSync("/usr/bin/time")) return { cmd, args, done: () => undefined };
  const out = path.join(tmpdir(), `wavix-cli-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  // The running test, from vitest's expect state (a global; the bench runs this helper without vitest).
  const state = (globalThis as Record<symbol, { state?: { testPath?: string; currentTestName?: string } } | undefined>)[Symbol.for("$$jest-matchers-object")]?.state;
  const test = state ? `${path.relative(ROOT, state.testPath ?? "")} > ${state.currentTestName ?? ""}` : "";
  return {
    cmd: "/usr/bin/time",
    args: ["-f", "%U %S", "-o", out, cmd, ...args],
    done(wall) {
      let user = NaN;
      let sys = NaN;
      try {
        const last = readFileSync(out, "utf8").trim().split("\n").pop() ?? "";
        [user, sys] = last.split(" ").map(Number) as [number, number];
        rmSync(out, { force: true });
      } catch {
        // killed before time wrote it
      }
      const lead = args.findIndex((a) => a.startsWith("-"));
      const command = [label, ...args.slice(0, Math.min(2, lead < 0 ? args.length : lead))].filter(Boolean).join(" ");
      appendFileSync(TRACE, JSON.stringify({ test, command, args: args.join(" "), wall: Math.round(wall) / 1000, user, sys }) + "\n");
    },
  };
}
