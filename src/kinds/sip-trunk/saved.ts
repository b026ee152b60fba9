/**
 * SIP trunks in saved plans (docs/SAVED-PLANS.md). The password is write-only and a secret: a saved
 * plan never holds it, only the name of the environment variable holding it (`password_env`, as in
 * the file), and `apply --plan` reads that variable when it sends the password (a create, and every
 * update: the official PUT requires it; `--rotate-password LABEL` is recorded as `rotate: true`). A
 * plan needing it is refused before anything is sent when the variable is not set or empty.
 *
 * The read is the trunk the plan matched — id, label and every setting the API showed, normalised as
 * the diff compares them; a field the API did not show is left out — or null for a create. The writes never
 * use the read's fields: a PUT is built from a fresh read, which must show every setting the file
 * leaves out (handler.ts), on this path as on `apply`. The recheck is one GET per updated or deleted
 * trunk; when the plan creates any, the trunk listing too (the only read that shows a label is still
 * free); and when it deletes any, the account's numbers (the read the plan made to see that none
 * routes to them).
 */
import type { SipTrunk, SipTrunkSummary } from "../../client/types";
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { notFoundToUndefined } from "../../client/not-found";
import { listAllNumbers } from "../number/public";
import { actionOf, record, shown, SavedDataError, SavedPlanNotReadyError, text, wholeNumber } from "../../kit/file/saved-data";
import { sipTrunkFileObject, TRUNK_SETTING_KEYS, type TrunkSettingKey } from "./file";
import { currentValue, listAllTrunks, passwordProblem, sameMoney, type PasswordUse, type TrunkSettings } from "./handler";
import type { SipTrunkOp, TrunkCurrent } from "./op";
import type { DesiredSipTrunk } from "./types";

const BOOLEAN_KEYS = new Set<TrunkSettingKey>([
  "multiple_numbers",
  "ip_restrict",
  "didinfo_enabled",
  "call_restrict",
  "cost_limit",
  "channels_restrict",
  "rewrite_enabled",
  "call_recording_enabled",
  "transcription_enabled",
  "machine_detection_enabled",
  "encrypted_media",
]);
const WHOLE_KEYS = new Set<TrunkSettingKey>(["call_limit", "max_channels", "transcription_threshold"]);

/**
 * Every setting `current` shows, in the diff's normal form: the replay's plan needs them all (a PUT
 * is planned only from a read showing every setting it carries, handler.ts), the recheck compares
 * the managed ones.
 */
