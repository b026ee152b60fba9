/**
 * HPACK as the plugin's gRPC server reads and writes it (src/pulumi/plugin/hpack.ts), held to RFC
 * 7541's own examples (Appendix C: request and response series, with and without Huffman coding,
 * a 256-byte table whose evictions the later blocks depend on), and the Huffman code derived from
 * its lengths checked both ways on any bytes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeHeaders, HpackDecoder, HpackError, huffmanCode, huffmanDecode } from "../../src/pulumi/plugin/hpack";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

/** A series of header blocks on one connection, each with the fields it decodes to (RFC 7541 Appendix C). */
function series(limit: number, blocks: Array<[string, Array<[string, string]>]>): void {
  const decoder = new HpackDecoder(limit);
  for (const [block, fields] of blocks) expect(decoder.decode(hex(block))).toEqual(fields);
}

const request1: Array<[string, string]> = [
  [":method", "GET"],
  [":scheme", "http"],
  [":path", "/"],
  [":authority", "www.example.com"],
];
const request2: Array<[string, string]> = [...request1, ["cache-control", "no-cache"]];
const request3: Array<[string, string]> = [
  [":method", "GET"],
  [":scheme", "https"],
  [":path", "/index.html"],
  [":authority", "www.example.com"],
  ["custom-key", "custom-value"],
];
const response1: Array<[string, string]> = [
  [":status", "302"],
  ["cache-control", "private"],
  ["date", "Mon, 21 Oct 2013 20:13:21 GMT"],
  ["location", "https://www.example.com"],
];
const response2: Array<[string, string]> = [[":status", "307"], ...response1.slice(1)];
const response3: Array<[string, string]> = [
  [":status", "200"],
  ["cache-control", "private"],
  ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
  ["location", "https://www.example.com"],
  ["content-encoding", "gzip"],
  ["set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"],
];

/** Huffman-codes `s` with the code the decoder uses (the RFC's vectors hold that code to the RFC). */
function huffmanEncode(bytes: Uint8Array): Buffer {
  const { codes, lengths } = huffmanCode();
  const out: number[] = [];
  let acc = 0n;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << BigInt(lengths[b])) | BigInt(codes[b]);
    bits += lengths[b];
    while (bits >= 8) {
      bits -= 8;
      out.push(Number((acc >> BigInt(bits)) & 0xffn));
    }
  }
  // Padded with the EOS code's first bits: all ones.
  if (bits > 0) out.push(Number(((acc << BigInt(8 - bits)) | ((1n << BigInt(8 - bits)) - 1n)) & 0xffn));
  return Buffer.from(out);
}

describe("HPACK, against RFC 7541's examples", () => {
  it("decodes the request series without Huffman coding (C.3), the table carried from block to block", () => {
    series(4096, [
      ["8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", request1],
      ["8286 84be 5808 6e6f 2d63 6163 6865", request2],
      ["8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65", request3],
    ]);
  });

  it("decodes the request series with Huffman coding (C.4)", () => {
    series(4096, [
      ["8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", request1],
      ["8286 84be 5886 a8eb 1064 9cbf", request2],
      ["8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", request3],
    ]);
  });

  it("decodes the response series in a 256-byte table, whose evictions the later blocks refer past (C.5)", () => {
    series(256, [
      [
        "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        response1,
      ],
      ["4803 3330 37c1 c0bf", response2],
      [
        "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
        response3,
      ],
    ]);
  });

  it("decodes the same responses Huffman-coded (C.6)", () => {
    series(256, [
      ["4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3", response1],
      ["4883 640e ffc1 c0bf", response2],
      [
        "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
        response3,
      ],
    ]);
  });

  it("decodes never-indexed literals and a table size update (C.2.3, §6.3), and refuses what breaks the rules", () => {
    expect(new HpackDecoder().decode(hex("1008 7061 7373 776f 7264 0673 6563 7265 74"))).toEqual([["password", "secret"]]);
    // A size update to 0 empties the table: the entry added before it is gone.
    const d = new HpackDecoder();
    d.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
    expect(d.decode(hex("be"))).toEqual([["custom-key", "custom-header"]]);
    expect(() => d.decode(hex("20 be"))).toThrow(HpackError);
    // Over what this side announced (4096), after a field, an index not in the table, a cut block.
    expect(() => new HpackDecoder().decode(hex("3fe2 1f"))).toThrow(/exceeds the 4096 announced/);
    expect(() => new HpackDecoder().decode(hex("82 20"))).toThrow(/follows a header field/);
    expect(() => new HpackDecoder().decode(hex("80"))).toThrow(/index 0/);
    expect(() => new HpackDecoder().decode(hex("be"))).toThrow(/index 62/);
    expect(() => new HpackDecoder().decode(hex("400a 6375"))).toThrow(/ends inside a string/);
  });
});

describe("the Huffman code", () => {
  it("decodes whatever it encodes, every byte value, padded with EOS's first bits", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const coded = huffmanEncode(bytes);
        expect(huffmanDecode(coded, 0, coded.length)).toBe(Buffer.from(bytes).toString("latin1"));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses padding of other than ones, padding of 8 bits or more, and the EOS symbol", () => {
    // "a" is 00011 (5 bits): padded with 111 it is 0x1f; with 110, 0x1e.
    expect(huffmanDecode(Buffer.from([0x1f]), 0, 1)).toBe("a");
    expect(() => huffmanDecode(Buffer.from([0x1e]), 0, 1)).toThrow(HpackError);
    expect(() => huffmanDecode(Buffer.from([0x1f, 0xff]), 0, 2)).toThrow(HpackError);
    expect(() => huffmanDecode(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4)).toThrow(/EOS/);
  });
});

describe("the encoder", () => {
  it("writes literals without indexing that a decoder reads back, leaving its table empty", () => {
    const fields: Array<[string, string]> = [
      [":status", "200"],
      [":status", "415"],
      ["content-type", "application/grpc+proto"],
      ["grpc-status", "13"],
      ["grpc-message", `long ${"x".repeat(300)}`],
    ];
    const d = new HpackDecoder();
    expect(d.decode(encodeHeaders(fields))).toEqual(fields);
    expect(() => d.decode(hex("be"))).toThrow(/index 62/);
  });
});
