/**
 * The bytes of the desired-state file before YAML sees them: a size cap, and strict UTF-8.
 *
 * Why strict: Node's "utf8" decoding turns a Latin-1 `é` into U+FFFD without a word, and a name
 * such as `Café` then becomes `Caf\uFFFD`, which plans a sub-account that can never match.
 * Why a cap: the YAML parser keeps every node with its position, about 70 times the file's size
 * in memory; a 300 MB file exhausts the heap with a native stack trace instead of a message.
 */

/**
 * Largest desired-state file read, in bytes (16 MiB): room for 100,000 numbers (the bench's
 * 100,000-number file is 8.4 MiB, about 90 bytes a number; one with URLs and several destinations
 * takes about 200). A valid file loads by the fast path (issue #15: 100,000 numbers in under a
 * second, about 250 MB); a file with problems is read again with positions, which at the cap
 * costs about 1 GB and tens of seconds (measured: 16 MB, 1.1 GB) — the reason for a cap at all.
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Where decoding stopped: 1-based line and column (in characters) of the first bad byte. */
export type DecodeResult = { ok: true; text: string } | { ok: false; line: number; col: number; message: string };

/** `16 MiB`, `300.0 MiB`, `1.2 KiB`: sizes in messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** The one-line message for a file over the cap. */
export function tooLargeMessage(size: number): string {
  return `the file is ${formatBytes(size)}, more than the ${formatBytes(MAX_CONFIG_BYTES)} a desired-state file may be`;
}

/**
 * Offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no
 * overlongs, no surrogates, nothing above U+10FFFF), or -1 when the whole buffer is valid.
 */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  const n = buf.length;
  while (i < n) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * The file's text, or where it stops being UTF-8. A UTF-8 byte-order mark is dropped; a UTF-16 or
 * UTF-32 one is named, since such a file is valid text in the wrong encoding.
 */
export function decodeConfigBytes(buf: Uint8Array): DecodeResult {
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) {
    return { ok: false, line: 1, col: 1, message: "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8" };
  }
  const bad = firstInvalidUtf8(buf);
  // YAML allows no raw control characters but tab, line feed and carriage return (YAML 1.2, 5.1);
  // a NUL inside a name would otherwise be sent to the API as is.
  const control = firstControl(buf, bad === -1 ? buf.length : bad);
  if (control !== -1) {
    const { line, col } = lineCol(buf, control);
    const code = `U+${buf[control].toString(16).toUpperCase().padStart(4, "0")}`;
    return { ok: false, line, col, message: `the file holds a control character (${code}) here; a YAML file is text: remove it, or write it as an escape inside double quotes` };
  }
  if (bad === -1) {
    const text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("utf8");
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  }
  const { line, col } = lineCol(buf, bad);
  const hex = buf[bad].toString(16).toUpperCase().padStart(2, "0");
  return {
    ok: false,
    line,
    col,
    message: `the file is not valid UTF-8: byte 0x${hex} here is not part of a UTF-8 character (is it Latin-1 or Windows-1252? save the file as UTF-8)`,
  };
}

/** First C0 control byte other than tab, LF and CR, or DEL, before `end`; -1 when none. */
function firstControl(buf: Uint8Array, end: number): number {
  for (let i = 0; i < end; i++) {
    const b = buf[i];
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) return i;
  }
  return -1;
}

/** 1-based line and column (in characters) of byte `offset`; the bytes before it are valid UTF-8. */
function lineCol(buf: Uint8Array, offset: number): { line: number; col: number } {
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (buf[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const before = Buffer.from(buf.buffer, buf.byteOffset + lineStart, offset - lineStart).toString("utf8");
  return { line, col: [...before].length + 1 };
}
