/** Shared CLI plumbing: exit codes as values, errors printed without stack traces, progress lines that never follow them. */
import { writeErrorText } from "./color";

/** Thrown by a command to end with an exit code after it printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Commands running (`demo` runs the others inside itself), and whether the outermost has ended. */
const run = { depth: 0, over: false };

/** A command starts (`main`); returns the function that ends it. */
export function startRun(): () => void {
  run.depth += 1;
  run.over = false;
  return () => {
    run.depth -= 1;
    // The outermost command has said its last word: anything still retrying is no longer awaited.
    if (run.depth <= 0) run.over = true;
  };
}

/**
 * A progress line on stderr (a retry notice), dropped once the run has ended or printed its final
 * error: the other requests of a failed run may still be retrying in the background, and a line
 * "attempt 5 of 5" after "Error: …" reads as if the run went on.
 */
export function progressLine(line: string): void {
  if (!run.over) process.stderr.write(line);
}

/** Print an error for a person: its message only, never a stack trace (docs/CONTRACT.md "No stack traces"). */
export function reportError(err: unknown): void {
  // The outermost command's final word: no progress line may follow it.
  if (run.depth <= 1) run.over = true;
  // One plain sentence: not Node's or OpenSSL's internals (src/kit/change/error-text.ts), loaded
  // only when a command fails (main.ts loads this module for --version and --help too).
  const { describeError } = require("../kit/change/error-text") as typeof import("../kit/change/error-text");
  writeErrorText(`Error: ${describeError(err)}\n`);
}
