/**
 * `sender_ids:` in the file: unique `sender_id`s (their identity); a numeric Sender ID is a phone
 * number (digits, one leading `+` dropped); countries and samples are sets.
 */
import type { DesiredSenderId } from "./types";
import { quoteName } from "../../kit/file/messages";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A numeric Sender ID's identity: digits without one leading `+`. */
export function senderIdKey(senderId: string, type: string): string {
  return type === "numeric" ? senderId.replace(/^\+/, "") : senderId;
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
  urls: [],

  check(value, { unique, padded, report }) {
    if (!Array.isArray(value)) return;
    const seen = new Map<string, number>();
    value.forEach((s: unknown, i) => {
      if (!isObj(s) || typeof s.sender_id !== "string") return;
      const segs: PathSegment[] = ["sender_ids", i, "sender_id"];
      if (padded(s.sender_id, segs, "sender ID")) return;
      if (s.type === "numeric" && !/^\+?[0-9]{5,15}$/.test(s.sender_id)) {
        report({ segments: segs, message: `numeric sender ID ${quoteName(s.sender_id)} must be a phone number (5 to 15 digits, an optional leading +)` });
        return;
      }
      unique(seen, senderIdKey(s.sender_id, String(s.type)), "sender_ids", i, "sender_id", `sender ID ${quoteName(s.sender_id)}`);
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
