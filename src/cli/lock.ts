/**
 * `apply --lock-file PATH`: an advisory lock against two applies at once from one machine or a
 * shared disk (two runs at once each send every write: issue #36 saw 176 PATCHes for 88 changes).
 * The lock is a file created whole and exclusively (linked into place) holding who took it; it is removed when the apply
 * ends, however it ends. A second apply finds it and stops before any request, naming the holder. A
 * lock whose holder is gone (same host, no such process) is stale: it is taken over, saying so.
 * Advisory: only runs given the same PATH respect it. Pipelines serialise applies with their own
 * means (GitHub `concurrency:`, GitLab `resource_group`: examples/ci/), which this complements.
 */
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
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

/**
 * Creates the lock holding `holder`, or returns false when it exists. The holder is written into a
 * file of this run's first and linked to `path` (link fails when `path` exists), so another run
 * never reads the lock half-written: created empty and then written (O_EXCL), a second apply
 * started in the same instant read it empty and named "another run" instead of the holder. Where
 * the file system has no hard links, the lock is created exclusively and then written, as before.
 */
function create(path: string, holder: Holder): boolean {
  const text = JSON.stringify(holder) + "\n";
  const own = `${path}.${hostname()}.${process.pid}.tmp`;
  try {
    writeFileSync(own, text, { mode: 0o644, flag: "w" });
    linkSync(own, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") cannotCreate(path, err);
  } finally {
    try {
      unlinkSync(own);
    } catch {
      // not written
    }
  }
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    cannotCreate(path, err);
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function cannotCreate(path: string, err: unknown): never {
  process.stderr.write(`Error: cannot create the lock file ${path} (--lock-file): ${(err as Error).message}; nothing was applied.\n`);
  throw new CliExit(1);
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
