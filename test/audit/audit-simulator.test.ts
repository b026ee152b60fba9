/**
 * The audit against the real simulator over loopback HTTP, through the real typed client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { startSimulator, type Simulator } from "../../src/simulator";
import { AuditCollectionError, audit, getBrandVettingsData, getTwoFaEventsData } from "../../src/audit";
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
    const report = await audit(client, config, { now: NOW });
    expect(report.generated_at).toBe("2026-11-22T10:00:00Z");

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

    expect(report.findings.map((f) => [f.severity, f.code, f.subject])).toEqual([
      ["error", "two_fa_failure_ratio_exceeded", "two_fa"],
      ["warning", "vetting_pending", "BPEND01"],
    ]);
    expect(JSON.stringify(report)).not.toContain("sim-vetting-token");
  });

  it("requests each session's events once even when named twice", async () => {
    const before = sim.log.length;
    await audit(client, { two_fa: { sessions: [VERIFIED, VERIFIED], services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-21" }] } }, { now: NOW });
    const eventCalls = sim.log.slice(before).filter((e) => e.path === `/v1/two-fa/session/${VERIFIED}/events`);
    expect(eventCalls).toHaveLength(1);
  });

  it("an empty or absent audit section gives an empty report without requests", async () => {
    const before = sim.log.length;
    const report = await audit(client, undefined, { now: NOW });
    expect(report.two_fa.sessions).toEqual([]);
    expect(report.ten_dlc.brands).toEqual([]);
    expect(report.findings).toEqual([]);
    expect(sim.log.length).toBe(before);
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
  it("names every one of them in one error", async () => {
    const err = await audit(
      client,
      {
        two_fa: {
          sessions: [VERIFIED, "0000d4308f2e11ecb75fcdafd6d2d000"],
          services: [{ service_id: "ffff0000201211ee9fb47d093f2f0000", from: "2026-11-01", to: "2026-11-21" }],
        },
        ten_dlc: { brands: ["B6AI7PA", "BNOPE99", "BNOPE98"] },
      },
      { now: NOW },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuditCollectionError);
    const e = err as AuditCollectionError;
    // File order (sessions, services, brands), whatever order the answers came in.
    expect(e.missing.map((m) => m.message)).toEqual([
      "2FA session 0000d4308f2e11ecb75fcdafd6d2d000 not found",
      "2FA service ffff0000201211ee9fb47d093f2f0000 not found",
      "10DLC brand BNOPE99 not found",
      "10DLC brand BNOPE98 not found",
    ]);
    expect(e.message.split("\n")).toHaveLength(4);
  });
});

describe("data-source functions", () => {
  it("getTwoFaEventsData returns normalised sessions with totals", async () => {
    const data = await getTwoFaEventsData(client, { sessions: [FAILED] });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ session_id: FAILED, verified: false, charge_total: "0.0475" });
    expect(data.charge_total).toBe("0.0475");
    expect(data.events_by_status).toEqual({ success: 1, failed: 1, pending: 0 });
  });

  it("getBrandVettingsData returns listed brands with reasons as arrays, and throws naming unknown ones", async () => {
    const data = await getBrandVettingsData(client, { brands: ["B6AI7PA"] });
    expect(data.brands.map((b) => b.brand_id)).toEqual(["B6AI7PA"]);
    expect(Array.isArray(data.brands[0].vettings[0].reasons)).toBe(true);
    await expect(getBrandVettingsData(client, { brands: ["BMISSING"] })).rejects.toThrow("10DLC brand BMISSING not found");
  });
});
