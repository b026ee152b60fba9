import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join, basename } from "node:path";

/** Write a file so that a reader never sees half of it: a temporary file, then a rename. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(tmp, text, { mode: 0o644 });
  await rename(tmp, file);
}
