/**
 * An account with enough 2FA and 10DLC history to draw every chart of the HTML audit: two services
 * over a week of November (one above the failure ratio) and a few sessions in October (the previous
 * period of the file's windows), a session named only directly, charges at mixed scales, pending
 * events, and brands that pass, fail, fall, wait, and fail while waiting.
 */
import type { SimSeed } from "../../src/simulator";
import type { TwoFaEvent } from "../../src/client/types";
import Decimal from "decimal.js";

export const SERVICE_A = "7204a030201211ee9fb47d093f2f127c";
export const SERVICE_B = "91c0e2aa201211ee9fb47d093f2f0b0b";
/** A service the file does not list: its one session is named directly. */
const SERVICE_C = "c3c3c3c3201211ee9fb47d093f2fc3c3";
export const DIRECT_SESSION = "d1d1d1d18f2e11ecb75fcdafd6d2d1d1";

/** `day`: a day of November 2026, or a `YYYY-MM-DD`. */
function session(id: string, day: number | string, hour: number, outcome: "verified" | "failed" | "pending") {
  const date = typeof day === "string" ? day : `2026-11-0${day}`;
  const at = (s: number) => `${date}T${String(hour).padStart(2, "0")}:00:${String(s).padStart(2, "0")}.000Z`;
  const events: TwoFaEvent[] = [
    { created_at: at(0), event: "Number lookup", status: "success", charge: "0.0050", error: null },
    { created_at: at(1), event: "Code sent via SMS", status: "success", charge: "0.0475", error: null },
  ];
  if (outcome === "verified") events.push({ created_at: at(30), event: "Verification", status: "success", charge: "0", error: null });
  if (outcome === "failed") events.push({ created_at: at(40), event: "Verification", status: "failed", charge: "0.00", error: "Invalid code" });
  if (outcome === "pending") events.push({ created_at: at(5), event: "Code sent via voice", status: "pending", charge: "0.03", error: null });
  return {
    session_id: id,
    phone_number: "15551230001",
    destination_country: "US",
    status: outcome,
    created_at: at(0),
    // The listing's charge is its events' charges, summed exactly at their largest scale: the
    // headline figures come from the listing, and a listing that disagreed with its events would
    // be a finding (docs/AUDIT.md).
    charge: events.reduce((t, e) => t.plus(e.charge), new Decimal(0)).toFixed(Math.max(...events.map((e) => e.charge.split(".")[1]?.length ?? 0))),
    events,
  };
}

const hex = (n: number) => n.toString(16).padStart(32, "0");

export function auditAccount(): SimSeed {
  return {
    twoFaServices: [
      {
        service_id: SERVICE_A,
        service_name: "Login codes",
        sessions: [
          session(hex(0xa1), 2, 9, "verified"),
          session(hex(0xa2), 2, 11, "verified"),
          session(hex(0xa3), 3, 10, "failed"),
          session(hex(0xa4), 5, 8, "verified"),
          session(hex(0xa5), 6, 15, "verified"),
          // The previous period (2026-10-11 – 2026-10-31): 3 sessions, 2 not verified.
          session(hex(0xa6), "2026-10-20", 9, "failed"),
          session(hex(0xa7), "2026-10-25", 9, "verified"),
          session(hex(0xa8), "2026-10-31", 23, "failed"),
        ],
      },
      {
        service_id: SERVICE_B,
        service_name: "Payouts",
        sessions: [session(hex(0xb1), 3, 12, "failed"), session(hex(0xb2), 5, 9, "pending"), session(hex(0xb3), 6, 16, "verified")],
      },
      { service_id: SERVICE_C, service_name: "Support", sessions: [session(DIRECT_SESSION, 4, 7, "verified")] },
    ],
    brands: [
      { brand_id: "BGOOD01", vettings: [vetting("1f0c2a3e-0000-4000-8000-000000000001", "2026-11-01T10:00:00", 82, "ACTIVE")] },
      {
        brand_id: "BLOW02",
        vettings: [
          vetting("1f0c2a3e-0000-4000-8000-000000000006", "2026-06-02T10:00:00", 80, "ACTIVE"),
          vetting("1f0c2a3e-0000-4000-8000-000000000002", "2026-11-02T10:00:00", 60, "ACTIVE", "Company size: score deduction"),
        ],
      },
      { brand_id: "BPEND03", vettings: [vetting("1f0c2a3e-0000-4000-8000-000000000003", "2026-11-20T09:00:00", null, "PENDING")] },
      {
        brand_id: "BMIX04",
        vettings: [vetting("1f0c2a3e-0000-4000-8000-000000000004", "2026-10-01T10:00:00", 70, "ACTIVE"), vetting("1f0c2a3e-0000-4000-8000-000000000005", "2026-11-19T10:00:00", null, "PENDING")],
      },
    ],
  };
}

/** `vetting_id` is a UUID in the official BrandVetting schema (the suite's contract check enforces it). */
function vetting(id: string, created: string, score: number | null, status: string, reasons: string | null = null) {
  return {
    evp_id: "AEGIS",
    create_date: created,
    vetted_date: score === null ? null : created,
    vetting_id: id,
    vetting_token: null,
    vetting_score: score,
    vetting_class: "STANDARD",
    vetting_status: status,
    reasons,
  };
}

/** The file's audit section for this account. */
export const AUDIT_FILE = `version: 1
audit:
  two_fa:
    sessions: [${DIRECT_SESSION}]
    services:
      - { service_id: ${SERVICE_A}, from: "2026-11-01", to: "2026-11-21", max_failure_ratio: 0.3 }
      - { service_id: ${SERVICE_B}, from: "2026-11-01", to: "2026-11-21" }
    max_failure_ratio: 0.25
  ten_dlc:
    brands: all
    min_vetting_score: 75
`;
