/**
 * `numbers:` in the file: unique by digits once `+` is dropped (docs/CONTRACT.md part 4, identity),
 * destinations a set, `trunk_id` only with transport trunk (seed 2.2).
 */
import { NUMBER_SETTING_KEYS, type DesiredDestination, type DesiredNumber } from "./types";
import { quoteName } from "../../kit/file/messages";
import { normalizeDigits, transportCode, transportName } from "../../kit/file/transport";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileCheckTools, FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
/** Copies `k` only when present, so absent keys stay absent (not even set to undefined). */
function copy<T extends object>(target: T, source: Obj, k: string & keyof T): void {
  if (has(source, k)) (target as Obj)[k] = source[k];
}

function normalizeDestination(d: Obj): DesiredDestination {
  const transport = transportCode(d.transport as string | number);
  const trunkId = d.trunk_id;
  // A trunk by label: its login and id are filled in at plan time (src/kinds/number/index.ts).
  if (transport === 5 && typeof d.trunk === "string") return { destination: "", transport, priority: d.priority as number, trunk_id: null, trunk: d.trunk };
  return {
    destination: d.destination as string,
    transport,
    priority: d.priority as number,
    // Seed 2.2: trunk_id is set only for transport 5; null otherwise, so it never causes a diff.
    trunk_id: transport === 5 && typeof trunkId === "number" ? trunkId : null,
  };
}

/** A number in the file format (keys absent from the state stay absent). */
export function numberFileObject(n: Omit<DesiredNumber, "path" | "pos">): Obj {
  const o: Obj = { number: n.number };
  if (n.sub_account !== undefined) o.sub_account = n.sub_account;
  for (const k of NUMBER_SETTING_KEYS) {
    if (k !== "destinations" && n[k] !== undefined) o[k] = n[k];
  }
  if (n.destinations !== undefined) {
    o.destinations = n.destinations.map((d) => {
      if (d.trunk !== undefined) return { transport: transportName(d.transport), trunk: d.trunk, priority: d.priority };
      const dest: Obj = {
        destination: d.destination,
        transport: transportName(d.transport),
        priority: d.priority,
      };
      if (d.transport === 5 && d.trunk_id !== null) dest.trunk_id = d.trunk_id;
      return dest;
    });
  }
  if (n.on_delete !== undefined) o.on_delete = n.on_delete;
  return o;
}

/**
 * A number's `sub_account:` names a sub-account the file declares when the file has `sub_accounts:`
 * (one it does not declare would be unmanaged, or disabled by `--prune`, while its numbers are
 * managed): by name (declared once, or pinned twice: then by id) or by a pinned `id:`. Without
 * `sub_accounts:`, the name or id is looked up in the account when planning.
 */
function checkTenant(
  ref: unknown,
  segments: PathSegment[],
  declaredSubs: Obj[] | undefined,
  { padded, report }: Pick<FileCheckTools, "padded" | "report">,
): void {
  if (typeof ref === "string") {
    if (padded(ref, segments, "sub-account name") || declaredSubs === undefined) return;
    const named = declaredSubs.filter((s) => s.name === ref);
    if (named.length === 0) {
      report({ segments, message: `sub-account ${quoteName(ref)} is not declared in sub_accounts: declare it there (its numbers are managed with its key)` });
    } else if (named.length > 1) {
      const ids = named.map((s) => s.id).filter((id) => typeof id === "number");
      report({ segments, message: `sub-account name ${quoteName(ref)} is declared ${named.length} times: write the id of the one that owns the number (${ids.join(" or ")})` });
    }
  } else if (typeof ref === "number" && Number.isInteger(ref) && declaredSubs !== undefined) {
    if (!declaredSubs.some((s) => s.id === ref)) {
      report({ segments, message: `sub-account id ${ref} is not pinned in sub_accounts: declare that sub-account with id: ${ref}, or write its name` });
    }
  }
}

