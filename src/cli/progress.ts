/**
 * Progress while `plan` and `export` read a large account: a bar on standard error, on a terminal
 * only (a pipeline's log gets none), counting listing pages read out of the pages the listings
 * claim (the client's `onPage`, src/client/pagination.ts). It appears only once the listings claim
 * at least {@link PROGRESS_MIN_PAGES} pages — a small account reads in a blink — and is cleared
 * before anything else is printed (`stop`).
 */
import type { SingleBar } from "cli-progress";
import type { PageRead } from "../client";

/** Fewer pages claimed than this: no bar. */
export const PROGRESS_MIN_PAGES = 10;

export interface ReadProgress {
  /** For the client's `onPage`; undefined when no bar can show (not a terminal). */
  readonly onPage?: (read: PageRead) => void;
  /** Clears the bar (call before printing anything). */
  stop(): void;
}

/** cli-progress's bar (and its width tables), loaded when a bar first shows: a pipeline, where none can, never loads it. */
export function progressBar(): typeof SingleBar {
  return (require("cli-progress") as typeof import("cli-progress")).SingleBar;
}

/** No bar. */
export const NO_PROGRESS: ReadProgress = { stop: () => undefined };

/** A bar labelled `label` on stderr when it is a terminal; a no-op otherwise. */
export function readProgress(label: string, stream: NodeJS.WriteStream = process.stderr): ReadProgress {
  if (!stream.isTTY) return NO_PROGRESS;
  let bar: SingleBar | undefined;
  let stopped = false;
  let read = 0;
  let total = 0;
  return {
    onPage(r) {
      if (stopped) return;
      read++;
      // A listing's first page says how many it has; one that claims nothing counts as it goes.
      if (r.page === 1) total += r.pages ?? 1;
      else if (r.pages === undefined) total++;
      if (!bar && total >= PROGRESS_MIN_PAGES) {
        bar = new (progressBar())({ format: `${label} [{bar}] {value}/{total} pages`, stream, clearOnComplete: true, hideCursor: false });
        bar.start(total, read);
      }
      if (bar) {
        bar.setTotal(Math.max(total, read));
        bar.update(read);
      }
    },
    stop() {
      stopped = true;
      bar?.stop();
      bar = undefined;
    },
  };
}
