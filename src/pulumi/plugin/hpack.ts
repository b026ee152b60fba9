/**
 * HPACK, HTTP/2's header compression (RFC 7541), as much as the plugin's gRPC server needs
 * (src/pulumi/plugin/h2-server.ts): a whole decoder (indexed fields, literals with and without
 * indexing, dynamic table size updates, Huffman-coded strings: what the engine's Go client and
 * nghttp2 send), and an encoder that writes literals without indexing only, so that the peer's
 * dynamic table is never touched and nothing of ours has to track it.
 *
 * Tables from RFC 7541: the static table (Appendix A) and the Huffman code's lengths (Appendix B).
 * The code is canonical (each length's codes follow the shorter ones', in symbol order), so the
 * codes themselves follow from the lengths; test/pulumi/plugin-hpack.test.ts holds the result to
 * the RFC's examples (Appendix C).
 */

/** A header block could not be decoded: the connection's COMPRESSION_ERROR (RFC 7540 §4.3). */
export class HpackError extends Error {}

/** RFC 7541 Appendix A: index 1 to 61. */
const STATIC: ReadonlyArray<readonly [string, string]> = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

/** The static table's index of a header name (its first entry), for the encoder. */
const STATIC_NAME_INDEX: ReadonlyMap<string, number> = new Map([...STATIC.entries()].reverse().map(([i, [name]]) => [name, i + 1]));

/**
 * RFC 7541 Appendix B: the Huffman code's length in bits of each symbol 0-255, then EOS (256), one
 * base-36 digit each (5 to 30 bits).
 */
const HUFFMAN_LENGTHS =
  "dnsssssssoussussssssssusssssssss6aacd68baa8b8666555666666678f6ca" +
  "d67777777777777777777777878djde6f56565666577666567655677777fbeds" +
  "kmkkmmmnmnnnnnonoomnonnnnlmnmnnomlkmmnnlnmmolmnnllmlnmnnkmmmnmmn" +
  "qqkjmnmpqqqrrqopjlqrrqrollqqsrrrkoklmllnmmppooqnqrqqrrrrrsrrrrrq" +
  "u";

interface Canonical {
  /** By length: the first code of that length, and how many codes have it. */
  readonly first: Int32Array;
  readonly count: Int32Array;
  /** By length: where that length's symbols start in `symbols`. */
  readonly offset: Int32Array;
  /** The symbols in code order. */
  readonly symbols: Uint16Array;
  /** By symbol: its code and length (for the tests' encoder). */
  readonly codes: Uint32Array;
  readonly lengths: Uint8Array;
}

let canonical: Canonical | undefined;

/** The canonical Huffman code of RFC 7541 Appendix B, from its lengths. */
export function huffmanCode(): Canonical {
  if (canonical) return canonical;
  if (HUFFMAN_LENGTHS.length !== 257) throw new Error(`the Huffman table has ${HUFFMAN_LENGTHS.length} lengths, not 257`);
  const lengths = Uint8Array.from(HUFFMAN_LENGTHS, (c) => parseInt(c, 36));
  const order = [...lengths.keys()].sort((a, b) => lengths[a] - lengths[b] || a - b);
  const first = new Int32Array(31).fill(-1);
  const count = new Int32Array(31);
  const offset = new Int32Array(31);
  const codes = new Uint32Array(257);
  let code = 0;
  let len = lengths[order[0]];
  order.forEach((sym, i) => {
    code <<= lengths[sym] - len;
    len = lengths[sym];
    if (count[len] === 0) {
      first[len] = code;
      offset[len] = i;
    }
    count[len]++;
    codes[sym] = code;
    code++;
  });
  canonical = { first, count, offset, symbols: Uint16Array.from(order), codes, lengths };
  return canonical;
}

/** Decodes a Huffman-coded string (RFC 7541 §5.2): its padding must be the EOS code's first bits, under 8 of them. */
export function huffmanDecode(bytes: Uint8Array, start: number, end: number): string {
  const { first, count, offset, symbols } = huffmanCode();
  let out = "";
  let code = 0;
  let len = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    for (let bit = 7; bit >= 0; bit--) {
      code = (code << 1) | ((byte >> bit) & 1);
      len++;
      if (len >= 5 && count[len] > 0 && code - first[len] < count[len] && code >= first[len]) {
        const sym = symbols[offset[len] + code - first[len]];
        if (sym === 256) throw new HpackError("a Huffman-coded string holds the EOS symbol");
        out += String.fromCharCode(sym);
        code = 0;
        len = 0;
      } else if (len > 30) throw new HpackError("a Huffman-coded string holds a code longer than any symbol's");
    }
  }
  if (len > 7 || code !== (1 << len) - 1) throw new HpackError("a Huffman-coded string is padded with other than the EOS code's first bits");
  return out;
}

/** A decoder's state: its dynamic table (RFC 7541 §2.3.2), one per connection. */
export class HpackDecoder {
  /** Newest first: index 62 is `entries[0]`. */
  private entries: Array<readonly [string, string]> = [];
  private size = 0;
  private maxSize: number;

