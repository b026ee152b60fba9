import { randomBytes } from "node:crypto";
import { mkdir, open, rename, stat, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write a file so that a reader never sees half of it: a temporary file beside the target (so the
 * rename never crosses a filesystem), then a rename. The temporary file is removed when the write
 * fails; its name is unique per call, so concurrent writes of one target do not collide.
 */
/**
 * True when `file` exists and is not a regular file or a folder: a device (`/dev/full`,
 * `/dev/stdout`) or a pipe. Such a target is written in place: a rename would replace the device
 * itself with a regular file (as root, /dev/full would stop being the device).
 */
export async function isSpecialFile(file: string): Promise<boolean> {
  const s = await stat(file).catch(() => undefined);
  return s !== undefined && !s.isFile() && !s.isDirectory();
}

/** A write error names the file the person gave (a FileHandle's errors name none). */
function naming(err: unknown, file: string): unknown {
  if (err instanceof Error && (err as NodeJS.ErrnoException).code !== undefined) {
    const e = err as NodeJS.ErrnoException & { dest?: string };
    if (e.dest === undefined) e.path = file;
  }
  return err;
}

export async function writeFileAtomic(file: string, text: string | Uint8Array): Promise<void> {
  if (await isSpecialFile(file)) {
    await writeFile(file, text).catch((err: unknown) => Promise.reject(naming(err, file)));
    return;
  }
  await mkdir(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o644 });
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw naming(err, file);
  }
}

/**
 * `writeFileAtomic` for text produced in chunks (e.g. `export` of a large account): the chunks go
 * to the temporary file as `produce` hands them over, and the target appears only when `produce`
 * has finished; when it throws, the temporary file is removed and the target is left as it was.
 */
export async function writeFileAtomicStream(file: string, produce: (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  if (await isSpecialFile(file)) {
    const device = await open(file, "w");
    try {
      await produce(async (chunk) => {
        await (typeof chunk === "string" ? device.write(chunk) : device.write(chunk));
      });
    } catch (err) {
      throw naming(err, file);
    } finally {
      await device.close().catch(() => undefined);
    }
    return;
  }
  const staged = await StagedFile.open(file);
  try {
    await produce((chunk) => staged.write(chunk));
    await staged.commit();
  } catch (err) {
    await staged.discard();
    throw naming(err, file);
  }
}

/**
 * A file written now and put in place later (`audit --out` writes its sessions' tables while the
 * last requests are out, and renames them with the other reports): its temporary file beside the
 * target, renamed by {@link commit}, removed by {@link discard}. Not for a device or a pipe
 * ({@link isSpecialFile}): write those in place.
 */
export class StagedFile {
  private closed = false;
  private constructor(
    /** The target. */
    readonly file: string,
    /** The temporary file beside it. */
    readonly tmp: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(file: string): Promise<StagedFile> {
    // As the callers' messages expect: a folder that cannot be made is named by mkdir itself.
    await mkdir(dirname(file), { recursive: true });
    const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const handle = await open(tmp, "w", 0o644);
    return new StagedFile(file, tmp, handle);
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    await (typeof chunk === "string" ? this.handle.write(chunk) : this.handle.write(chunk)).catch((err: unknown) => Promise.reject(naming(err, this.file)));
  }

  /** Closes the temporary file (idempotent); it can still be read, committed or discarded. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close().catch((err: unknown) => Promise.reject(naming(err, this.file)));
  }

  /** Puts the file in place (closing it first). */
  async commit(): Promise<void> {
    await this.close();
    await rename(this.tmp, this.file).catch((err: unknown) => Promise.reject(naming(err, this.file)));
  }

  /** Removes the temporary file (after a failure, or once read); never throws. */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    await unlink(this.tmp).catch(() => undefined);
  }
}
