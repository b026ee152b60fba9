/**
 * `sub_accounts:` in the file: unique names (their identity) and unique pinned ids; one name may be
 * declared twice when each declaration pins its own `id:` (docs/CONTRACT.md part 4), as `export` writes them.
 */
import type { DesiredSubAccount } from "./types";
import { quoteName } from "../../kit/file/messages";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileForm } from "../../kit/contract";
import { nfcProblem } from "../../kit/identity";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
/** Copies `k` only when present, so absent keys stay absent (not even set to undefined). */
function copy<T extends object>(target: T, source: Obj, k: string & keyof T): void {
  if (has(source, k)) (target as Obj)[k] = source[k];
}

/** A sub-account in the file format (keys absent from the state stay absent). */
export function subAccountFileObject(sa: Omit<DesiredSubAccount, "path" | "pos">): Obj {
  const o: Obj = { name: sa.name };
  if (sa.id !== undefined) o.id = sa.id;
  if (sa.status !== undefined) o.status = sa.status;
  if (sa.default_destinations !== undefined) {
    const dd: Obj = {};
    if (sa.default_destinations.sms_endpoint !== undefined) dd.sms_endpoint = sa.default_destinations.sms_endpoint;
    if (sa.default_destinations.dlr_endpoint !== undefined) dd.dlr_endpoint = sa.default_destinations.dlr_endpoint;
    o.default_destinations = dd;
  }
  return o;
}

/** The official create request's `maxLength` for a sub-account name. */
export const MAX_NAME = 255;

export const subAccountFileForm: FileForm<DesiredSubAccount[]> = {
  entryKey: { of: (e) => String(e.name), fields: (key) => ({ name: key }) },
  urls: [
    ["*", "default_destinations", "sms_endpoint"],
    ["*", "default_destinations", "dlr_endpoint"],
  ],

  check(value, { lineOf, describePath, unique, urlCheck, padded, report }) {
    if (!Array.isArray(value)) return;
    const byName = new Map<string, number>();
    const unpinned = new Map<string, number>();
    const byId = new Map<number, number>();
    value.forEach((sa: unknown, i) => {
      if (!isObj(sa)) return;
      if (typeof sa.name === "string" && sa.name !== sa.name.normalize("NFC")) {
        // The API stores names in Unicode NFC (issue #22): a name in another form would come back
        // different, never match by name, and be created again on every run (and sub-accounts
        // cannot be deleted).
        report({ segments: ["sub_accounts", i, "name"], message: nfcProblem(sa.name, `sub-account name ${quoteName(sa.name)}`)! });
        return;
      }
      if (typeof sa.name === "string" && [...sa.name].length > MAX_NAME) {
        report({ segments: ["sub_accounts", i, "name"], message: `sub-account name is ${[...sa.name].length} characters long: the API keeps at most ${MAX_NAME}` });
        return;
      }
      if (typeof sa.name === "string" && !padded(sa.name, ["sub_accounts", i, "name"], "sub-account name")) {
        const pinned = typeof sa.id === "number";
        const first = byName.get(sa.name);
        if (first === undefined) byName.set(sa.name, i);
        else if (!pinned || unpinned.has(sa.name)) {
          const fs: PathSegment[] = ["sub_accounts", unpinned.get(sa.name) ?? first];
          report({
            segments: ["sub_accounts", i, "name"],
            message:
              `duplicate sub-account name ${quoteName(sa.name)}: first declared at line ${lineOf(fs)} (${describePath(fs)}); ` +
              "give each its own id: to declare two sub-accounts of one name",
          });
        }
        if (!pinned && !unpinned.has(sa.name)) unpinned.set(sa.name, i);
      }
      if (typeof sa.id === "number") unique(byId, sa.id, "sub_accounts", i, "id", `sub-account id ${sa.id}`);
      if (isObj(sa.default_destinations)) {
        for (const k of ["sms_endpoint", "dlr_endpoint"]) {
          urlCheck(sa.default_destinations[k], ["sub_accounts", i, "default_destinations", k]);
        }
      }
    });
  },

  normalize(value, positionOf) {
    if (!Array.isArray(value)) return undefined;
    return (value as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["sub_accounts", i];
      const sa: DesiredSubAccount = { name: raw.name as string, path: formatPath(segs) };
      copy(sa, raw, "id");
      copy(sa, raw, "status");
      if (has(raw, "default_destinations")) {
        const dd = raw.default_destinations as Obj;
        const out: NonNullable<DesiredSubAccount["default_destinations"]> = {};
        copy(out, dd, "sms_endpoint");
        copy(out, dd, "dlr_endpoint");
        sa.default_destinations = out;
      }
      const pos = positionOf(segs);
      if (pos) sa.pos = pos;
      return sa;
    });
  },

  toFile: (declared) => declared.map(subAccountFileObject),
};
