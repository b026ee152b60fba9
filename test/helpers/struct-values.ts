/**
 * fast-check arbitraries of what a protobuf Struct holds (google/protobuf/struct.proto): JSON values,
 * numbers as doubles, no undefined, no NaN (V8 does not keep a NaN's payload bits through every
 * path, so the bytes of one NaN may differ; any NaN reads as NaN). Shared by the tests that hold the
 * plugin's hand-written wire to google-protobuf's (test/pulumi/plugin-fast-*.test.ts).
 */
import fc from "fast-check";

/** Keys and values over `key` (default: any string); `struct` a Struct's top-level object. */
export function structArbitraries(key: fc.Arbitrary<string> = fc.string({ unit: "binary" })): { value: fc.Arbitrary<unknown>; struct: fc.Arbitrary<Record<string, unknown>> } {
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true }),
      fc.string({ unit: "binary" }),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(key, tie("v"), { maxKeys: 4 }),
    ),
  })).v;
  return { value, struct: fc.dictionary(key, value, { maxKeys: 6 }) };
}
