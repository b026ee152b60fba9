import { describe, expect, it } from "vitest";
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
