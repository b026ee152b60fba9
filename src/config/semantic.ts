/**
 * Checks JSON Schema cannot express (PRODUCT.md parts 3-4): secrets in the file, duplicate
 * identities, trunk_id only with transport trunk, URLs that really parse, date windows in order.
 * They read the plain data defensively: the schema may have failed on the same file.
 */
import type { Node } from "yaml";
import { yamlLib } from "./yaml-lib";
import type { PathSegment } from "./yaml-nodes";
import { normalizeDigits } from "./normalize";
import { quote, quoteName } from "./messages";

/** A problem before positions are attached: where (path, and whether the key or the value) and what. */
export interface RawProblem {
  segments: PathSegment[];
  /** Point at the key of the last segment rather than at its value. */
  atKey?: boolean;
  message: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Key names that hold credentials, compared without case, `_`, `-` or spaces. Secrets never live in
 * the file (PRODUCT.md part 3 and 8): keys come from the environment or Pulumi secret config.
 */
const SECRET_KEY = /(apikey|secret|password|passwd|passphrase|token|credential|bearer|authorization|privatekey|accesskey)/;
const SECRET_EXACT = new Set(["appid", "auth", "key", "pass", "pwd"]);

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s.]/g, "");
  return SECRET_KEY.test(k) || SECRET_EXACT.has(k);
}

export const SECRET_KEY_MESSAGE =
  "secrets do not belong in this file: the API key comes from the WAVIX_API_KEY environment variable " +
  "or Pulumi secret config (`pulumi config set --secret wavix:apiKey`), and sub-account keys are read from the API";

/** Every mapping key anywhere in the document whose name looks like a secret, with its path. */
export function findSecretKeys(root: Node | null): { segments: PathSegment[]; key: string }[] {
  const found: { segments: PathSegment[]; key: string }[] = [];
  const { isMap, isScalar, isSeq } = yamlLib();
  // Bounded by the document's size: each node is visited once (aliases are not followed).
  const walk = (node: unknown, segs: PathSegment[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (k === undefined) continue;
        if (isSecretKey(k)) found.push({ segments: [...segs, k], key: k });
        else walk(pair.value, [...segs, k]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...segs, i]));
    }
  };
  walk(root, []);
  return found;
}

export const SECRET_VALUE_MESSAGE =
  "this value contains the API key (WAVIX_API_KEY); secrets do not belong in this file, not even inside a URL: " +
  "remove it (the value is not shown here)";

/** Paths of the string values (and keys) anywhere in the document that contain one of `secrets`. */
export function findSecretValues(root: Node | null, secrets: readonly string[]): PathSegment[][] {
  const found: PathSegment[][] = [];
  if (secrets.length === 0) return found;
  const { isMap, isScalar, isSeq } = yamlLib();
  const holds = (v: unknown): boolean => typeof v === "string" && secrets.some((k) => v.includes(k));
  const walk = (node: unknown, segs: PathSegment[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (k === undefined) continue;
        if (holds(k)) found.push([...segs, k]);
        else walk(pair.value, [...segs, k]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...segs, i]));
    } else if (isScalar(node) && holds(node.value)) {
      found.push(segs);
    }
  };
  walk(root, []);
  return found;
}

/** True for an absolute http(s) URL with a host; what the Wavix URL fields accept (PRODUCT.md part 2). */
export function isHttpUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
}

/** Where the file holds URLs (PRODUCT.md part 3), as paths with `*` for any list index. */
const URL_FIELDS: readonly (readonly string[])[] = [
  ["sub_accounts", "*", "default_destinations", "sms_endpoint"],
  ["sub_accounts", "*", "default_destinations", "dlr_endpoint"],
  ["numbers", "*", "sms_relay_url"],
  ["numbers", "*", "call_status_url"],
  ["call_webhooks", "on-call"],
  ["call_webhooks", "post-call"],
];

