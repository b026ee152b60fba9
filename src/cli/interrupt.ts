/**
 * Ctrl-C during apply (issue #14). The first one stops the run from starting new writes and lets
 * the ones in flight finish, so the account is never left with a write whose outcome nobody
 * reports; apply then prints what was done and what was not and exits 130 (128 + SIGINT, what a
 * shell reports for a process ended by Ctrl-C). A second one exits at once. Either way the
 * terminal is restored first (the progress bar turns line wrapping and the cursor off).
 */

/** Exit code of a run ended by Ctrl-C: 128 + SIGINT (2), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

/** Line wrapping and cursor back on: what a progress bar may have turned off. */
export const RESTORE_TERMINAL = "\x1b[?7h\x1b[?25h";

export interface InterruptOptions {
  /** Put the terminal back (stop the progress bar); called before anything is printed. */
  readonly restore: () => void;
  /** Standard error, where the notices go. @default process.stderr */
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** An interrupt scope: `signal` aborts on the first Ctrl-C; `dispose` removes the handler. */
export interface InterruptScope {
  readonly signal: AbortSignal;
  dispose(): void;
}

export function handleInterrupts(options: InterruptOptions): InterruptScope {
  const stderr = options.stderr ?? process.stderr;
  const controller = new AbortController();
  const restore = () => {
    options.restore();
    if (stderr.isTTY) stderr.write(RESTORE_TERMINAL);
  };
  const onSigint = () => {
    if (!controller.signal.aborted) {
      restore();
      stderr.write(
        "\nInterrupted: starting no new writes; letting the ones in flight finish, then reporting what was done. " +
          "Press Ctrl-C again to stop at once.\n",
      );
      controller.abort();
      return;
    }
    restore();
    stderr.write("\nStopped at once: writes that were in flight may or may not have landed; run plan to see where the account stands.\n");
    process.exit(INTERRUPTED_EXIT_CODE);
  };
  process.on("SIGINT", onSigint);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSigint);
    },
  };
}
