import { describe, expect, it } from "vitest";
import type { BrandVetting, TwoFaEvent } from "../../src/client/types";
import { computeAudit } from "../../src/audit/compute";
import type { CollectedAuditData } from "../../src/audit/types";

const NOW = new Date("2026-11-22T10:00:00Z");

function ev(created_at: string, event: string, status: TwoFaEvent["status"], charge: string, error: string | null = null): TwoFaEvent {
  return { created_at, event, status, charge, error };
}

function vetting(over: Partial<BrandVetting> & { vetting_id: string }): BrandVetting {
  return {
    evp_id: "AEGIS",
    create_date: "2026-10-01T00:00:00Z",
    vetted_date: "2026-10-02T00:00:00Z",
    vetting_token: "tok-secret-ish",
    vetting_score: 80,
    vetting_class: "STANDARD",
    vetting_status: "ACTIVE",
    reasons: [],
    ...over,
  };
}

function data(over: Partial<CollectedAuditData>): CollectedAuditData {
  return { sessions: [], brands: [], ...over };
}

describe("computeAudit: money", () => {
  it('sums "0.1" + "0.2" to exactly "0.3" (floats give 0.30000000000000004)', () => {
    const r = computeAudit(
      data({ sessions: [{ session_id: "s1", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "0.1"), ev("2026-11-01T00:00:01Z", "Verification", "success", "0.2")] }] }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    expect(r.two_fa.sessions[0].charge_total).toBe("0.3");
    expect(r.two_fa.charge_total).toBe("0.3");
  });

  it('keeps the largest scale: "0.0050" + "0.0475" = "0.0525", and across sessions', () => {
    const r = computeAudit(
      data({
        sessions: [
          { session_id: "a", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "0.0050"), ev("2026-11-01T00:00:01Z", "Verification", "success", "0.0475")] },
          { session_id: "b", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "0.3")] },
        ],
      }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    expect(r.two_fa.sessions[0].charge_total).toBe("0.0525");
    expect(r.two_fa.sessions[1].charge_total).toBe("0.3");
    expect(r.two_fa.charge_total).toBe("0.3525");
  });

  it('gives "0" for a session without events; a non-decimal charge makes its session\'s charge unknown, a gap', () => {
    const r = computeAudit(
      data({
        sessions: [
          { session_id: "empty", events: [] },
          { session_id: "bad", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "1e-2"), ev("2026-11-01T00:00:01Z", "Verification", "failed", "0.01")] },
        ],
      }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    expect(r.two_fa.sessions[0].charge_total).toBe("0");
    expect(r.two_fa.sessions[1].charge_total).toBe(null);
    expect(r.two_fa.sessions[1].figures_from).toBe("none");
    expect(r.two_fa.charge_total).toBe("0");
    expect(r.findings).toEqual([expect.objectContaining({ severity: "warning", code: "invalid_charge", subject: "bad", gap: true })]);
    expect(r.complete).toBe(false);
    expect(r.gaps).toEqual({ count: 1, by_code: { invalid_charge: 1 }, items: [expect.objectContaining({ code: "invalid_charge", subject: "bad" })] });
  });
});

