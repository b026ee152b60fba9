/**
 * `sender_ids:` in the file: unique `sender_id`s (their identity, compared as the service compares
 * them: without case, so `ACME` beside `acme` is a duplicate); a numeric Sender ID is a phone number
 * (digits, one leading `+` dropped); an alphanumeric one is a name of at most 11 letters, digits and
 * spaces; countries are assigned ISO 3166-1 codes; countries and samples are sets.
 */
import { countryCodeHint, isCountryCode } from "../../util/countries";
import type { DesiredSenderId } from "./types";
import { quoteName } from "../../kit/file/messages";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A numeric Sender ID's key: digits without one leading `+`; an alphanumeric one as written. */
export function senderIdKey(senderId: string, type: string | undefined): string {
  return type === "numeric" ? senderId.replace(/^\+/, "") : senderId;
}

/**
 * The identity of a Sender ID, as the service compares it (issue #27): a phone number's digits
 * (without a leading `+`), a name without case (a server keeps `acme` as `ACME`). It depends only on
 * `sender_id`, which the official document always gives, never on `type`.
 */
export function senderIdIdentity(senderId: string): string {
  return /^\+?[0-9]+$/.test(senderId) ? senderId.replace(/^\+/, "") : senderId.normalize("NFC").toUpperCase();
}

/**
 * The longest alphanumeric Sender ID: what a handset shows as the sender of an SMS (3GPP TS 23.040,
 * the alphanumeric originating address: 11 characters). The official document states no limit; a
 * longer one could never be sent from.
 */
export const MAX_ALPHANUMERIC = 11;

/** Why an alphanumeric Sender ID cannot be one, or undefined. */
function alphanumericProblem(v: string): string | undefined {
  if (!/^[A-Za-z0-9 ]+$/.test(v)) {
    return `alphanumeric sender ID ${quoteName(v)} may hold only the letters A to Z, digits and spaces (an alphanumeric name, official SenderIDCreateRequest)`;
  }
  if (v.length > MAX_ALPHANUMERIC) return `alphanumeric sender ID ${quoteName(v)} is ${v.length} characters long: a phone shows at most ${MAX_ALPHANUMERIC}`;
  if (!/[A-Za-z]/.test(v)) return `alphanumeric sender ID ${quoteName(v)} has no letter: a sender ID of digits only is a phone number (type: numeric)`;
  return undefined;
}

/** A Sender ID in the file format (keys absent from the state stay absent). */
export function senderIdFileObject(d: Omit<DesiredSenderId, "path" | "pos">): Obj {
  const o: Obj = { sender_id: d.sender_id, type: d.type, countries: [...d.countries], usecase: d.usecase };
  if (d.monthly_volume !== undefined) o.monthly_volume = d.monthly_volume;
  if (d.samples !== undefined) o.samples = [...d.samples];
  if (d.replace !== undefined) o.replace = d.replace;
  return o;
}

export const senderIdFileForm: FileForm<DesiredSenderId[]> = {
  entryKey: { of: (e) => String(e.sender_id), fields: (key) => ({ sender_id: key }) },
  urls: [],

  check(value, { unique, padded, report, lineOf, describePath }) {
    if (!Array.isArray(value)) return;
    const seen = new Map<string, number>();
    value.forEach((s: unknown, i) => {
      if (!isObj(s) || typeof s.sender_id !== "string") return;
      const segs: PathSegment[] = ["sender_ids", i, "sender_id"];
      if (padded(s.sender_id, segs, "sender ID")) return;
      if (Array.isArray(s.countries)) {
        s.countries.forEach((c: unknown, j) => {
          if (typeof c !== "string" || !/^[A-Z]{2}$/.test(c) || isCountryCode(c)) return;
          const hint = countryCodeHint(c);
          report({ segments: ["sender_ids", i, "countries", j], message: `${quoteName(c)} is not an ISO 3166-1 country code${hint ? ` (${hint})` : ""}` });
        });
      }
      if (s.type === "numeric" && !/^\+?[0-9]{5,15}$/.test(s.sender_id)) {
        report({ segments: segs, message: `numeric sender ID ${quoteName(s.sender_id)} must be a phone number (5 to 15 digits, an optional leading +)` });
        return;
      }
      const bad = s.type === "alphanumeric" ? alphanumericProblem(s.sender_id) : undefined;
      if (bad) {
        report({ segments: segs, message: bad });
        return;
      }
      const identity = senderIdIdentity(s.sender_id);
      const first = seen.get(identity);
      if (first !== undefined && (value[first] as Obj).sender_id !== s.sender_id) {
        const fs: PathSegment[] = ["sender_ids", first];
        report({ segments: segs, message: `duplicate sender ID ${quoteName(s.sender_id)}: ${quoteName(String((value[first] as Obj).sender_id))} is declared at line ${lineOf(fs)} (${describePath(fs)}), and sender IDs are compared without case` });
        return;
      }
      unique(seen, identity, "sender_ids", i, "sender_id", `sender ID ${quoteName(s.sender_id)}`);
    });
  },

  normalize(value, positionOf) {
    if (!Array.isArray(value)) return undefined;
    return (value as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["sender_ids", i];
      const type = raw.type as DesiredSenderId["type"];
      const d: DesiredSenderId = {
        sender_id: senderIdKey(raw.sender_id as string, type),
        type,
        countries: [...new Set(raw.countries as string[])].sort(),
        usecase: raw.usecase as DesiredSenderId["usecase"],
        path: formatPath(segs),
      };
      if (has(raw, "monthly_volume")) d.monthly_volume = raw.monthly_volume as DesiredSenderId["monthly_volume"];
      if (has(raw, "samples")) d.samples = [...(raw.samples as string[])];
      if (has(raw, "replace")) d.replace = raw.replace as boolean;
      const pos = positionOf(segs);
      if (pos) d.pos = pos;
      return d;
    });
  },

  toFile: (declared) => declared.map(senderIdFileObject),
};
