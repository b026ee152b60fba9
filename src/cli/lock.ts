/**
 * `apply --lock-file PATH`: an advisory lock against two applies at once from one machine or a
 * shared disk (two runs at once each send every write: issue #36 saw 176 PATCHes for 88 changes).
 * The lock is a file created exclusively (O_EXCL) holding who took it; it is removed when the apply
 * ends, however it ends. A second apply finds it and stops before any request, naming the holder. A
 * lock whose holder is gone (same host, no such process) is stale: it is taken over, saying so.
 * Advisory: only runs given the same PATH respect it. Pipelines serialise applies with their own
 * means (GitHub `concurrency:`, GitLab `resource_group`: examples/ci/), which this complements.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { CliExit } from "./output";

/** What the lock file holds (JSON): never a secret. */
interface Holder {
  pid: number;
  host: string;
  started_at: string;
  command: string;
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>;
    return typeof h.pid === "number" && typeof h.host === "string" ? (h as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder is certainly gone: on this host, and no process has its pid. */
function gone(h: Holder): boolean {
  if (h.host !== hostname()) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function create(path: string, holder: Holder): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    process.stderr.write(`Error: cannot create the lock file ${path} (--lock-file): ${(err as Error).message}; nothing was applied.\n`);
    throw new CliExit(1);
  }
  try {
    writeSync(fd, JSON.stringify(holder) + "\n");
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock at `path` for `command`, or stops the run (exit 1, one line naming the holder).
 * Returns the release, which removes the file only while it is still this run's.
 */
export function acquireLock(path: string, command: string): () => void {
  const me: Holder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), command };
  let taken = create(path, me);
  const holder = taken ? undefined : readHolder(path);
  if (holder && gone(holder)) {
    process.stderr.write(`Warning: the lock file ${path} was left by ${holder.command} (pid ${holder.pid}, since ${holder.started_at}), which is no longer running: taking it over.\n`);
    try {
      unlinkSync(path);
    } catch {
      // Another run took it over first: create() below then finds its lock.
    }
    taken = create(path, me);
  }
  if (!taken) {
    const now = readHolder(path);
    const who = now
      ? `${now.command} (pid ${now.pid} on ${now.host}, since ${now.started_at})`
      : "another run (its lock file cannot be read)";
    process.stderr.write(
      `Error: ${path} is locked by ${who}: two applies at once would each send every write. Wait for it to end and run again; ` +
        `if no such run exists any more, remove ${path}. Nothing was applied.\n`,
    );
    throw new CliExit(1);
  }
  const done = release(path, me);
  // An exit that skips `finally` (process.exit elsewhere) still lets the lock go.
  process.once("exit", done);
  return done;
}

function release(path: string, me: Holder): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const h = readHolder(path);
    if (h && h.pid === me.pid && h.started_at === me.started_at) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    }
  };
}
