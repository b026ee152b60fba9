/**
 * SIP trunks in the simulator (official `GET`/`POST /v1/trunks`, `GET`/`PUT`/`DELETE /v1/trunks/{id}`).
 * The request schemas (schemas/api/trunk-*.request.schema.json) have checked the shape before these
 * run; here are the records (the account's own rules and the routes: trunk-routes.ts). The password
 * is write-only: kept, never served. `access_token` is made by the server and served in every
 * answer, as the official document shows.
 */
import type { SipTrunk, SipTrunkSummary } from "../client/types";

/** One trunk as the simulator keeps it. */
export interface SimTrunkRecord {
  organization: number;
  data: SipTrunk;
  /** Write-only: never served. Tests may read it to see what was sent. */
  password: string;
}

/** A trunk as seeded: the record's fields (defaults fill the rest) plus its owner and password. */
export type SimSeedTrunk = Partial<SipTrunk> & { id: number; label: string; organization?: number; password?: string };

/** Defaults of the official SIPTrunkResponse for every field a create or a PUT leaves out. */
export function trunkDefaults(id: number, name: string, label: string, created: string): SipTrunk {
  return {
    id,
    name,
    callerid: null,
    label,
    ip_restrict: false,
    allowed_ips: [],
    channels_restrict: false,
    max_channels: null,
    cost_limit: false,
    max_call_cost: null,
    call_restrict: false,
    call_limit: null,
    didinfo_enabled: true,
    rewrite_enabled: false,
    rewrite_prefix: "",
    rewrite_cond: "",
    call_recording_enabled: false,
    machine_detection_enabled: false,
    transcription_enabled: false,
    transcription_threshold: 6,
    created_at: created,
    host: "dynamic",
    multiple_numbers: false,
    encrypted_media: false,
    passthrough: false,
    access_token: null,
  };
}

/** The listing's item (official SIPTrunkSummary): fewer fields than the record. */
export function trunkSummary(t: SipTrunk): SipTrunkSummary {
  const ipAuth = t.host !== undefined && t.host !== "dynamic";
  return {
    id: t.id,
    name: t.name,
    label: t.label,
    callerid: t.callerid,
    multiple_numbers: t.multiple_numbers ?? false,
    auth_method: ipAuth ? "IP auth" : "Digest",
    host_request: ipAuth ? { host: t.host, status: "active" } : null,
    passthrough: t.passthrough ?? false,
    status: "active",
    talk_time: 0,
    charge: "0.00",
    call_recording_enabled: t.call_recording_enabled ?? false,
    machine_detection_enabled: t.machine_detection_enabled ?? false,
    transcription_enabled: t.transcription_enabled ?? false,
    transcription_threshold: t.transcription_threshold ?? 6,
    encrypted_media: t.encrypted_media ?? false,
    access_token: t.access_token ?? null,
  };
}

/** A seeded trunk as the store keeps it. */
export function seededTrunk(t: SimSeedTrunk, master: number): SimTrunkRecord {
  const { organization, password, ...fields } = t;
  const data: SipTrunk = {
    ...trunkDefaults(t.id, fields.name ?? String(10000 + t.id), t.label, fields.created_at ?? "2026-01-12T08:00:00.000Z"),
    access_token: `sip-seeded-token-${t.id}`,
    ...fields,
  };
  return { organization: organization ?? master, data, password: password ?? "seeded-password" };
}