function shownRead(current: SipTrunk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TRUNK_SETTING_KEYS) {
    const v = currentValue(current, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The managed fields of `desired` as `current` holds them (the diff's normal form). */
function managedRead(desired: TrunkSettings, current: SipTrunk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TRUNK_SETTING_KEYS) if (desired[k] !== undefined) out[k] = currentValue(current, k);
  return out;
}

function sameValue(k: TrunkSettingKey, a: unknown, b: unknown): boolean {
  if (k === "max_call_cost") return sameMoney(a as string | null, b as string | null);
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** One managed field's value as a saved plan holds it (desired: as the file takes it; read: also null). */
function loadSetting(k: TrunkSettingKey, v: unknown, what: string, read: boolean): unknown {
  if (read && v === null) return null;
  if (BOOLEAN_KEYS.has(k)) {
    if (typeof v !== "boolean") throw new SavedDataError(`${what} is not true or false`);
    return v;
  }
  if (WHOLE_KEYS.has(k)) {
    const n = wholeNumber(v, what);
    if (n < 0) throw new SavedDataError(`${what} is negative`);
    return n;
  }
  if (k === "allowed_ips") {
    if (!Array.isArray(v)) throw new SavedDataError(`${what} is not a list`);
    return v.map((x, i) => text(x, `${what}[${i}]`));
  }
  const s = text(v, what);
  if (k === "max_call_cost" && !read && !/^[0-9]{1,9}(\.[0-9]{1,6})?$/.test(s)) throw new SavedDataError(`${what} is not an amount of money as decimal text`);
  if (k === "callerid" && !read && !/^[0-9]*$/.test(s)) throw new SavedDataError(`${what} is not a number's digits`);
  if ((k === "rewrite_prefix" || k === "rewrite_cond") && !read && !/^[0-9]*$/.test(s)) throw new SavedDataError(`${what} is not digits`);
  if (k === "host" && !read && s === "") throw new SavedDataError(`${what} is empty`);
  return s;
}

function loadDesired(v: unknown, key: string): TrunkSettings {
  const d = record(v, "op.desired");
  const label = text(d.label, "op.desired.label");
  if (label !== key) throw new SavedDataError(`op.desired.label is not the item's label "${key}"`);
  const out: Record<string, unknown> = { label };
  for (const k of Object.keys(d)) {
    if (k !== "label" && k !== "id" && k !== "password_env" && !(TRUNK_SETTING_KEYS as readonly string[]).includes(k)) throw new SavedDataError(`op.desired.${k} is not a SIP trunk setting`);
  }
  if (d.id !== undefined) {
    out.id = wholeNumber(d.id, "op.desired.id");
    if ((out.id as number) < 1) throw new SavedDataError("op.desired.id is not a trunk id");
  }
  if (d.password_env !== undefined) {
    const name = text(d.password_env, "op.desired.password_env");
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new SavedDataError("op.desired.password_env is not an environment variable's name");
    out.password_env = name;
  }
  for (const k of TRUNK_SETTING_KEYS) if (d[k] !== undefined) out[k] = loadSetting(k, d[k], `op.desired.${k}`, false);
  return out as unknown as TrunkSettings;
}

/** The managed fields a loaded update's plan read (the recheck compares them), by op. */
const plannedFields = new WeakMap<object, Record<string, unknown>>();

interface TrunkRead {
  id: number;
  label: string;
  fields: Record<string, unknown>;
}

function loadRead(v: unknown): TrunkRead {
  const r = record(v, "read");
  const { id, label, ...rest } = r;
  const out: TrunkRead = { id: wholeNumber(id, "read.id"), label: text(label, "read.label"), fields: {} };
  for (const [k, value] of Object.entries(rest)) {
    if (!(TRUNK_SETTING_KEYS as readonly string[]).includes(k)) throw new SavedDataError(`read.${k} is not a SIP trunk setting`);
    out.fields[k] = loadSetting(k as TrunkSettingKey, value, `read.${k}`, true);
  }
  // A setting op.desired sets may be absent: the API did not show it when planned (the official
  // SIPTrunkResponse requires few fields); the recheck compares it with what shows now.
  return out;
}

/** Refuses, before anything is sent, a plan that must send a password this run cannot read. */
function needPassword(desired: TrunkSettings, why: PasswordUse): void {
  const problem = passwordProblem(desired, why);
  if (problem) throw new SavedPlanNotReadyError(problem.replace(/; nothing was written$/, ""));
}

/**
 * The trunk as the plan read it, from the managed fields it recorded (normalised as `currentValue`
 * gives them; the record built so `currentValue` gives them back unchanged).
 */
function recordOf(id: number, label: string, fields: Record<string, unknown>): SipTrunk {
  const t: Record<string, unknown> = { id, label };
  for (const [k, v] of Object.entries(fields)) t[k] = k === "allowed_ips" && Array.isArray(v) ? v.map((ip) => ({ ip })) : v;
  return t as unknown as SipTrunk;
}

export const sipTrunkSaved: SavedPlanSupport<SipTrunkOp, DesiredSipTrunk[], TrunkCurrent> = {
  // `desired` is the file's trunk: `password_env` is a variable's name; the value is never here.
  save(op) {
    if (op.action === "create") return { read: null, op: { desired: sipTrunkFileObject(op.desired) } };
    if (op.action === "update") {
      return { read: { id: op.current.id, label: op.current.label, ...shownRead(op.current) }, op: { desired: sipTrunkFileObject(op.desired), rotate: op.rotate } };
    }
    return { read: { id: op.current.id, label: op.current.label }, op: {} };
  },

  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["create", "update", "delete"] as const, "SIP trunk");
    if (action === "create") {
      if (saved.read !== null) throw new SavedDataError("read is not null for a create");
      const desired = loadDesired(record(saved.op, "op").desired, key);
      if (desired.id !== undefined) throw new SavedDataError("op.desired.id is set for a create (a pinned trunk is never created)");
      needPassword(desired, "create");
      return { key, action, desired };
    }
    if (action === "update") {
      const o = record(saved.op, "op");
      const desired = loadDesired(o.desired, key);
      if (typeof o.rotate !== "boolean") throw new SavedDataError("op.rotate is not true or false");
      const read = loadRead(saved.read);
      if (desired.id !== undefined && desired.id !== read.id) throw new SavedDataError("op.desired.id is not read.id");
      if (desired.id === undefined && read.label !== key) throw new SavedDataError(`read.label is not the item's label "${key}"`);
      needPassword(desired, o.rotate ? "rotate" : "update");
      // The writes use the id and label only: a PUT is always built from a fresh read (handler.ts).
      const op: SipTrunkOp = { key, action, desired, current: { id: read.id, label: read.label } as SipTrunk, rotate: o.rotate };
      plannedFields.set(op, read.fields);
      return op;
    }
    const read = loadRead(saved.read);
    if (read.label !== key) throw new SavedDataError(`read.label is not the item's label "${key}"`);
    if (Object.keys(read.fields).length > 0) throw new SavedDataError("read holds settings, and a delete depends on none");
    return { key, action, current: { id: read.id, label: read.label } as SipTrunkSummary };
  },

  // The declared trunks pinning a read's id or (unpinned) of an op's label; the listing of the
  // trunks the plan read, and the record of each it updates.
  replay(declared, ops) {
    const keys = new Set(ops.map((o) => o.key));
    const list: SipTrunkSummary[] = [];
    const records = new Map<number, SipTrunk>();
    for (const op of ops) {
      if (op.action === "create") continue;
      list.push({ id: op.current.id, label: op.current.label } as SipTrunkSummary);
      if (op.action === "update") records.set(op.current.id, recordOf(op.current.id, op.current.label, plannedFields.get(op) ?? shownRead(op.current)));
    }
    const ids = new Set(list.map((t) => t.id));
    return { declared: declared.filter((d) => (d.id !== undefined ? ids.has(d.id) : keys.has(d.label))), current: { list, records } };
  },

  async recheck(ctx, ops) {
    const out: Drift[] = [];
    const creates = ops.filter((o) => o.action === "create");
    const existing = ops.filter((o): o is Exclude<SipTrunkOp, { action: "create" }> => o.action !== "create");
    const deletes = ops.filter((o) => o.action === "delete");
    const [list, records, numbers] = await Promise.all([
      creates.length > 0 ? listAllTrunks(ctx.client) : Promise.resolve([]),
      Promise.all(existing.map((o) => notFoundToUndefined(ctx.client.getTrunk(o.current.id)))),
      deletes.length > 0 ? listAllNumbers(ctx.client) : Promise.resolve([]),
    ]);
    for (const op of creates) {
      const taken = list.filter((t) => t.label === op.key);
      if (taken.length > 0) out.push({ key: op.key, message: `absent when planned, now in the account (id ${taken.map((t) => t.id).join(", ")})` });
    }
    existing.forEach((op, i) => {
      const now = records[i];
      if (now === undefined) {
        out.push({ key: op.key, message: `SIP trunk id ${op.current.id} is no longer in the account` });
        return;
      }
      const changed: string[] = [];
      if (now.id !== op.current.id) changed.push(`the API answered trunk id ${String(now.id)} when asked for id ${op.current.id}`);
      if (now.label !== op.current.label) changed.push(`label was ${shown(op.current.label)} when planned, now ${shown(now.label)}`);
      if (op.action === "update") {
        const was = plannedFields.get(op) ?? managedRead(op.desired, op.current);
        for (const k of TRUNK_SETTING_KEYS) {
          if (op.desired[k] === undefined) continue;
          const is = currentValue(now, k);
          if (!sameValue(k, was[k], is)) changed.push(`${k} was ${shown(was[k])} when planned, now ${shown(is)}`);
        }
      } else {
        const routed = numbers.filter((n) => (n.destination ?? []).some((d) => Number(d.transport) === 5 && d.trunk_id === op.current.id)).map((n) => n.number);
        if (routed.length > 0) changed.push(`${routed.length === 1 ? "number" : "numbers"} ${routed.slice(0, 10).join(", ")}${routed.length > 10 ? ` and ${routed.length - 10} more` : ""} now ${routed.length === 1 ? "routes" : "route"} to it`);
      }
      if (changed.length > 0) out.push({ key: op.key, message: changed.join("; ") });
    });
    return out;
  },
};

