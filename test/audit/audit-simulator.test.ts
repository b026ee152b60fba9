/**
 * The audit against the real simulator over loopback HTTP, through the real typed client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { startSimulator, type Simulator } from "../../src/simulator";
import { AccountMismatchError } from "../../src/kit/provider/account-pin";
import { AuditCollectionError, AuditWindowError, audit, readBrandVettings, readTwoFaEvents } from "../../src/audit";
import type { AuditConfig } from "../../src/config/types";

const VERIFIED = "8753d4308f2e11ecb75fcdafd6d2d690";
const FAILED = "2953d4308f2e11ecb75fcdafd6d2d687";
const SERVICE = "7204a030201211ee9fb47d093f2f127c";
const NOW = new Date("2026-11-22T10:00:00Z");

let sim: Simulator;
let client: WavixClient;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new WavixClient({ apiKey: "sim-demo-key", baseUrl: sim.url });
});
afterAll(async () => {
  await sim?.close();
});

describe("audit of the demo account", () => {
  const config: AuditConfig = {
    two_fa: {
      // The verified session is named directly AND returned by the service: it must appear once.
      sessions: [VERIFIED],
      services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-21" }],
      max_failure_ratio: 0.2,
    },
    ten_dlc: { brands: "all", min_vetting_score: 75 },
  };

  it("collects, deduplicates sessions, totals exactly and reports the findings", async () => {
    const before = sim.log.length;
    const report = await audit(client, config, { now: NOW, events: true });
    expect(report.generated_at).toBe("2026-11-22T10:00:00Z");
    // The account is the key's (GET /v1/profile), read first.
    expect(report.account).toEqual({ id: 1000 });
    expect(sim.log[before].path).toBe("/v1/profile");
    expect(report.period).toEqual({ from: "2026-11-01T00:00:00Z", to: "2026-11-22T00:00:00Z" });
    expect(report.asked.window).toBe("file");

    expect(report.two_fa.sessions.map((s) => [s.session_id, s.verified, s.charge_total])).toEqual([
      [VERIFIED, true, "0.0525"],
      [FAILED, false, "0.0475"],
    ]);
    expect(report.two_fa.charge_total).toBe("0.1000");
    expect(report.two_fa.events_by_status).toEqual({ success: 4, failed: 1, pending: 0 });
    expect(report.two_fa.sessions[0].events.map((e) => e.event)).toEqual(["Number lookup", "Code sent via SMS", "Verification"]);
    expect(report.two_fa.sessions[1].events[1].error).toBe('Invalid code, expected "6 digits"');

    const brands = Object.fromEntries(report.ten_dlc.brands.map((b) => [b.brand_id, b]));
    expect(brands.B6AI7PA.effective_score).toBe(82);
    expect(brands.B6AI7PA.pending).toBe(false);
    // The simulator sends this brand's reasons as one string; the report always has an array.
    expect(brands.B6AI7PA.vettings[0].reasons).toEqual([
      "Company size as reported by business sources resulted in a score deduction: size range 6-10",
    ]);
    // Sent without a zone: read as UTC, written with Z.
    expect(brands.B6AI7PA.vettings[0].create_date).toBe("2026-11-03T10:15:00Z");
    expect(brands.BPEND01.effective_score).toBeNull();
    expect(brands.BPEND01.pending).toBe(true);
    expect(brands.BPEND01.vettings[0].reasons).toEqual([]);

    // The failing service is the finding's subject (the named session is one of its own).
    expect(report.findings.map((f) => [f.severity, f.code, f.subject])).toEqual([
      ["error", "two_fa_failure_ratio_exceeded", SERVICE],
      ["warning", "vetting_pending", "BPEND01"],
    ]);
    expect(report.two_fa.services[0]).toMatchObject({ service_id: SERVICE, service_name: "Demo 2FA Service", max_failure_ratio: 0.2, exceeded: true });
    expect(JSON.stringify(report)).not.toContain("sim-vetting-token");
  });

  it("requests each session's events once even when named twice", async () => {
    const before = sim.log.length;
    await audit(client, { two_fa: { sessions: [VERIFIED, VERIFIED], services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-21" }] } }, { now: NOW });
    const eventCalls = sim.log.slice(before).filter((e) => e.path === `/v1/two-fa/session/${VERIFIED}/events`);
    expect(eventCalls).toHaveLength(1);
  });

  it("an absent or empty audit section is refused before any request: nothing passes silently", async () => {
    const before = sim.log.length;
    for (const config of [undefined, {}, { two_fa: { sessions: [], services: [] } }, { ten_dlc: { brands: [] } }]) {
      await expect(audit(client, config, { now: NOW })).rejects.toThrow(AuditWindowError);
      await expect(audit(client, config, { now: NOW })).rejects.toThrow(/^nothing to audit: declare audit\.two_fa\.services/);
    }
    expect(sim.log.length).toBe(before);
  });

  it("a key of another account than the pin: refused after GET /v1/profile, nothing else read", async () => {
    const before = sim.log.length;
    const err = await audit(client, config, { now: NOW, accountPin: { id: 4242, source: "wavix.yaml account_id" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountMismatchError);
    expect((err as Error).message).toBe(
      "GET /v1/profile: the API key belongs to account 1000, but wavix.yaml account_id pins account 4242; stopped before reading or writing anything else (check WAVIX_API_KEY, or the pin)",
    );
    expect(sim.log.slice(before).map((e) => e.path)).toEqual(["/v1/profile"]);
  });
});

describe("brands: all", () => {
  it("walks every brand page (one brand per page here) and audits each brand", async () => {
    const small = await startSimulator({ port: 0, maxPerPage: 1 });
    try {
      const c = new WavixClient({ apiKey: "sim-demo-key", baseUrl: small.url });
      const report = await audit(c, { ten_dlc: { brands: "all" } }, { now: NOW });
      expect(report.ten_dlc.brands.map((b) => b.brand_id).sort()).toEqual(["B6AI7PA", "BPEND01"]);
      const pageCalls = small.log.filter((e) => e.path === "/v3/10dlc/brands");
      expect(pageCalls.length).toBeGreaterThanOrEqual(2);
    } finally {
      await small.close();
    }
  });
});

describe("unknown sessions, services and brands", () => {
  it("names every unknown session and brand in one error, before any service is listed", async () => {
    const before = sim.log.length;
    const err = await audit(
      client,
      {
        two_fa: {
          sessions: [VERIFIED, "0000d4308f2e11ecb75fcdafd6d2d000"],
          services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-21" }],
        },
        ten_dlc: { brands: ["B6AI7PA", "BNOPE99", "BNOPE98"] },
      },
      { now: NOW },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuditCollectionError);
    const e = err as AuditCollectionError;
    // File order (sessions, brands), whatever order the answers came in.
    expect(e.missing.map((m) => m.message)).toEqual([
      "2FA session 0000d4308f2e11ecb75fcdafd6d2d000 not found",
      "10DLC brand BNOPE99 not found",
      "10DLC brand BNOPE98 not found",
    ]);
    expect(e.message.split("\n")).toHaveLength(3);
    expect(sim.log.slice(before).filter((x) => x.path.endsWith("/sessions"))).toEqual([]);
  });

  it("an unknown service reads as a service without sessions (the API's 404 is the same), stated as a warning", async () => {
    const unknown = "ffff0000201211ee9fb47d093f2f0000";
    const report = await audit(client, { two_fa: { sessions: [], services: [{ service_id: unknown, from: "2026-11-01", to: "2026-11-02" }] } }, { now: NOW });
    expect(report.two_fa.current.sessions).toBe(0);
    expect(report.findings.map((f) => [f.severity, f.code, f.subject])).toEqual([["warning", "two_fa_no_sessions", unknown]]);
  });
});

describe("data-source functions (camelCase)", () => {
  it("readTwoFaEvents returns normalised sessions with totals", async () => {
    const data = await readTwoFaEvents(client, { sessions: [FAILED] });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ sessionId: FAILED, verified: false, chargeTotal: "0.0475" });
    expect(data.sessions[0].events[0]).toEqual({ createdAt: "2026-11-05T14:30:00Z", event: "Code sent via SMS", status: "success", charge: "0.0475", error: null });
    expect(data.chargeTotal).toBe("0.0475");
    expect(data.eventsByStatus).toEqual({ success: 1, failed: 1, pending: 0 });
  });

  it("readBrandVettings returns listed brands with reasons as arrays, and throws naming unknown ones", async () => {
    const data = await readBrandVettings(client, { brands: ["B6AI7PA"] }, { now: NOW });
    expect(data.brands.map((b) => b.brandId)).toEqual(["B6AI7PA"]);
    expect(data.brands[0]).toMatchObject({ effectiveScore: 82, pending: false, newestVettingAt: "2026-11-03T10:20:00Z", vettingAgeDays: 18, previousScore: null, scoreFell: false });
    expect(Array.isArray(data.brands[0].vettings[0].reasons)).toBe(true);
    await expect(readBrandVettings(client, { brands: ["BMISSING"] })).rejects.toThrow("10DLC brand BMISSING not found");
  });

  it("honour an account pin: another account's key is refused after the profile, nothing else read", async () => {
    const before = sim.log.length;
    await expect(readBrandVettings(client, { brands: "all" }, { accountId: 7 })).rejects.toThrow(AccountMismatchError);
    await expect(readTwoFaEvents(client, { sessions: [FAILED] }, { accountId: 7 })).rejects.toThrow("the API key belongs to account 1000, but wavix:accountId pins account 7");
    expect(sim.log.slice(before).map((e) => e.path)).toEqual(["/v1/profile", "/v1/profile"]);
    await expect(readBrandVettings(client, { brands: ["B6AI7PA"] }, { accountId: 1000 })).resolves.toMatchObject({ brands: [{ brandId: "B6AI7PA" }] });
  });
});
