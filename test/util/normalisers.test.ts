/**
 * The normalisers values are compared in (issue #27: "compare values as the API means them"),
 * property-tested: every spelling of one value has one form, the form is stable, and two values
 * that differ keep different forms. Where a referee exists that we did not write it is used: the
 * decimal.js comparison for money, the WHATWG URL host parser's IPv6 text and `url.domainToASCII`.
 */
import fc from "fast-check";
import Decimal from "decimal.js";
import { domainToASCII } from "node:url";
import { describe, expect, it } from "vitest";
import { canonicalDecimal, sameDecimal } from "../../src/util/decimal";
import { canonicalIp, canonicalIpSet } from "../../src/util/ip";
import { sameUrl, urlComparisonForm } from "../../src/util/url";
import { urlCanonicalIp } from "../helpers/strict-server";

/** Decimal text: up to 9 integer digits, up to 6 fraction digits (the file's money pattern). */
const money = fc.tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined })).map(([i, f]) => (f === undefined ? String(i) : `${i}.${String(f).padStart(6, "0").replace(/0+$/, "") || "0"}`));

describe("money (src/util/decimal.ts canonicalDecimal)", () => {
  it("every spelling of an amount has one form: trailing zeros, leading zeros and the server's four places", () => {
    fc.assert(
      fc.property(money, fc.nat(6), fc.nat(3), (m, zeros, lead) => {
        const padded = `${"0".repeat(lead)}${m}${m.includes(".") ? "" : "."}${"0".repeat(zeros)}`.replace(/\.$/, "");
        expect(canonicalDecimal(padded)).toBe(canonicalDecimal(m));
        expect(canonicalDecimal(new Decimal(m).toFixed(Math.max(4, new Decimal(m).decimalPlaces())))).toBe(canonicalDecimal(m));
        expect(sameDecimal(padded, m)).toBe(true);
      }),
    );
  });

  it("is stable, and equal forms mean equal amounts (decimal.js is the referee)", () => {
    fc.assert(
      fc.property(money, money, (a, b) => {
        const ca = canonicalDecimal(a)!;
        expect(canonicalDecimal(ca)).toBe(ca);
        expect(ca === canonicalDecimal(b)).toBe(new Decimal(a).eq(new Decimal(b)));
        expect(sameDecimal(a, b)).toBe(new Decimal(a).eq(new Decimal(b)));
      }),
    );
  });

  it("is not fooled: null equals only null, and text that is not a decimal has no form", () => {
    expect(sameDecimal(null, undefined)).toBe(true);
    expect(sameDecimal("0", null)).toBe(false);
    for (const bad of ["", "1e3", "0x10", "1,5", " . "]) expect(canonicalDecimal(bad)).toBeUndefined();
  });
});

/** An IPv6 address written fully expanded, each group padded to four digits, in upper case. */
function expanded(canonical: string): string {
  const [head, tail] = canonical.includes("::") ? canonical.split("::") : [canonical, undefined];
  const h = head === "" ? [] : head.split(":");
  const t = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.map((g) => g.padStart(4, "0")).join(":").toUpperCase();
}

describe("IP addresses (src/util/ip.ts canonicalIp)", () => {
  it("every spelling of an IPv6 address has one text, the one the WHATWG URL parser writes (a referee we did not write)", () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const c = canonicalIp(ip);
        expect(c).toBeDefined();
        expect(canonicalIp(c!)).toBe(c);
        expect(canonicalIp(ip.toUpperCase())).toBe(c);
        // The URL parser writes IPv4-mapped addresses in hex; parsed back, it is the same address.
        expect(canonicalIp(String(urlCanonicalIp(ip)))).toBe(c);
        if (!c!.includes(".")) expect(canonicalIp(expanded(c!))).toBe(c);
      }),
    );
  });

  it("different addresses keep different texts; IPv4 stays as written; a zone or a non-address has none", () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.ipV6(), (a, b) => {
        expect(canonicalIp(a) === canonicalIp(b)).toBe(urlCanonicalIp(a) === urlCanonicalIp(b));
      }),
    );
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(canonicalIp(ip)).toBe(ip);
      }),
    );
    for (const bad of ["fe80::1%eth0", "203.0.113", "01.2.3.4", "example.com", ""]) expect(canonicalIp(bad)).toBeUndefined();
    expect(canonicalIpSet(["2001:DB8::1", "2001:db8:0:0:0:0:0:1", "203.0.113.1"])).toEqual(["2001:db8::1", "203.0.113.1"]);
  });
});

/** Host labels of a few non-ASCII letters and ASCII ones (an internationalised domain). */
const idnLabel = fc.array(fc.constantFrom(..."abcxyzäöüßéñø"), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(""));
const idnHost = fc.tuple(idnLabel, idnLabel).map(([a, b]) => `${a}.${b}.example`);

describe("URLs (src/util/url.ts urlComparisonForm)", () => {
  it("a host in Unicode and in its ASCII (punycode) form, escapes in either case, an unreserved character escaped or not: the same URL", () => {
    fc.assert(
      fc.property(idnHost, fc.constantFrom("", "/", "/hook", "/a%C3%BC", "/x?y=%7Ez"), (host, path) => {
        const unicode = `https://${host}${path}`;
        const ascii = `https://${domainToASCII(host)}${path.replace(/%7E/g, "~")}`;
        expect(sameUrl(unicode, ascii)).toBe(true);
        expect(sameUrl(unicode.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), ascii)).toBe(true);
        const form = urlComparisonForm(unicode);
        expect(urlComparisonForm(form)).toBe(form);
      }),
    );
  });

  it("different URLs stay different; a reserved escape is not decoded; null equals only null", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.webUrl(), (a, b) => {
        // Equal forms only for URLs that are one resource: the same href once unreserved escapes are decoded.
        const decoded = (u: string) => new URL(u).href.replace(/%(?:2[DdEe]|5[Ff]|7[Ee]|[346][0-9A-Fa-f]|[57][0-9Aa])/g, (e) => String.fromCharCode(parseInt(e.slice(1), 16))).replace(/%[0-9a-f]{2}/g, (e) => e.toUpperCase());
        expect(sameUrl(a, b)).toBe(decoded(a) === decoded(b));
        expect(urlComparisonForm(urlComparisonForm(a))).toBe(urlComparisonForm(a));
      }),
    );
    expect(sameUrl("https://a.example/x%2Fy", "https://a.example/x/y")).toBe(false);
    expect(sameUrl("https://a.example/p", "https://b.example/p")).toBe(false);
    expect(sameUrl(null, undefined)).toBe(true);
    expect(sameUrl("https://a.example/", null)).toBe(false);
  });
});