/**
 * Internationalised URLs (`https://münchen.example/hook`) rewritten in place to their ASCII form
 * (`https://xn--mnchen-3ya.example/hook`, non-ASCII path bytes percent-encoded): the form a URI
 * field takes on the wire, so it is what is validated, sent and compared. ASCII URLs are left
 * exactly as written (`new URL` would add a trailing `/` to a bare host and cause a diff).
 */
export function asciiUrls(data: unknown): void {
  const fix = (holder: unknown, path: readonly string[]): void => {
    if (!isObj(holder) && !Array.isArray(holder)) return;
    const [head, ...rest] = path;
    if (head === "*") {
      if (Array.isArray(holder)) for (const item of holder) fix(item, rest);
      return;
    }
    if (!isObj(holder)) return;
    if (rest.length > 0) return fix(holder[head], rest);
    const v = holder[head];
    if (typeof v !== "string" || !/[^\x00-\x7f]/.test(v) || !/^https?:\/\//i.test(v)) return;
    try {
      holder[head] = new URL(v).href;
    } catch {
      // Left as written: the schema reports it.
    }
  };
  for (const f of URL_FIELDS) fix(data, f);
}

/** YYYY-MM-DD naming a real day (the schema reports the others). */
function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** `line 5 (numbers[0])`-style reference to an earlier node, given a lookup of line by path. */
export type LineOf = (segments: PathSegment[]) => number;

export function semanticProblems(data: unknown, lineOf: LineOf, describePath: (s: PathSegment[]) => string): RawProblem[] {
  const problems: RawProblem[] = [];
  if (!isObj(data)) return problems;

  /** Remembers the first item holding `key`; a later one is reported as a duplicate pointing back at it. */
  const unique = <K>(seen: Map<K, number>, key: K, list: string, i: number, field: string, what: string): void => {
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    const fs: PathSegment[] = [list, first];
    problems.push({
      segments: [list, i, field],
      message: `duplicate ${what}: first declared at line ${lineOf(fs)} (${describePath(fs)})`,
    });
  };

  const urlCheck = (v: unknown, segs: PathSegment[]): void => {
    // ajv-formats' "uri" lets `https://` (no host) through; the API would refuse it.
    if (typeof v === "string" && /^https?:\/\//i.test(v) && !isHttpUrl(v)) {
      problems.push({ segments: segs, message: `expected an http(s) URL, got the string ${quote(v)}` });
    }
  };

  /** Names and IDs are matched exactly: surrounding blanks would never match and cannot be seen. */
  const padded = (v: unknown, segs: PathSegment[], what: string): boolean => {
    if (typeof v !== "string" || v === "" || v.trim() === v) return false;
    problems.push({ segments: segs, message: `${what} ${quoteName(v)} has leading or trailing spaces; remove them (it is matched exactly)` });
    return true;
  };

  // Sub-accounts: unique names (their identity) and unique pinned ids. One name may be declared
  // twice when each declaration pins its own `id:` (PRODUCT.md part 4), as `export` writes them.
  if (Array.isArray(data.sub_accounts)) {
    const byName = new Map<string, number>();
    const unpinned = new Map<string, number>();
    const byId = new Map<number, number>();
    data.sub_accounts.forEach((sa: unknown, i) => {
      if (!isObj(sa)) return;
      if (typeof sa.name === "string" && !padded(sa.name, ["sub_accounts", i, "name"], "sub-account name")) {
        const pinned = typeof sa.id === "number";
        const first = byName.get(sa.name);
        if (first === undefined) byName.set(sa.name, i);
        else if (!pinned || unpinned.has(sa.name)) {
          const fs: PathSegment[] = ["sub_accounts", unpinned.get(sa.name) ?? first];
          problems.push({
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
  }

  // Numbers: unique by digits once `+` is dropped (PRODUCT.md part 4, identity), trunk rules.
  if (Array.isArray(data.numbers)) {
    const byDigits = new Map<string, number>();
    data.numbers.forEach((n: unknown, i) => {
      if (!isObj(n)) return;
      if (typeof n.number === "string" && /^\+?[0-9]+$/.test(n.number)) {
        const digits = normalizeDigits(n.number);
        unique(byDigits, digits, "numbers", i, "number", `number "${digits}"`);
      }
      urlCheck(n.sms_relay_url, ["numbers", i, "sms_relay_url"]);
      urlCheck(n.call_status_url, ["numbers", i, "call_status_url"]);
      if (Array.isArray(n.destinations)) {
        // Destinations are a set (PRODUCT.md part 4): an exact repeat would be merged silently.
        const seenDest = new Map<string, number>();
        n.destinations.forEach((d: unknown, j) => {
          if (!isObj(d)) return;
          const segs: PathSegment[] = ["numbers", i, "destinations", j];
          const t = d.transport;
          const isTrunk = t === "trunk" || t === 5;
          const known = isTrunk || t === "sip" || t === "pstn" || t === 1 || t === 4;
          if (!known) return; // the schema reports the transport itself
          const hasTrunkId = d.trunk_id !== undefined && d.trunk_id !== null;
          if (typeof d.destination === "string" && typeof d.priority === "number") {
            const code = t === "sip" ? 1 : t === "pstn" ? 4 : t === "trunk" ? 5 : t;
            const key = JSON.stringify([d.priority, code, d.destination, isTrunk ? (d.trunk_id ?? null) : null]);
            const first = seenDest.get(key);
            if (first === undefined) seenDest.set(key, j);
            else {
              const fs: PathSegment[] = ["numbers", i, "destinations", first];
              problems.push({ segments: segs, message: `duplicate destination ${quoteName(d.destination)}: first declared at line ${lineOf(fs)} (${describePath(fs)})` });
            }
          }
          // Seed 2.2: trunk_id is the SIP trunk when transport is 5, otherwise null.
          if (isTrunk && !hasTrunkId) {
            problems.push({ segments: segs, message: "transport trunk requires trunk_id (the SIP trunk's ID)" });
          } else if (!isTrunk && hasTrunkId) {
            problems.push({
              segments: [...segs, "trunk_id"],
              atKey: true,
              message: `trunk_id is only allowed with transport trunk, not ${String(t)}`,
            });
          }
        });
      }
    });
  }

  if (isObj(data.call_webhooks)) {
    for (const k of ["on-call", "post-call"]) urlCheck(data.call_webhooks[k], ["call_webhooks", k]);
  }

  // Audit lists: a repeated brand or session would be audited (and charged in totals) twice.
  const uniqueList = (list: unknown, segs: PathSegment[], what: string): void => {
    if (!Array.isArray(list)) return;
    const seen = new Map<string, number>();
    list.forEach((v: unknown, i) => {
      if (typeof v !== "string" || padded(v, [...segs, i], what)) return;
      const first = seen.get(v);
      if (first === undefined) seen.set(v, i);
      else {
        const fs = [...segs, first];
        problems.push({ segments: [...segs, i], message: `duplicate ${what} ${quoteName(v)}: first declared at line ${lineOf(fs)} (${describePath(fs)})` });
      }
    });
  };
  if (isObj(data.audit) && isObj(data.audit.ten_dlc)) uniqueList(data.audit.ten_dlc.brands, ["audit", "ten_dlc", "brands"], "brand");
  if (isObj(data.audit) && isObj(data.audit.two_fa)) uniqueList(data.audit.two_fa.sessions, ["audit", "two_fa", "sessions"], "session");

  // 2FA windows: `from` after `to` would silently audit nothing.
  if (isObj(data.audit) && isObj(data.audit.two_fa) && Array.isArray(data.audit.two_fa.services)) {
    data.audit.two_fa.services.forEach((s: unknown, i) => {
      if (!isObj(s) || typeof s.from !== "string" || typeof s.to !== "string") return;
      if (isCalendarDate(s.from) && isCalendarDate(s.to) && s.from > s.to) {
        problems.push({
          segments: ["audit", "two_fa", "services", i, "to"],
          message: `the window ends (${s.to}) before it starts (${s.from})`,
        });
      }
    });
  }

  return problems;
}
