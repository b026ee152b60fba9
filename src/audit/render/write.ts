/** Output in pieces, for the renderers that stream (JSON, CSV). */

/** Takes one piece of text; may wait (a full pipe, a slow disk). */
export type Write = (chunk: string) => void | Promise<void>;

/** Pieces gathered until this many characters, so a report of 100,000 lines is not 100,000 writes. */
const CHUNK = 64 * 1024;

/** `write`, gathering small pieces; `flush` hands on what is left. */
export function buffered(write: Write): { write(chunk: string): Promise<void> | undefined; flush(): Promise<void> } {
  let parts: string[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (size === 0) return;
    const text = parts.join("");
    parts = [];
    size = 0;
    await write(text);
  };
  return {
    /** A promise only when the gathered pieces go out (and may have to wait): none per row. */
    write(chunk: string): Promise<void> | undefined {
      parts.push(chunk);
      size += chunk.length;
      return size >= CHUNK ? flush() : undefined;
    },
    flush,
  };
}
