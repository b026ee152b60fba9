/**
 * Checks JSON Schema cannot express (docs/CONTRACT.md parts 3-4): secrets in the file, duplicate
 * identities, trunk_id only with transport trunk, URLs that really parse, date windows in order.
 * They read the plain data defensively: the schema may have failed on the same file.
 */
import type { Node } from "yaml";
import { yamlLib } from "../kit/file/yaml-lib";
import type { PathSegment } from "../kit/file/yaml-nodes";
import { quote, quoteName } from "../kit/file/messages";
import { filePartsInFileOrder } from "../kinds/file-parts";
import type { RawProblem } from "../kit/file/problems";

export type { RawProblem } from "../kit/file/problems";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Key names that hold credentials, compared without case, `_`, `-` or spaces. Secrets never live in
 * the file (docs/CONTRACT.md part 3 and 8): keys come from the environment or Pulumi secret config.
 */
const SECRET_KEY = /(apikey|appkey|secret|password|passwd|passphrase|token|credential|bearer|authorization|privatekey|accesskey)/;
const SECRET_EXACT = new Set(["auth", "key", "pass", "pwd"]);

export function isSecretKey(key: string): boolean {
  // A key naming the environment variable that holds a secret (a trunk's `password_env`) holds no secret.
  if (/_env$/i.test(key)) return false;
  const k = key.toLowerCase().replace(/[-_\s.]/g, "");
  return SECRET_KEY.test(k) || SECRET_EXACT.has(k);
}

export const SECRET_KEY_MESSAGE =
  "secrets do not belong in this file: the API key comes from the WAVIX_API_KEY environment variable " +
  "or Pulumi secret config (`pulumi config set --secret wavix:apiKey`), sub-account keys are read from the API, " +
  "and a SIP trunk's password is named by `password_env: VARIABLE` (the environment variable that holds it)";

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

/** True for an absolute http(s) URL with a host; what the Wavix URL fields accept (docs/CONTRACT.md part 2). */
export function isHttpUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
}

/** Where the file holds URLs (docs/CONTRACT.md part 3), as paths with `*` for any list index: each kind's. */
let URL_FIELDS: (readonly string[])[] | undefined;
function urlFields(): (readonly string[])[] {
  URL_FIELDS ??= filePartsInFileOrder().flatMap((k) => k.fileForm.urls.map((u) => [k.file.key, ...u]));
  return URL_FIELDS;
}

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
  for (const f of urlFields()) fix(data, f);
}

/** YYYY-MM-DD naming a real day (the schema reports the others). */
/** Longest 2FA window, inclusive (a leap year): one request per session in it (docs/CONTRACT.md part 3). */
export const MAX_WINDOW_DAYS = 366;

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
      return;
    }
    // A user name or password in a URL (`https://user:pw@host/`) is a credential: it would be
    // stored in the account, shown in every plan and kept in git (issue #27). Never quoted.
    if (typeof v === "string" && isHttpUrl(v)) {
      const u = new URL(v);
      if (u.username !== "" || u.password !== "") {
        problems.push({
          segments: segs,
          message: `this URL carries a user name or password (https://user:password@host/...): credentials do not belong in this file, where every plan would show them and git would keep them; give the endpoint another way to authenticate (the URL is not shown here)`,
        });
      }
    }
  };

  /** Names and IDs are matched exactly: surrounding blanks would never match and cannot be seen. */
  const padded = (v: unknown, segs: PathSegment[], what: string): boolean => {
    if (typeof v !== "string" || v === "" || v.trim() === v) return false;
    problems.push({ segments: segs, message: `${what} ${quoteName(v)} has leading or trailing spaces; remove them (it is matched exactly)` });
    return true;
  };

  // Each resource kind's checks, in file order (src/kinds/<kind>/file.ts).
  const tools = { root: data, lineOf, describePath, unique, urlCheck, padded, report: (p: RawProblem) => problems.push(p), document: data };
  for (const kind of filePartsInFileOrder()) kind.fileForm.check(data[kind.file.key], tools);

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
    const services = new Map<string, number>();
    data.audit.two_fa.services.forEach((s: unknown, i) => {
      if (!isObj(s)) return;
      // A service listed twice would be one service with two thresholds and two rows of figures.
      if (typeof s.service_id === "string" && !padded(s.service_id, ["audit", "two_fa", "services", i, "service_id"], "service")) {
        const first = services.get(s.service_id);
        if (first === undefined) services.set(s.service_id, i);
        else {
          const fs: PathSegment[] = ["audit", "two_fa", "services", first];
          problems.push({
            segments: ["audit", "two_fa", "services", i, "service_id"],
            message: `duplicate service ${quoteName(s.service_id)}: first declared at line ${lineOf(fs)} (${describePath(fs)})`,
          });
        }
      }
      // A window is both ends or neither (then the run gives it: audit --last / --from --to).
      if ((typeof s.from === "string") !== (typeof s.to === "string")) {
        const [has, lacks] = typeof s.from === "string" ? ["from", "to"] : ["to", "from"];
        problems.push({
          segments: ["audit", "two_fa", "services", i, has],
          message: `${has} without ${lacks}: give the service's window with both, or neither (then the run gives it: wavix-sync audit --last 30d, or --from DATE --to DATE)`,
        });
      }
      if (typeof s.from !== "string" || typeof s.to !== "string") return;
      if (isCalendarDate(s.from) && isCalendarDate(s.to) && s.from > s.to) {
        problems.push({
          segments: ["audit", "two_fa", "services", i, "to"],
          message: `the window ends (${s.to}) before it starts (${s.from})`,
        });
      } else if (isCalendarDate(s.from) && isCalendarDate(s.to)) {
        // Every session in a window costs one request for its events: ten years is thousands of GETs.
        const days = (Date.parse(`${s.to}T00:00:00Z`) - Date.parse(`${s.from}T00:00:00Z`)) / 86_400_000 + 1;
        if (days > MAX_WINDOW_DAYS) {
          problems.push({
            segments: ["audit", "two_fa", "services", i, "to"],
            message: `the window spans ${days} days, more than ${MAX_WINDOW_DAYS}: the audit reads each session's events with one request, so a window is at most a year (audit a longer span as several windows on purpose)`,
          });
        }
      }
    });
  }

  return problems;
}
