/**
 * Regression (issue #22): a very short API key (`x`) masked wherever its letters appeared mangled
 * every message (`api.wavi[REDACTED].com`). A short secret is masked where it stands as a token of
 * its own; a real (long) key wherever it appears, even inside another word.
 */
import { describe, expect, it } from "vitest";
import { redact } from "../../src/client/redact";

describe("redaction of secrets in messages", () => {
  it("a one-letter key leaves host names and words alone, and is still masked where it stands alone", () => {
    expect(redact("GET https://api.wavix.com/v1/numbers: key x refused (Bearer x; ?k=x)", ["x"])).toBe(
      "GET https://api.wavix.com/v1/numbers: key [REDACTED] refused (Bearer [REDACTED]; ?k=[REDACTED])",
    );
  });

  it("a real key is masked everywhere, inside other text too", () => {
    const key = "sk_live_0123456789abcdef0123";
    expect(redact(`prefix${key}suffix and ${key}`, [key])).toBe("prefix[REDACTED]suffix and [REDACTED]");
  });

  it("keys of objects are scrubbed as their values are", () => {
    expect(redact({ "echo-x": "x", x: 1 }, ["x"])).toEqual({ "echo-x": "[REDACTED]", "[REDACTED]": 1 });
  });
});
