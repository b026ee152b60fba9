/**
 * Request validation shared by the routes. Rule texts follow seed part 7: a missing required field
 * is `required`; a bad URL is `must be a valid URI` (official schemas say `format: uri`).
 */
import type { NumberDestinationInput, NumberUpdate, TransportCode } from "../client/types";
import { ValidationFailure } from "./http";

export const RULE_REQUIRED = "required";
export const RULE_URI = "must be a valid URI";

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A URI with a scheme that `URL` can parse; `""` and whitespace are invalid. */
export function isValidUri(v: unknown): v is string {
  if (typeof v !== "string" || v.length === 0 || /\s/.test(v)) return false;
  try {
    const url = new URL(v);
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol);
  } catch {
    return false;
  }
}

/** Unknown keys are refused: the official request schemas say `additionalProperties: false`. */
export function rejectUnknown(body: JsonObject, allowed: readonly string[], errors: Record<string, string>, prefix = ""): void {
  for (const key of Object.keys(body)) if (!allowed.includes(key)) errors[`${prefix}${key}`] = "is not allowed";
}

const NUMBER_UPDATE_FIELDS = [
  "sms_enabled",
  "destinations",
  "sms_relay_url",
  "call_recording_enabled",
  "transcription_enabled",
  "transcription_threshold",
  "call_status_url",
] as const;

const DESTINATION_FIELDS = ["destination", "priority", "transport", "trunk_id"] as const;

/**
 * Validate a (bulk) number update body and return the typed patch. `extra` lists fields allowed on
 * top (the bulk body's `ids`). Throws `ValidationFailure` listing every problem.
 */
export function parseNumberUpdate(body: JsonObject, extra: readonly string[] = []): NumberUpdate {
  const errors: Record<string, string> = {};
  rejectUnknown(body, [...NUMBER_UPDATE_FIELDS, ...extra], errors);
  const patch: NumberUpdate = {};
  for (const key of ["sms_enabled", "call_recording_enabled", "transcription_enabled"] as const) {
    if (!(key in body)) continue;
    if (typeof body[key] === "boolean") patch[key] = body[key] as boolean;
    else errors[key] = "must be a boolean";
  }
  if ("transcription_threshold" in body) {
    const v = body.transcription_threshold;
    if (Number.isInteger(v) && (v as number) >= 0) patch.transcription_threshold = v as number;
    else errors.transcription_threshold = "must be a non-negative integer";
  }
  // `null` clears a URL; `""` is not a URI (docs/CONTRACT.md part 2 wire facts).
  for (const key of ["sms_relay_url", "call_status_url"] as const) {
    if (!(key in body)) continue;
    const v = body[key];
    if (v === null || isValidUri(v)) patch[key] = v as string | null;
    else errors[key] = RULE_URI;
  }
  if ("destinations" in body) {
    const list = body.destinations;
    if (!Array.isArray(list)) errors.destinations = "must be an array";
    else patch.destinations = list.map((item, i) => parseDestination(item, `destinations.${i}`, errors));
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailure(errors);
  return patch;
}

function parseDestination(item: unknown, at: string, errors: Record<string, string>): NumberDestinationInput {
  if (!isObject(item)) {
    errors[at] = "must be an object";
    return { destination: "", priority: 0, transport: 1 };
  }
  rejectUnknown(item, DESTINATION_FIELDS, errors, `${at}.`);
  if (item.destination === undefined || item.destination === null || item.destination === "") {
    errors[`${at}.destination`] = RULE_REQUIRED;
  } else if (typeof item.destination !== "string") errors[`${at}.destination`] = "must be a string";
  if (item.priority === undefined || item.priority === null) errors[`${at}.priority`] = RULE_REQUIRED;
  else if (!Number.isInteger(item.priority)) errors[`${at}.priority`] = "must be an integer";
  if (item.transport === undefined || item.transport === null) errors[`${at}.transport`] = RULE_REQUIRED;
  else if (item.transport !== 1 && item.transport !== 4 && item.transport !== 5) {
    errors[`${at}.transport`] = "must be one of 1, 4, 5";
  }
  // Seed 2.2: trunk_id is the SIP trunk when transport is 5, so a trunk destination needs one.
  if (item.transport === 5) {
    if (item.trunk_id === undefined || item.trunk_id === null) errors[`${at}.trunk_id`] = RULE_REQUIRED;
    else if (!Number.isInteger(item.trunk_id)) errors[`${at}.trunk_id`] = "must be an integer";
  } else if (item.trunk_id !== undefined && item.trunk_id !== null && !Number.isInteger(item.trunk_id)) {
    errors[`${at}.trunk_id`] = "must be an integer";
  }
  return {
    destination: item.destination as string,
    priority: item.priority as number,
    transport: item.transport as TransportCode,
    trunk_id: item.transport === 5 ? (item.trunk_id as number) : null,
  };
}

/** `default_destinations` of a sub-account body: each endpoint a URI; omitted or null means unset. */
export function parseDefaultDestinations(
  v: unknown,
  errors: Record<string, string>,
): { sms_endpoint: string | null; dlr_endpoint: string | null } {
  const out = { sms_endpoint: null as string | null, dlr_endpoint: null as string | null };
  if (v === undefined || v === null) return out;
  if (!isObject(v)) {
    errors.default_destinations = "must be an object";
    return out;
  }
  rejectUnknown(v, ["sms_endpoint", "dlr_endpoint"], errors, "default_destinations.");
  for (const key of ["sms_endpoint", "dlr_endpoint"] as const) {
    const value = v[key];
    if (value === undefined || value === null) continue;
    if (isValidUri(value)) out[key] = value;
    else errors[`default_destinations.${key}`] = RULE_URI;
  }
  return out;
}

/** Sub-account name: required, at most 255 characters (official create/update schemas). */
export function checkName(v: unknown, errors: Record<string, string>): string {
  if (v === undefined || v === null || v === "") errors.name = RULE_REQUIRED;
  else if (typeof v !== "string") errors.name = "must be a string";
  else if (v.length > 255) errors.name = "may not be greater than 255 characters";
  return typeof v === "string" ? v : "";
}

/** `YYYY-MM-DD` that is a real calendar date. */
export function isIsoDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** E.164 as the brief of seed 4.2 reads it: optional `+`, 7 to 15 digits, no leading zero. */
export const E164 = /^\+?[1-9]\d{6,14}$/;
