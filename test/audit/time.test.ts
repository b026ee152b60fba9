import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normaliseTimestamp, parseTimestamp } from "../../src/audit/time";

describe("tolerant timestamps", () => {
  it.each([
    ["2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z"],
    ["2026-11-21T10:00:00", "2026-11-21T10:00:00Z"],
    ["2026-11-21 10:00:00", "2026-11-21T10:00:00Z"],
    ["2026-11-21T10:00:00.250", "2026-11-21T10:00:00.250Z"],
    ["2026-11-21T12:30:00+02:30", "2026-11-21T10:00:00Z"],
    ["2026-11-21T05:00:00-0500", "2026-11-21T10:00:00Z"],
    ["2026-11-21", "2026-11-21T00:00:00Z"],
    ["2026-11-21T10:00", "2026-11-21T10:00:00Z"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseTimestamp(input)).toBe(expected);
  });

  it.each(["", "yesterday", "2026-02-30T00:00:00Z", "2026-13-01", "2026-11-21T25:00:00Z"])("refuses %j", (input) => {
    expect(parseTimestamp(input)).toBeNull();
  });
});

describe("the API's own timestamp form, read without the regular expression", () => {
  // The general reading, as parseTimestamp read every text before: the answers must not change.
  const general = (text: string): number | null => parseTimestamp(` ${text}`);

  it("property: every instant of years 100–9999, written as the API writes it (with and without milliseconds), reads and normalises as the general reading does", () => {
    const min = Date.UTC(100, 0, 1);
    const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min, max }), fc.boolean(), (ms, whole) => {
        const t = whole ? Math.floor(ms / 1000) * 1000 : ms;
        const iso = new Date(t).toISOString();
        for (const text of [iso, iso.replace(/\.\d{3}Z$/, "Z")]) {
          expect(parseTimestamp(text)).toBe(general(text));
          expect(parseTimestamp(text)).toBe(Date.parse(text));
          const ms2 = general(text)!;
          const formatted = new Date(ms2).toISOString().replace(/\.000Z$/, "Z");
          expect(normaliseTimestamp(text)).toBe(formatted);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    "2026-02-30T00:00:00Z",
    "2026-02-29T00:00:00.000Z",
    "2026-13-01T00:00:00Z",
    "2026-11-21T24:00:00Z",
    "2026-11-21T10:60:00Z",
    "2026-11-21T10:00:60Z",
    "2026-00-10T10:00:00Z",
    "2026-11-00T10:00:00Z",
    "0099-11-21T10:00:00Z",
    "2026-1a-21T10:00:00Z",
    "2026-11-21T10:00:00.1aZ",
    "2026-11-21T10:00:00+0Z",
  ])("%s: the same answer as the general reading", (text) => {
    expect(parseTimestamp(text)).toBe(general(text));
    expect(normaliseTimestamp(text)).toBe(general(text) === null ? null : normaliseTimestamp(` ${text}`));
  });

  it("property: any year, month and day (days 29–31 of every month, leap years and century years) is a date exactly when a Date read back says so", () => {
    // The reference: the date as Date.UTC builds it, read back (what the calendar check replaced).
    const reference = (y: number, m: number, d: number): number | null => {
      const t = Date.UTC(y, m - 1, d);
      const back = new Date(t);
      return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? t : null;
    };
    const pad = (n: number, w: number) => String(n).padStart(w, "0");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.boolean(), (y, m, d, zoned) => {
        const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${zoned ? "T00:00:00Z" : ""}`;
        expect(parseTimestamp(text), text).toBe(reference(y, m, d));
      }),
      { numRuns: 5000, examples: [[1900, 2, 29, true], [2000, 2, 29, true], [2024, 2, 29, false], [2026, 4, 31, true], [99, 1, 1, true]] },
    );
  });

  it("a text read twice in a row gives the same answer (the last answer is kept), also after a text that failed", () => {
    expect(parseTimestamp("2026-11-21T10:00:00Z")).toBe(Date.UTC(2026, 10, 21, 10));
    expect(parseTimestamp("2026-11-21T10:00:00Z")).toBe(Date.UTC(2026, 10, 21, 10));
    expect(parseTimestamp("2026-02-30T00:00:00Z")).toBeNull();
    expect(parseTimestamp("2026-02-30T00:00:00Z")).toBeNull();
    expect(normaliseTimestamp("2026-11-21T10:00:00.000Z")).toBe("2026-11-21T10:00:00Z");
    expect(normaliseTimestamp("2026-11-21T10:00:00.120Z")).toBe("2026-11-21T10:00:00.120Z");
  });
});