  /** `limit`: the SETTINGS_HEADER_TABLE_SIZE this side announced (RFC 7540's default, 4096, when it announced none). */
  constructor(private readonly limit = 4096) {
    this.maxSize = limit;
  }

  /** Decodes one whole header block into its fields, in order; `HpackError` when it is not valid HPACK. */
  decode(block: Uint8Array): Array<[string, string]> {
    const fields: Array<[string, string]> = [];
    const end = block.length;
    let pos = 0;
    let fieldSeen = false;
    // RFC 7541 §5.1: an integer of an N-bit prefix.
    const int = (prefix: number): number => {
      if (pos >= end) throw new HpackError("a header block ends inside an integer");
      const mask = (1 << prefix) - 1;
      let value = block[pos++] & mask;
      if (value < mask) return value;
      let shift = 0;
      for (;;) {
        if (pos >= end) throw new HpackError("a header block ends inside an integer");
        const b = block[pos++];
        value += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (value > 0x7fffffff) throw new HpackError("a header block holds an integer too large");
        if ((b & 0x80) === 0) return value;
      }
    };
    // RFC 7541 §5.2: a string literal, Huffman-coded or not.
    const str = (): string => {
      if (pos >= end) throw new HpackError("a header block ends before a string");
      const huffman = (block[pos] & 0x80) !== 0;
      const length = int(7);
      if (pos + length > end) throw new HpackError("a header block ends inside a string");
      const s = huffman ? huffmanDecode(block, pos, pos + length) : Buffer.from(block.buffer, block.byteOffset + pos, length).toString("latin1");
      pos += length;
      return s;
    };
    while (pos < end) {
      const b = block[pos];
      if (b & 0x80) {
        // §6.1 Indexed Header Field.
        fields.push([...this.field(int(7))]);
        fieldSeen = true;
      } else if (b & 0x40) {
        // §6.2.1 Literal with Incremental Indexing.
        const index = int(6);
        const name = index === 0 ? str() : this.field(index)[0];
        const value = str();
        fields.push([name, value]);
        this.add(name, value);
        fieldSeen = true;
      } else if (b & 0x20) {
        // §6.3 Dynamic Table Size Update: only before the block's first field, within what was announced.
        if (fieldSeen) throw new HpackError("a dynamic table size update follows a header field");
        const size = int(5);
        if (size > this.limit) throw new HpackError(`a dynamic table size update to ${size} exceeds the ${this.limit} announced`);
        this.maxSize = size;
        this.evict(0);
      } else {
        // §6.2.2 Literal without Indexing (0000), §6.2.3 Never Indexed (0001).
        const index = int(4);
        const name = index === 0 ? str() : this.field(index)[0];
        fields.push([name, str()]);
        fieldSeen = true;
      }
    }
    return fields;
  }

  private field(index: number): readonly [string, string] {
    if (index >= 1 && index <= STATIC.length) return STATIC[index - 1];
    const entry = this.entries[index - STATIC.length - 1];
    if (index === 0 || !entry) throw new HpackError(`a header block refers to index ${index}, which is not in the table`);
    return entry;
  }

  /** §4.4: an entry larger than the table empties it; otherwise the oldest make room. */
  private add(name: string, value: string): void {
    const size = name.length + value.length + 32;
    this.evict(size);
    if (size <= this.maxSize) {
      this.entries.unshift([name, value]);
      this.size += size;
    }
  }

  private evict(room: number): void {
    while (this.entries.length > 0 && this.size + room > this.maxSize) {
      const [n, v] = this.entries.pop()!;
      this.size -= n.length + v.length + 32;
    }
  }
}

/** §5.1: `value` as an integer of an N-bit prefix, the first byte's high bits `flags`. */
function encodeInt(out: number[], value: number, prefix: number, flags: number): void {
  const mask = (1 << prefix) - 1;
  if (value < mask) {
    out.push(flags | value);
    return;
  }
  out.push(flags | mask);
  value -= mask;
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}

/**
 * A header block of literals without indexing (§6.2.2), names from the static table where it has
 * them, strings not Huffman-coded; `:status 200` as its static entry. Values are sent as Latin-1
 * bytes: the caller gives ASCII (gRPC percent-encodes its messages).
 */
export function encodeHeaders(headers: ReadonlyArray<readonly [string, string]>): Buffer {
  const out: number[] = [];
  for (const [name, value] of headers) {
    if (name === ":status" && value === "200") {
      out.push(0x88);
      continue;
    }
    const index = STATIC_NAME_INDEX.get(name);
    if (index !== undefined) encodeInt(out, index, 4, 0x00);
    else {
      out.push(0x00);
      encodeInt(out, name.length, 7, 0x00);
      for (let i = 0; i < name.length; i++) out.push(name.charCodeAt(i) & 0xff);
    }
    encodeInt(out, value.length, 7, 0x00);
    for (let i = 0; i < value.length; i++) out.push(value.charCodeAt(i) & 0xff);
  }
  return Buffer.from(out);
}
