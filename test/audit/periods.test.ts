/**
 * The audited period (src/audit/window.ts) and what the report computes over it (src/audit/compute.ts):
 * what `--last` means, the errors of bad windows, the daily series with its zero days, the previous
 * period and its deltas (recomputed here independently, with BigInt, never floats), per-service
 * thresholds and findings whose subject is the service.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AuditWindowError, computeAudit, daysOf, datesPeriod, lastPeriod, previousPeriod, runWindow, type CollectedSession } from "../../src/audit";
import type { AuditConfig } from "../../src/config/types";
import type { TwoFaEvent } from "../../src/client/types";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => new Date(text);

describe("--last and --from/--to", () => {
  it("--last Nd is the N full UTC days before today: it ends at today 00:00, whatever the hour", () => {
    for (const now of ["2026-11-26T00:00:00Z", "2026-11-26T11:07:38Z", "2026-11-26T23:59:59.999Z"]) {
      const p = lastPeriod("30d", at(now));
      expect([iso(p.from), iso(p.to)]).toEqual(["2026-10-27T00:00:00.000Z", "2026-11-26T00:00:00.000Z"]);
    }
    const day = lastPeriod("1d", at("2026-11-26T06:17:00Z"));
    expect([iso(day.from), iso(day.to)]).toEqual(["2026-11-25T00:00:00.000Z", "2026-11-26T00:00:00.000Z"]);
    expect(daysOf(day)).toEqual(["2026-11-25"]);
  });

  it("--last Nh is the N full hours before this hour, and the listing is asked for every day it touches", () => {
    const p = lastPeriod("24h", at("2026-11-26T11:07:38Z"));
    expect([iso(p.from), iso(p.to)]).toEqual(["2026-11-25T11:00:00.000Z", "2026-11-26T11:00:00.000Z"]);
    expect(daysOf(p)).toEqual(["2026-11-25", "2026-11-26"]);
  });

  it("--from A --to B is the days A to B, both included, and the previous period is as long, right before", () => {
    const p = datesPeriod("2026-11-01", "2026-11-21");
    expect([iso(p.from), iso(p.to)]).toEqual(["2026-11-01T00:00:00.000Z", "2026-11-22T00:00:00.000Z"]);
    expect(daysOf(p)).toHaveLength(21);
    const q = previousPeriod(p);
    expect([iso(q.from), iso(q.to)]).toEqual(["2026-10-11T00:00:00.000Z", "2026-11-01T00:00:00.000Z"]);
  });

  it("refuses bad values, conflicting and half-given flags, reversed and too long windows, each saying why", () => {
    const now = at("2026-11-26T11:00:00Z");
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(AuditWindowError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(error(() => runWindow({ last: "30" }, now))).toBe('--last takes a whole number of days or hours, like 30d, 7d or 24h; got "30"');
    expect(error(() => runWindow({ last: "0d" }, now))).toContain("--last takes a whole number");
    expect(error(() => runWindow({ last: "1w" }, now))).toContain("--last takes a whole number");
    expect(error(() => runWindow({ last: "367d" }, now))).toBe(
      "--last 367d is longer than 366 days, the longest period one audit reads (one request per session in it); audit a longer span as several runs",
    );
    expect(error(() => runWindow({ last: "8785h" }, now))).toContain("longer than 366 days");
    expect(runWindow({ last: "366d" }, now)?.label).toBe("last 366d");
    expect(runWindow({ from: "2026-11-01", to: "2026-11-02" }, now)?.label).toBe("2026-11-01 to 2026-11-02");
    expect(error(() => runWindow({ last: "7d", from: "2026-11-01", to: "2026-11-02" }, now))).toBe("--last and --from/--to both give the period: use one of them");
    expect(error(() => runWindow({ from: "2026-11-01" }, now))).toBe("--from 2026-11-01 needs --to (the last day of the period, inclusive)");
    expect(error(() => runWindow({ to: "2026-11-01" }, now))).toBe("--to 2026-11-01 needs --from (the first day of the period)");
    expect(error(() => runWindow({ from: "2026-11-21", to: "2026-11-01" }, now))).toBe("--to 2026-11-01 is before --from 2026-11-21: the period would be empty");
    expect(error(() => runWindow({ from: "2026-02-30", to: "Nov 3" }, now))).toBe(
      '--from takes a day as YYYY-MM-DD (UTC), got "2026-02-30"; --to takes a day as YYYY-MM-DD (UTC), got "Nov 3"',
    );
    expect(error(() => runWindow({ from: "2025-01-01", to: "2026-01-02" }, now))).toContain("spans 367 days, more than 366");
    expect(runWindow({}, now)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------

const NOW = at("2026-11-26T11:00:00Z");
const A = "aaaa0000201211ee9fb47d093f2f127c";
const B = "bbbb0000201211ee9fb47d093f2f127c";

function session(id: string, service: string | undefined, day: string, verified: boolean, charges: string[]): CollectedSession {
  const events: TwoFaEvent[] = charges.map((charge, i) => ({
    created_at: `${day}T10:00:${String(i).padStart(2, "0")}Z`,
    event: "Code sent via SMS",
    status: "success",
    charge,
    error: null,
  }));
  events.push({ created_at: `${day}T10:01:00Z`, event: "Verification", status: verified ? "success" : "failed", charge: "0", error: verified ? null : "Invalid code" });
  return { session_id: id, ...(service ? { service_id: service, created_at: `${day}T10:00:00Z` } : {}), events };
}

describe("the daily series, per-service thresholds and findings", () => {
  const config: AuditConfig = {
    two_fa: {
      sessions: [],
      services: [{ service_id: A, max_failure_ratio: 0.5 }, { service_id: B }],
      max_failure_ratio: 0.2,
    },
  };
  const window = runWindow({ last: "7d" }, NOW)!;

  it("has every day of the period, zero days included, and the days add up to the period's figures", () => {
    const r = computeAudit(
      { sessions: [session("a1", A, "2026-11-20", true, ["0.0050", "0.0475"]), session("b1", B, "2026-11-22", false, ["0.01"])], brands: [] },
      config,
      { now: NOW, accountId: 1000, window },
    );
    expect(r.period).toEqual({ from: "2026-11-19T00:00:00Z", to: "2026-11-26T00:00:00Z" });
    expect(r.previous_period).toEqual({ from: "2026-11-12T00:00:00Z", to: "2026-11-19T00:00:00Z" });
    expect(r.asked.window).toBe("last 7d");
    expect(r.two_fa.daily.map((d) => [d.date, d.sessions, d.verified, d.charge_total])).toEqual([
      ["2026-11-19", 0, 0, "0"],
      ["2026-11-20", 1, 1, "0.0525"],
      ["2026-11-21", 0, 0, "0"],
      ["2026-11-22", 1, 0, "0.01"],
      ["2026-11-23", 0, 0, "0"],
      ["2026-11-24", 0, 0, "0"],
      ["2026-11-25", 0, 0, "0"],
    ]);
    expect(r.two_fa.current).toEqual({ sessions: 2, verified: 1, not_verified: 1, unknown: 0, failure_ratio: "0.500000", charge_total: "0.0625" });
  });

  it("checks each service against its own max_failure_ratio (the section's as default), the finding's subject the service", () => {
    const sessions = [
      // A: 1 of 2 not verified = 0.5, at its own max 0.5: not above.
      session("a1", A, "2026-11-20", true, ["0.01"]),
      session("a2", A, "2026-11-21", false, ["0.01"]),
      // B: 1 of 3 = 0.333…, above the section's 0.2.
      session("b1", B, "2026-11-20", true, ["0.01"]),
      session("b2", B, "2026-11-21", true, ["0.01"]),
      session("b3", B, "2026-11-22", false, ["0.01"]),
    ];
    const r = computeAudit({ sessions, brands: [] }, config, { now: NOW, accountId: 1000, window });
    expect(r.two_fa.services.map((s) => [s.service_id, s.max_failure_ratio, s.max_failure_ratio_source, s.current.failure_ratio, s.exceeded])).toEqual([
      [A, 0.5, "service", "0.500000", false],
      [B, 0.2, "two_fa", "0.333333", true],
    ]);
    expect(r.findings.filter((f) => f.severity === "error")).toEqual([
      {
        severity: "error",
        code: "two_fa_failure_ratio_exceeded",
        subject: B,
        message: `2FA service ${B}: 1 of 3 sessions not verified (33.3%) in 2026-11-19 – 2026-11-25 (UTC), above max_failure_ratio 0.2 (audit.two_fa.max_failure_ratio)`,
      },
    ]);
  });

  it("a service without sessions in the period is a stated warning, not a pass, and says the API cannot tell it from an unknown service", () => {
    const r = computeAudit({ sessions: [session("a1", A, "2026-11-20", true, ["0.01"])], brands: [] }, config, { now: NOW, accountId: 1000, window });
    expect(r.findings).toEqual([
      {
        severity: "warning",
        code: "two_fa_no_sessions",
        subject: B,
        message: `2FA service ${B}: no sessions in 2026-11-19 – 2026-11-25 (UTC), nor in the previous period; the API answers the same for an unknown service_id, so check it if sessions were expected`,
      },
    ]);
  });

  it("a session created outside its service's period is left out (a listing that ignores its dates)", () => {
    const r = computeAudit({ sessions: [session("old", A, "2026-10-01", false, ["0.01"]), session("a1", A, "2026-11-20", true, ["0.01"])], brands: [] }, config, { now: NOW, accountId: 1000, window });
    expect(r.two_fa.sessions.map((s) => s.session_id)).toEqual(["a1"]);
  });

  it("a period that ends after now is said to be incomplete", () => {
    const r = computeAudit({ sessions: [], brands: [] }, config, { now: NOW, accountId: 1000, window: runWindow({ from: "2026-11-20", to: "2026-11-30" }, NOW) });
    expect(r.findings.find((f) => f.code === "period_incomplete")?.message).toBe(
      "the period ends at 2026-12-01T00:00:00Z, after this report was made (2026-11-26T11:00:00Z): sessions may still come",
    );
  });

  it("without a 2FA service, the run's window is still the stated period (and the daily series is empty)", () => {
    const r = computeAudit({ sessions: [], brands: [] }, { ten_dlc: { brands: ["B"] } }, { now: NOW, accountId: 1000, window });
    expect(r.period).toEqual({ from: "2026-11-19T00:00:00Z", to: "2026-11-26T00:00:00Z" });
    expect(r.asked.window).toBe("last 7d");
    expect(r.two_fa.daily).toEqual([]);
  });

  it("a service without a window in a run without one is refused, naming the service", () => {
    expect(() => computeAudit({ sessions: [], brands: [] }, config, { now: NOW, accountId: 1000 })).toThrow(
      `no period for 2FA services ${A}, ${B}: run with --last 30d (or --from DATE --to DATE), or give the service its from/to`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The previous period's deltas, recomputed independently: exact integers scaled by powers of ten.

/** Decimal text with 0..5 places. */
const money = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 5 }))
  .map(([units, scale]) => (scale === 0 ? units.toString() : `${units.toString().padStart(scale + 1, "0").slice(0, -scale)}.${units.toString().padStart(scale + 1, "0").slice(-scale)}`));

