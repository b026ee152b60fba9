/**
 * `checkDesiredData` (src/config/load.ts): a document already in memory — a Pulumi resource's
 * args as one file entry — through the file's checks without writing it out and parsing it again
 * (the native plugin's Check runs it once per resource). Its referee is the text path it replaced,
 * `parseDesiredState(JSON.stringify(doc))`: the same state (positions aside: data in memory has
 * none) for good entries, the same problems, word for word, for bad ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkDesiredData, parseDesiredState, type LoadResult } from "../../src/config";

/** The state without item positions (the text path has them, data in memory does not). */
function positionFree(r: LoadResult): unknown {
  return JSON.parse(JSON.stringify(r), (k, v: unknown) => (k === "pos" ? undefined : v));
}

const url = fc.oneof(fc.constant("https://hooks.acme.example/a"), fc.constant("https://münchen.example/hook"), fc.constant("not a url"), fc.constant("https://"), fc.constant(null));
const destination = fc.record(
  {
    destination: fc.oneof(fc.constant("sip.acme.example"), fc.constant("15557654321"), fc.constant("")),
    transport: fc.oneof(fc.constant("sip"), fc.constant("pstn"), fc.constant("trunk"), fc.constant(1), fc.constant(4), fc.constant(5), fc.constant("fax")),
    priority: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant("1")),
    trunk_id: fc.oneof(fc.constant(144), fc.constant(null)),
  },
  { requiredKeys: ["destination", "transport"] },
);
const entry = fc.record(
  {
    number: fc.oneof(fc.constant("15551230001"), fc.constant("+15551230002"), fc.constant("abc"), fc.constant(15551230003)),
    sms_enabled: fc.oneof(fc.boolean(), fc.constant("yes")),
    sms_relay_url: url,
    call_status_url: url,
    transcription_threshold: fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constant(1.5)),
    destinations: fc.array(destination, { maxLength: 3 }),
    on_delete: fc.oneof(fc.constant("retain"), fc.constant("release"), fc.constant("keep")),
    api_key: fc.constant("k-123456789"),
    smsEnabled: fc.boolean(),
  },
  { requiredKeys: ["number"] },
);

describe("checkDesiredData agrees with parsing the same document as text", () => {
  it("for generated number entries, good and bad (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 2 }), (numbers) => {
        const doc = { version: 1, numbers };
        const before = JSON.stringify(doc);
        const got = checkDesiredData(doc, "PhoneNumber");
        expect(positionFree(got)).toEqual(positionFree(parseDesiredState(JSON.stringify(doc), "PhoneNumber")));
        // The checks rewrite URLs in place on a copy, never on the caller's document.
        expect(JSON.stringify(doc)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("names a bad entry's field as the file does", () => {
    const r = checkDesiredData({ version: 1, numbers: [{ number: "15551230001", sms_enabled: "yes" }] }, "PhoneNumber");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.path)).toEqual(["numbers[0].sms_enabled"]);
  });
});
