/**
 * Sender IDs in saved plans (docs/SAVED-PLANS.md). The read is the Sender ID the plan matched — id,
 * sender_id, type, countries (`allowlisted_in`, as a sorted set), usecase and samples (a sorted set)
 * — or null for a create (no Sender ID had the identity); the op is the file's Sender ID (a create or
 * a replace) or nothing (a delete). The recheck is one listing, whatever the number of ops: the API
 * has no cheaper read that shows an identity is still free.
 */
import type { SenderId } from "../../client/types";
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { oneOf, record, shown, SavedDataError, text, textOrNull } from "../../kit/file/saved-data";
import { senderIdFileObject, senderIdIdentity, senderIdKey } from "./file";
import { currentIdentity, listAllSenderIds } from "./handler";
import type { DesiredSenderId, SenderIdOp } from "./types";
import { actionOf } from "../../kit/file/saved-data";

/** What a plan read of a Sender ID and a saved plan keep, normalised as the diff compares them. */
interface SenderIdRead {
  id: string;
  sender_id: string;
  type: string;
  countries: string[];
  usecase: string | null;
  samples: string[];
}

const sortedSet = (xs: readonly string[] | undefined): string[] => [...new Set(xs ?? [])].sort();

function readOf(s: SenderId): SenderIdRead {
  return { id: s.id, sender_id: s.sender_id, type: s.type, countries: sortedSet(s.allowlisted_in), usecase: s.usecase ?? null, samples: sortedSet(s.samples) };
}

function textList(v: unknown, what: string): string[] {
  if (!Array.isArray(v)) throw new SavedDataError(`${what} is not a list`);
  return v.map((x, i) => text(x, `${what}[${i}]`));
}

function loadRead(v: unknown, key: string): SenderIdRead {
  const r = record(v, "read");
  const out: SenderIdRead = {
    id: text(r.id, "read.id"),
    sender_id: text(r.sender_id, "read.sender_id"),
    type: text(r.type, "read.type"),
    countries: textList(r.countries, "read.countries"),
    usecase: textOrNull(r.usecase, "read.usecase"),
    samples: textList(r.samples, "read.samples"),
  };
  if (out.id === "") throw new SavedDataError("read.id is empty");
  if (senderIdIdentity(out.sender_id) !== senderIdIdentity(key)) throw new SavedDataError(`read.sender_id is not the item's Sender ID "${key}"`);
  return out;
}

const USECASES = ["transactional", "promo", "authentication"] as const;
const VOLUMES = ["1-1000", "1001-20000", "20001-50000", "50001-100000", "More than 100000"] as const;

function loadDesired(v: unknown, key: string): DesiredSenderId {
  const d = record(v, "op.desired");
  const type = oneOf(d.type, ["numeric", "alphanumeric"] as const, "op.desired.type");
  const sender_id = text(d.sender_id, "op.desired.sender_id");
  if (sender_id === "" || senderIdKey(sender_id, type) !== key) throw new SavedDataError(`op.desired.sender_id is not the item's Sender ID "${key}"`);
  if (type === "numeric" && !/^\d{1,20}$/.test(sender_id)) throw new SavedDataError("op.desired.sender_id is not a numeric Sender ID's digits");
  const countries = textList(d.countries, "op.desired.countries");
  if (countries.length === 0) throw new SavedDataError("op.desired.countries is empty");
  countries.forEach((c, i) => {
    if (!/^[A-Z]{2}$/.test(c)) throw new SavedDataError(`op.desired.countries[${i}] is not a two-letter country code`);
  });
  const out: DesiredSenderId = { sender_id, type, countries: sortedSet(countries), usecase: oneOf(d.usecase, USECASES, "op.desired.usecase"), path: `sender_ids (saved plan: ${key})` };
  if (d.monthly_volume !== undefined) out.monthly_volume = oneOf(d.monthly_volume, VOLUMES, "op.desired.monthly_volume");
  if (d.samples !== undefined) out.samples = textList(d.samples, "op.desired.samples");
  if (d.replace !== undefined) {
    if (typeof d.replace !== "boolean") throw new SavedDataError("op.desired.replace is not true or false");
    out.replace = d.replace;
  }
  return out;
}

/** The record a loaded op deletes by: the writes use its id only (and the confirm its id and identity). */
function recordOf(read: SenderIdRead): SenderId {
  return { id: read.id, sender_id: read.sender_id, type: read.type, allowlisted_in: read.countries, ...(read.usecase !== null ? { usecase: read.usecase } : {}), samples: read.samples };
}

function changes(was: SenderIdRead, now: SenderId): string[] {
  const is = readOf(now);
  const out: string[] = [];
  for (const f of ["sender_id", "type", "countries", "usecase", "samples"] as const) {
    if (JSON.stringify(was[f]) !== JSON.stringify(is[f])) out.push(`${f} was ${shown(was[f])} when planned, now ${shown(is[f])}`);
  }
  return out;
}

export const senderIdSaved: SavedPlanSupport<SenderIdOp, DesiredSenderId[], SenderId[]> = {
  save(op) {
    if (op.action === "create") return { read: null, op: { desired: senderIdFileObject(op.desired) } };
    if (op.action === "replace") return { read: readOf(op.current), op: { desired: senderIdFileObject(op.desired) } };
    return { read: readOf(op.current), op: {} };
  },

  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["create", "replace", "delete"] as const, "Sender ID");
    if (action === "create") {
      if (saved.read !== null) throw new SavedDataError("read is not null for a create");
      return { key, action, desired: loadDesired(record(saved.op, "op").desired, key) };
    }
    const current = recordOf(loadRead(saved.read, key));
    if (action === "replace") {
      const desired = loadDesired(record(saved.op, "op").desired, key);
      if (desired.replace !== true) throw new SavedDataError("op.desired.replace is not true, and a Sender ID is only replaced where the file says replace: true");
      return { key, action, desired, current };
    }
    return { key, action, current };
  },

  // The declared Sender IDs of the ops' identities; the Sender IDs the plan read.
  replay(declared, ops) {
    const keys = new Set(ops.map((o) => o.key));
    return {
      declared: declared.filter((d) => keys.has(d.sender_id)),
      current: ops.filter((o): o is Exclude<SenderIdOp, { action: "create" }> => o.action !== "create").map((o) => o.current),
    };
  },

  async recheck(ctx, ops) {
    if (ops.length === 0) return [];
    const all = await listAllSenderIds(ctx.client);
    const out: Drift[] = [];
    for (const op of ops) {
      if (op.action === "create") {
        const taken = all.filter((s) => currentIdentity(s) === senderIdIdentity(op.key));
        if (taken.length > 0) out.push({ key: op.key, message: `absent when planned, now in the account (id ${taken.map((s) => s.id).join(", ")})` });
        continue;
      }
      const now = all.find((s) => s.id === op.current.id);
      if (!now) {
        out.push({ key: op.key, message: `Sender ID id ${op.current.id} is no longer in the account` });
        continue;
      }
      const changed = changes(readOf(op.current), now);
      const twins = all.filter((s) => s.id !== op.current.id && currentIdentity(s) === senderIdIdentity(op.key));
      if (twins.length > 0) changed.push(`another Sender ID with this identity is in the account now (id ${twins.map((s) => s.id).join(", ")})`);
      if (changed.length > 0) out.push({ key: op.key, message: changed.join("; ") });
    }
    return out;
  },
};
