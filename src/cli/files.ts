import { randomBytes } from "node:crypto";
import { mkdir, open, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write a file so that a reader never sees half of it: a temporary file beside the target (so the
 * rename never crosses a filesystem), then a rename. The temporary file is removed when the write
 * fails; its name is unique per call, so concurrent writes of one target do not collide.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o644 });
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * `writeFileAtomic` for text produced in chunks (e.g. `export` of a large account): the chunks go
 * to the temporary file as `produce` hands them over, and the target appears only when `produce`
 * has finished; when it throws, the temporary file is removed and the target is left as it was.
 */
export async function writeFileAtomicStream(file: string, produce: (write: (chunk: string) => Promise<void>) => Promise<void>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(tmp, "w", 0o644);
  try {
    try {
      await produce(async (chunk) => {
        await handle.write(chunk);
      });
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
