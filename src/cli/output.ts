/** Shared CLI plumbing: exit codes as values, and errors printed without stack traces. */

/** Thrown by a command to end with an exit code after it printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Print an error for a person: its message only, never a stack trace (PRODUCT.md "No stack traces"). */
export function reportError(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`Error: ${message}\n`);
}