describe("computeAudit: 2FA events", () => {
  it("reads zone-less times as UTC, writes ISO 8601 UTC and sorts by time, stable on ties", () => {
    const r = computeAudit(
      data({
        sessions: [
          {
            session_id: "s",
            events: [
              ev("2026-11-01 10:00:05", "Verification", "success", "0.01"),
              ev("2026-11-01T12:00:00+02:00", "Code sent via SMS", "success", "0.01"), // 10:00:00Z
              ev("2026-11-01T10:00:00", "Number lookup", "success", "0.00"), // same instant, later in input
            ],
          },
        ],
      }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    expect(r.two_fa.sessions[0].events.map((e) => [e.created_at, e.event])).toEqual([
      ["2026-11-01T10:00:00Z", "Code sent via SMS"],
      ["2026-11-01T10:00:00Z", "Number lookup"],
      ["2026-11-01T10:00:05Z", "Verification"],
    ]);
  });

  it("marks a session verified only with a successful Verification event and counts events by status", () => {
    const r = computeAudit(
      data({
        sessions: [
          { session_id: "ok", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "0.01"), ev("2026-11-01T00:01:00Z", "Verification", "success", "0.01")] },
          { session_id: "failed", events: [ev("2026-11-01T00:00:00Z", "Code sent via SMS", "success", "0.01"), ev("2026-11-01T00:01:00Z", "Verification", "failed", "0", "invalid code")] },
          { session_id: "sent-only", events: [ev("2026-11-01T00:00:00Z", "Code sent via voice", "pending", "0.02")] },
          { session_id: "checking", events: [ev("2026-11-01T00:00:00Z", "Verification", "pending", "0")] },
          { session_id: "lookup-ok", events: [ev("2026-11-01T00:00:00Z", "Number lookup", "success", "0.005")] },
        ],
      }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    expect(r.two_fa.sessions.map((s) => [s.session_id, s.verified])).toEqual([
      ["ok", true],
      ["failed", false],
      ["sent-only", false],
      ["checking", false],
      ["lookup-ok", false],
    ]);
    expect(r.two_fa.events_by_status).toEqual({ success: 4, failed: 1, pending: 2 });
    expect(r.two_fa.sessions[1].events[1].error).toBe("invalid code");
  });

  it("raises two_fa_failure_ratio_exceeded only when the ratio is strictly above the maximum", () => {
    const sessions = [
      { session_id: "a", events: [ev("2026-11-01T00:00:00Z", "Verification", "success", "0.01")] },
      { session_id: "b", events: [ev("2026-11-01T00:00:00Z", "Verification", "success", "0.01")] },
      { session_id: "c", events: [ev("2026-11-01T00:00:00Z", "Verification", "success", "0.01")] },
      { session_id: "d", events: [ev("2026-11-01T00:00:00Z", "Verification", "success", "0.01")] },
      { session_id: "e", events: [ev("2026-11-01T00:00:00Z", "Verification", "failed", "0.01")] },
    ];
    const at = (ratio: number) =>
      computeAudit(data({ sessions }), { two_fa: { sessions: [], services: [], max_failure_ratio: ratio } }, { now: NOW, accountId: 1000 }).findings;
    expect(at(0.2)).toEqual([]); // 1/5 = 0.2 is not above 0.2
    const over = at(0.19);
    expect(over).toHaveLength(1);
    // Sessions not listed by a service are the file's named sessions: the section's threshold is theirs.
    expect(over[0]).toMatchObject({ severity: "error", code: "two_fa_failure_ratio_exceeded", subject: "audit.two_fa.sessions" });
    expect(over[0].message).toContain("1 of 5");
  });

  it("compares the ratio exactly (1 of 10 sessions at max 0.1 is not exceeded)", () => {
    const sessions = Array.from({ length: 10 }, (_, i) => ({
      session_id: `s${i}`,
      events: [ev("2026-11-01T00:00:00Z", "Verification", i === 0 ? "failed" : "success", "0.01")],
    }));
    const r = computeAudit(data({ sessions }), { two_fa: { sessions: [], services: [], max_failure_ratio: 0.1 } }, { now: NOW, accountId: 1000 });
    expect(r.findings).toEqual([]);
  });
});

describe("computeAudit: 10DLC", () => {
  it("wraps a single-string reasons into an array, null into [], and drops vetting_token", () => {
    const r = computeAudit(
      data({
        brands: [
          {
            brand_id: "B1",
            vettings: [
              vetting({ vetting_id: "v1", reasons: "Score low on registration data" as unknown as string[] }),
              vetting({ vetting_id: "v2", reasons: null, create_date: "2026-10-05T00:00:00Z" }),
            ],
          },
        ],
      }),
      undefined,
      { now: NOW, accountId: 1000 },
    );
    const v = r.ten_dlc.brands[0].vettings;
    expect(v[0].reasons).toEqual(["Score low on registration data"]);
    expect(v[1].reasons).toEqual([]);
    expect(JSON.stringify(r)).not.toContain("tok-secret-ish");
  });

  it("takes effective_score from the latest scored vetting, reading zone-less dates as UTC", () => {
    const r = computeAudit(
      data({
        brands: [
          {
            brand_id: "B2",
            vettings: [
              vetting({ vetting_id: "new", create_date: "2026-10-03 00:00:00", vetted_date: "2026-10-04 00:00:00", vetting_score: 60 }),
              vetting({ vetting_id: "old", create_date: "2026-09-01T00:00:00", vetted_date: "2026-09-02T00:00:00", vetting_score: 90 }),
              vetting({ vetting_id: "pending", create_date: "2026-11-01T00:00:00", vetted_date: null, vetting_score: null, vetting_status: "PENDING" }),
            ],
          },
        ],
      }),
      { ten_dlc: { brands: ["B2"], min_vetting_score: 75 } },
      { now: NOW, accountId: 1000 },
    );
    const b = r.ten_dlc.brands[0];
    expect(b.vettings.map((v) => v.vetting_id)).toEqual(["old", "new", "pending"]);
    expect(b.vettings[1].create_date).toBe("2026-10-03T00:00:00Z");
    expect(b.effective_score).toBe(60);
    expect(b.pending).toBe(true);
    expect(r.findings.map((f) => [f.severity, f.code, f.subject])).toEqual([
      ["error", "vetting_score_below_minimum", "B2"],
      ["warning", "vetting_pending", "B2"],
      ["warning", "vetting_score_fell", "B2"],
    ]);
    // The trend: the score before the newest, the fall, and the newest vetting's age at NOW.
    expect(b).toMatchObject({ previous_score: 90, score_change: -30, score_fell: true, newest_vetting_at: "2026-10-04T00:00:00Z", vetting_age_days: 49 });
    expect(r.findings[2].message).toBe("brand B2: vetting score fell from 90 to 60 (vetting new of 2026-10-04T00:00:00Z)");
  });

  it("null effective_score: error vetting_score_missing with a minimum, only the pending warning while pending", () => {
    const r = computeAudit(
      data({
        brands: [
          { brand_id: "NOSCORE", vettings: [vetting({ vetting_id: "x", vetting_score: null, vetting_status: "UNSCORED" })] },
          { brand_id: "WAITING", vettings: [vetting({ vetting_id: "y", vetting_score: null, vetted_date: null, vetting_status: "PENDING" })] },
          { brand_id: "NONE", vettings: [] },
        ],
      }),
      { ten_dlc: { brands: "all", min_vetting_score: 75 } },
      { now: NOW, accountId: 1000 },
    );
    expect(r.ten_dlc.brands.map((b) => b.effective_score)).toEqual([null, null, null]);
    expect(r.findings.map((f) => [f.severity, f.code, f.subject])).toEqual([
      ["error", "vetting_score_missing", "NONE"],
      ["error", "vetting_score_missing", "NOSCORE"],
      ["warning", "vetting_pending", "WAITING"],
    ]);
  });

  it("no minimum: no score findings, scores at or above the minimum pass", () => {
    const brands = [{ brand_id: "B", vettings: [vetting({ vetting_id: "v", vetting_score: 75 })] }];
    expect(computeAudit(data({ brands }), { ten_dlc: { brands: ["B"] } }, { now: NOW, accountId: 1000 }).findings).toEqual([]);
    expect(computeAudit(data({ brands }), { ten_dlc: { brands: ["B"], min_vetting_score: 75 } }, { now: NOW, accountId: 1000 }).findings).toEqual([]);
    expect(computeAudit(data({ brands }), { ten_dlc: { brands: ["B"], min_vetting_score: 76 } }, { now: NOW, accountId: 1000 }).findings).toHaveLength(1);
  });
});

describe("computeAudit: report shape", () => {
  it("states generated_at (whole seconds, from the injected clock), the tool, the account, the period and what was asked", () => {
    const r = computeAudit(data({}), { ten_dlc: { brands: ["B"] } }, { now: new Date("2026-11-22T10:00:00.987Z"), accountId: 1000, tool: { name: "wavix-sync", version: "9.9.9" } });
    expect(Object.keys(r)).toEqual([
      "format_version",
      "complete",
      "gaps",
      "generated_at",
      "tool",
      "source",
      "runner",
      "account",
      "period",
      "previous_period",
      "asked",
      "methodology",
      "two_fa",
      "ten_dlc",
      "findings",
    ]);
    expect(r).toMatchObject({
      generated_at: "2026-11-22T10:00:00Z",
      tool: { name: "wavix-sync", version: "9.9.9" },
      account: { id: 1000 },
      // No 2FA service: no period (named sessions and brands are read whatever their dates).
      period: null,
      previous_period: null,
      asked: { window: null, two_fa: { sessions: [], services: [], max_failure_ratio: null }, ten_dlc: { brands: ["B"], min_vetting_score: null, max_vetting_age_days: null }, events: false },
    });
    expect(Object.keys(r.two_fa)).toEqual(["charge_total", "events_by_status", "current", "previous", "change", "daily", "services", "sessions"]);
  });

  it("states the tool version of package.json by default", () => {
    const r = computeAudit(data({}), undefined, { now: NOW, accountId: 1 });
    expect(r.tool).toEqual({ name: "wavix-sync", version: (require("../../package.json") as { version: string }).version });
  });
});
