import { describe, expect, it } from "vitest";
import { cappedRetryAfter, parseRetryAfter } from "../../src/client";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("5", now)).toBe(5000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
  });

  it("reads an HTTP-date relative to now, and a past date as 0", () => {
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
  });

  it("gives undefined for absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("caps the wait", () => {
    expect(cappedRetryAfter(3_600_000, 60_000)).toBe(60_000);
    expect(cappedRetryAfter(500, 60_000)).toBe(500);
    expect(cappedRetryAfter(undefined, 60_000)).toBeUndefined();
  });
});
