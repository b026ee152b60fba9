import { randomBytes } from "node:crypto";
import { mkdir, open, rename, stat, unlink, writeFile } from "node:fs/promises";
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
async function isSpecial(file: string): Promise<boolean> {
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
  if (await isSpecial(file)) {
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
  if (await isSpecial(file)) {
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
  await mkdir(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(tmp, "w", 0o644);
  try {
    try {
      await produce(async (chunk) => {
        await (typeof chunk === "string" ? handle.write(chunk) : handle.write(chunk));
      });
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw naming(err, file);
  }
}
