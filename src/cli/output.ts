/** Shared CLI plumbing: exit codes as values, and errors printed without stack traces. */
import { describeError } from "../kit/change/error-text";

/** Thrown by a command to end with an exit code after it printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Print an error for a person: its message only, never a stack trace (docs/CONTRACT.md "No stack traces"). */
export function reportError(err: unknown): void {
  // One plain sentence: not Node's or OpenSSL's internals (src/kit/change/error-text.ts).
  process.stderr.write(`Error: ${describeError(err)}\n`);
}
