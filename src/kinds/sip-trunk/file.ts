/**
 * `sip_trunks:` in the file: unique labels (their identity; one label twice only when each pins its
 * own `id:`) in Unicode NFC (the API stores them so), unique pinned ids, IP addresses that parse,
 * `allowed_ips` a set of addresses (two spellings of one IPv6 address are one), a `password_env`
 * that is not the API key's variable. Normalised as the API means the values: addresses in their
 * canonical text (src/util/ip.ts), money as a canonical decimal (src/util/decimal.ts), so a value
 * written another way never diffs.
 */
import { canonicalIp } from "../../util/ip";
import { canonicalDecimal } from "../../util/decimal";
import { nfcProblem } from "../../kit/identity";
import type { DesiredSipTrunk } from "./types";
import { quoteName } from "../../kit/file/messages";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;

/** The variable that holds the API key: never named as a trunk's `password_env`. */
export const API_KEY_VARIABLE = "WAVIX_API_KEY";
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The managed keys of a trunk, in the order the file, plans and exports show them. */
export const TRUNK_SETTING_KEYS = [
  "host",
  "callerid",
  "multiple_numbers",
  "ip_restrict",
  "allowed_ips",
  "didinfo_enabled",
  "call_restrict",
  "call_limit",
  "cost_limit",
  "max_call_cost",
  "channels_restrict",
  "max_channels",
  "rewrite_enabled",
  "rewrite_prefix",
  "rewrite_cond",
  "call_recording_enabled",
  "transcription_enabled",
  "transcription_threshold",
  "machine_detection_enabled",
  "encrypted_media",
] as const;
export type TrunkSettingKey = (typeof TRUNK_SETTING_KEYS)[number];

/** A trunk in the file format (keys absent from the state stay absent). */
export function sipTrunkFileObject(t: Omit<DesiredSipTrunk, "path" | "pos">): Obj {
  const o: Obj = { label: t.label };
  if (t.id !== undefined) o.id = t.id;
  if (t.password_env !== undefined) o.password_env = t.password_env;
  for (const k of TRUNK_SETTING_KEYS) if (t[k] !== undefined) o[k] = k === "allowed_ips" ? [...(t.allowed_ips ?? [])] : t[k];
  return o;
}

export const sipTrunkFileForm: FileForm<DesiredSipTrunk[]> = {
  entryKey: { of: (e) => String(e.label), fields: (key) => ({ label: key }) },
  urls: [],

  check(value, { lineOf, describePath, unique, padded, report }) {
    if (!Array.isArray(value)) return;
    const byLabel = new Map<string, number>();
    const unpinned = new Map<string, number>();
    const byId = new Map<number, number>();
    value.forEach((t: unknown, i) => {
      if (!isObj(t)) return;
      const nfc = typeof t.label === "string" ? nfcProblem(t.label, `trunk label ${quoteName(t.label)}`) : undefined;
      if (nfc) report({ segments: ["sip_trunks", i, "label"], message: nfc });
      else if (typeof t.label === "string" && !padded(t.label, ["sip_trunks", i, "label"], "trunk label")) {
        const pinned = typeof t.id === "number";
        const first = byLabel.get(t.label);
        if (first === undefined) byLabel.set(t.label, i);
        else if (!pinned || unpinned.has(t.label)) {
          const fs: PathSegment[] = ["sip_trunks", unpinned.get(t.label) ?? first];
          report({
            segments: ["sip_trunks", i, "label"],
            message: `duplicate trunk label ${quoteName(t.label)}: first declared at line ${lineOf(fs)} (${describePath(fs)}); give each its own id: to declare two trunks of one label`,
          });
        }
        if (!pinned && !unpinned.has(t.label)) unpinned.set(t.label, i);
      }
      if (typeof t.id === "number") unique(byId, t.id, "sip_trunks", i, "id", `trunk id ${t.id}`);
      if (t.password_env === API_KEY_VARIABLE) {
        report({
          segments: ["sip_trunks", i, "password_env"],
          message: `password_env names ${API_KEY_VARIABLE}, the variable that holds the API key: a trunk's password must be its own secret (name the variable that holds the trunk's password)`,
        });
      }
      if (typeof t.host === "string" && canonicalIp(t.host) === undefined) {
        report({ segments: ["sip_trunks", i, "host"], message: `host ${quoteName(t.host)} is not an IP address (IP authentication takes the endpoint's public static IP)` });
      }
      if (Array.isArray(t.allowed_ips)) {
        const seen = new Map<string, number>();
        t.allowed_ips.forEach((ip: unknown, j) => {
          if (typeof ip !== "string") return;
          const segs: PathSegment[] = ["sip_trunks", i, "allowed_ips", j];
          const canonical = canonicalIp(ip);
          if (canonical === undefined) return report({ segments: segs, message: `${quoteName(ip)} is not an IP address` });
          const firstAt = seen.get(canonical);
          if (firstAt === undefined) seen.set(canonical, j);
          else {
            const fs: PathSegment[] = ["sip_trunks", i, "allowed_ips", firstAt];
            const same = canonical === ip ? "" : ` (the same address as ${quoteName(canonical)})`;
            report({ segments: segs, message: `duplicate IP ${quoteName(ip)}${same}: first declared at line ${lineOf(fs)} (${describePath(fs)}); allowed_ips is a set` });
          }
        });
        if (t.ip_restrict === true && t.allowed_ips.length === 0) {
          report({ segments: ["sip_trunks", i, "allowed_ips"], message: "ip_restrict: true needs at least one IP in allowed_ips" });
        }
      }
      if (t.callerid === "" && t.multiple_numbers !== true && has(t, "multiple_numbers")) {
        report({ segments: ["sip_trunks", i, "callerid"], message: "an empty callerid needs multiple_numbers: true" });
      }
    });
  },

  normalize(value, positionOf) {
    if (!Array.isArray(value)) return undefined;
    return (value as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["sip_trunks", i];
      const t: DesiredSipTrunk = { label: raw.label as string, path: formatPath(segs) };
      if (has(raw, "id")) t.id = raw.id as number;
      if (has(raw, "password_env")) t.password_env = raw.password_env as string;
      for (const k of TRUNK_SETTING_KEYS) {
        if (!has(raw, k)) continue;
        if (k === "allowed_ips") t.allowed_ips = [...new Set((raw.allowed_ips as string[]).map((ip) => canonicalIp(ip) ?? ip))].sort();
        else if (k === "host") t.host = canonicalIp(raw.host as string) ?? (raw.host as string);
        else if (k === "max_call_cost") t.max_call_cost = canonicalDecimal(raw.max_call_cost as string) ?? (raw.max_call_cost as string);
        else if (k === "callerid") t.callerid = (raw.callerid as string).replace(/^\+/, "");
        else (t as unknown as Obj)[k] = raw[k];
      }
      const pos = positionOf(segs);
      if (pos) t.pos = pos;
      return t;
    });
  },

  toFile: (declared) => declared.map(sipTrunkFileObject),
};