const scaleOf = (v: string) => (v.includes(".") ? v.length - v.indexOf(".") - 1 : 0);
const toUnits = (v: string, scale: number) => {
  const neg = v.startsWith("-");
  const [i, f = ""] = v.replace(/^-/, "").split(".");
  const n = BigInt(i + f.padEnd(scale, "0"));
  return neg ? -n : n;
};
const fromUnits = (n: bigint, scale: number) => {
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${text}` : text;
};
/** Sum at the largest scale among the inputs ("0" for none), as the contract says. */
const exactSum = (values: string[]) => {
  const scale = Math.max(0, ...values.map(scaleOf));
  return fromUnits(values.reduce((a, v) => a + toUnits(v, scale), 0n), scale);
};
const exactDiff = (a: string, b: string) => {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return fromUnits(toUnits(a, scale) - toUnits(b, scale), scale);
};
/** part/whole rounded half-up to 6 places, as BigInt arithmetic. */
const exactRatio = (part: number, whole: number) => (whole === 0 ? null : fromUnits((BigInt(part) * 2_000_000n + BigInt(whole)) / (2n * BigInt(whole)), 6));

interface Gen {
  service: 0 | 1;
  day: number;
  verified: boolean;
  charges: string[];
}
const sessionGen = fc.record({ service: fc.constantFrom<0 | 1>(0, 1), day: fc.integer({ min: 0, max: 6 }), verified: fc.boolean(), charges: fc.array(money, { maxLength: 3 }) });

describe("previous period (property)", () => {
  it("sessions, failure ratio and charges of both periods, and their changes, per service and in total, are exact", () => {
    const services = [A, B];
    const window = runWindow({ last: "7d" }, NOW)!; // 2026-11-19 .. 2026-11-25
    const dayOf = (base: number, d: number) => new Date(base + d * 86_400_000).toISOString().slice(0, 10);
    fc.assert(
      fc.property(fc.array(sessionGen, { maxLength: 12 }), fc.array(sessionGen, { maxLength: 12 }), (cur, prev) => {
        const make = (list: Gen[], base: number, tag: string) => list.map((g, i) => session(`${tag}${i}`, services[g.service], dayOf(base, g.day), g.verified, g.charges));
        const r = computeAudit(
          { sessions: make(cur, window.period.from, "c"), previous: make(prev, window.period.from - 7 * 86_400_000, "p"), brands: [] },
          { two_fa: { sessions: [], services: services.map((service_id) => ({ service_id })) } },
          { now: NOW, accountId: 1, window },
        );
        const figures = (list: Gen[]) => {
          const verified = list.filter((g) => g.verified).length;
          return {
            sessions: list.length,
            verified,
            not_verified: list.length - verified,
            unknown: 0,
            failure_ratio: exactRatio(list.length - verified, list.length),
            charge_total: exactSum(list.flatMap((g) => [...g.charges, "0"])),
          };
        };
        const check = (got: (typeof r)["two_fa"]["current"] & object, gotPrev: typeof got, gotChange: (typeof r)["two_fa"]["change"], c: Gen[], p: Gen[]) => {
          const fc_ = figures(c);
          const fp = figures(p);
          expect(got).toEqual(fc_);
          expect(gotPrev).toEqual(fp);
          expect(gotChange).toEqual({
            sessions: fc_.sessions - fp.sessions,
            failure_ratio: fc_.failure_ratio === null || fp.failure_ratio === null ? null : exactDiff(fc_.failure_ratio, fp.failure_ratio),
            charge_total: exactDiff(fc_.charge_total, fp.charge_total),
          });
        };
        check(r.two_fa.current, r.two_fa.previous, r.two_fa.change, cur, prev);
        services.forEach((_, i) => {
          const s = r.two_fa.services[i];
          check(s.current, s.previous, s.change, cur.filter((g) => g.service === i), prev.filter((g) => g.service === i));
        });
        // The daily series: every day, and the days add up to the period exactly.
        expect(r.two_fa.daily.map((d) => d.date)).toEqual(Array.from({ length: 7 }, (_, d) => dayOf(window.period.from, d)));
        r.two_fa.daily.forEach((d, i) => expect({ sessions: d.sessions, verified: d.verified, not_verified: d.not_verified, unknown: d.unknown, failure_ratio: d.failure_ratio, charge_total: d.charge_total }).toEqual(figures(cur.filter((g) => g.day === i))));
      }),
      { numRuns: 200 },
    );
  });
});