export const numberFileForm: FileForm<DesiredNumber[]> = {
  entryKey: { of: (e) => String(e.number), fields: (key) => ({ number: key }) },
  urls: [
    ["*", "sms_relay_url"],
    ["*", "call_status_url"],
  ],

  check(value, { root, lineOf, describePath, unique, urlCheck, padded, report, document }) {
    const trunkLabels = new Set(Array.isArray(root.sip_trunks) ? root.sip_trunks.map((t: unknown) => (isObj(t) ? t.label : undefined)) : []);
    if (!Array.isArray(value)) return;
    const byDigits = new Map<string, number>();
    const declaredSubs = Array.isArray(document.sub_accounts) ? (document.sub_accounts as unknown[]).filter(isObj) : undefined;
    value.forEach((n: unknown, i) => {
      if (!isObj(n)) return;
      checkTenant(n.sub_account, ["numbers", i, "sub_account"], declaredSubs, { padded, report });
      if (typeof n.number === "string" && /^\+?[0-9]+$/.test(n.number)) {
        const digits = normalizeDigits(n.number);
        unique(byDigits, digits, "numbers", i, "number", `number "${digits}"`);
      }
      urlCheck(n.sms_relay_url, ["numbers", i, "sms_relay_url"]);
      urlCheck(n.call_status_url, ["numbers", i, "call_status_url"]);
      if (Array.isArray(n.destinations)) {
        // Destinations are a set (docs/CONTRACT.md part 4): an exact repeat would be merged silently.
        const seenDest = new Map<string, number>();
        n.destinations.forEach((d: unknown, j) => {
          if (!isObj(d)) return;
          const segs: PathSegment[] = ["numbers", i, "destinations", j];
          const t = d.transport;
          const isTrunk = t === "trunk" || t === 5;
          const known = isTrunk || t === "sip" || t === "pstn" || t === 1 || t === 4;
          if (!known) return; // the schema reports the transport itself
          const hasTrunkId = d.trunk_id !== undefined && d.trunk_id !== null;
          const byLabel = typeof d.trunk === "string";
          if (byLabel) {
            // `trunk: LABEL` stands for the destination and the trunk_id of a trunk declared in sip_trunks.
            if (!isTrunk) report({ segments: [...segs, "trunk"], atKey: true, message: `trunk is only allowed with transport trunk, not ${String(t)}` });
            else if (hasTrunkId) report({ segments: [...segs, "trunk_id"], atKey: true, message: "give trunk: (a declared trunk's label) or trunk_id:, not both" });
            else if (d.destination !== undefined) report({ segments: [...segs, "destination"], atKey: true, message: "with trunk: the destination is the trunk's login, filled in; remove destination" });
            else if (!trunkLabels.has(d.trunk)) report({ segments: [...segs, "trunk"], message: `SIP trunk ${quoteName(d.trunk as string)} is not declared in sip_trunks (declare it there, or give destination and trunk_id)` });
          } else if (d.destination === undefined) {
            report({ segments: segs, message: 'missing required key "destination"' });
          }
          if ((typeof d.destination === "string" || byLabel) && typeof d.priority === "number") {
            const code = t === "sip" ? 1 : t === "pstn" ? 4 : t === "trunk" ? 5 : t;
            const key = JSON.stringify([d.priority, code, byLabel ? `trunk:${String(d.trunk)}` : d.destination, isTrunk ? (d.trunk_id ?? null) : null]);
            const first = seenDest.get(key);
            if (first === undefined) seenDest.set(key, j);
            else {
              const fs: PathSegment[] = ["numbers", i, "destinations", first];
              report({ segments: segs, message: `duplicate destination ${quoteName(byLabel ? `trunk ${String(d.trunk)}` : String(d.destination))}: first declared at line ${lineOf(fs)} (${describePath(fs)})` });
            }
          }
          // Seed 2.2: trunk_id is the SIP trunk when transport is 5, otherwise null.
          if (byLabel) return;
          if (isTrunk && !hasTrunkId) {
            report({ segments: segs, message: "transport trunk requires trunk_id (the SIP trunk's ID)" });
          } else if (!isTrunk && hasTrunkId) {
            report({
              segments: [...segs, "trunk_id"],
              atKey: true,
              message: `trunk_id is only allowed with transport trunk, not ${String(t)}`,
            });
          }
        });
      }
    });
  },

  normalize(value, positionOf) {
    if (!Array.isArray(value)) return undefined;
    return (value as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["numbers", i];
      const n: DesiredNumber = { number: normalizeDigits(raw.number as string), path: formatPath(segs) };
      copy(n, raw, "sms_enabled");
      copy(n, raw, "sms_relay_url");
      copy(n, raw, "call_status_url");
      copy(n, raw, "call_recording_enabled");
      copy(n, raw, "transcription_enabled");
      copy(n, raw, "transcription_threshold");
      if (Array.isArray(raw.destinations)) {
        n.destinations = (raw.destinations as Obj[]).map(normalizeDestination);
      }
      copy(n, raw, "on_delete");
      copy(n, raw, "sub_account");
      const pos = positionOf(segs);
      if (pos) n.pos = pos;
      return n;
    });
  },

  toFile: (declared) => declared.map(numberFileObject),
};
