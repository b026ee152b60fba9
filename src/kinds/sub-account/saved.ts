/**
 * Sub-accounts in saved plans (docs/SAVED-PLANS.md). The read is the record the plan matched —
 * id, name, status and the two endpoints, never its `api_key` — or null for a create (no
 * sub-account had the name). The recheck reads each updated or disabled sub-account by id (one GET
 * each); when the plan creates any, one listing instead, the only read that shows a name is still
 * free, and it covers the others too.
 */
import type { SubAccount } from "../../client/types";
import type { Drift, SavedPlanSupport } from "../../kit/contract";
import { notFoundToUndefined } from "../../client/not-found";
import { actionOf, httpUrl, oneOf, record, shown, SavedDataError, text, textOrNull, wholeNumber } from "../../kit/file/saved-data";
import { endpointOrNull, listAllSubAccounts, type SubAccountSettings } from "./handler";
import type { SubAccountOp } from "./op";
import type { DesiredSubAccount } from "./types";
import { sameName } from "../../kit/identity";

/** What a plan read of a sub-account and a saved plan keeps: no `api_key`, endpoints normalised. */
interface SubAccountRead {
  id: number;
  name: string;
  status: string;
  sms_endpoint: string | null;
  dlr_endpoint: string | null;
}

function readOf(s: SubAccount): SubAccountRead {
  const dd = s.default_destinations ?? {};
  return { id: s.id, name: s.name, status: s.status, sms_endpoint: endpointOrNull(dd.sms_endpoint), dlr_endpoint: endpointOrNull(dd.dlr_endpoint) };
}

function loadRead(v: unknown): SubAccountRead {
  const r = record(v, "read");
  return {
    id: wholeNumber(r.id, "read.id"),
    name: text(r.name, "read.name"),
    status: text(r.status, "read.status"),
    sms_endpoint: textOrNull(r.sms_endpoint, "read.sms_endpoint"),
    dlr_endpoint: textOrNull(r.dlr_endpoint, "read.dlr_endpoint"),
  };
}

function loadDesired(v: unknown, key: string): SubAccountSettings {
  const d = record(v, "op.desired");
  const out: SubAccountSettings = { name: text(d.name, "op.desired.name") };
  if (out.name !== key && d.id === undefined) throw new SavedDataError(`op.desired.name is not the item's name "${key}"`);
  if (d.id !== undefined) out.id = wholeNumber(d.id, "op.desired.id");
  if (d.status !== undefined) out.status = oneOf(d.status, ["enabled", "disabled"] as const, "op.desired.status");
  if (d.sms_endpoint !== undefined) out.sms_endpoint = httpUrl(d.sms_endpoint, "op.desired.sms_endpoint");
  if (d.dlr_endpoint !== undefined) out.dlr_endpoint = httpUrl(d.dlr_endpoint, "op.desired.dlr_endpoint");
  return out;
}

/**
 * The record a loaded op writes from. The writes use its id and name only: a PUT is always built
 * from a fresh read of the record by id (handler.ts, `updateSubAccount`), so the key, creation
 * time and organisation a saved plan leaves out are never sent.
 */
function recordOf(read: SubAccountRead): SubAccount {
  return {
    id: read.id,
    name: read.name,
    status: read.status,
    default_destinations: { sms_endpoint: read.sms_endpoint, dlr_endpoint: read.dlr_endpoint },
  } as SubAccount;
}

function changes(was: SubAccountRead, now: SubAccount): string[] {
  const is = readOf(now);
  const out: string[] = [];
  for (const f of ["name", "status", "sms_endpoint", "dlr_endpoint"] as const) {
    if (was[f] !== is[f]) out.push(`${f === "name" || f === "status" ? f : `default_destinations.${f}`} was ${shown(was[f])} when planned, now ${shown(is[f])}`);
  }
  return out;
}

export const subAccountSaved: SavedPlanSupport<SubAccountOp, DesiredSubAccount[], SubAccount[]> = {
  save(op) {
    if (op.action === "create") return { read: null, op: { desired: op.desired } };
    if (op.action === "update") return { read: readOf(op.current), op: { desired: op.desired } };
    return { read: readOf(op.current), op: {} };
  },

  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["create", "update", "delete"] as const, "sub-account");
    if (action === "create") {
      if (saved.read !== null) throw new SavedDataError("read is not null for a create");
      return { key, action, desired: loadDesired(record(saved.op, "op").desired, key) };
    }
    const read = loadRead(saved.read);
    if (action === "update") return { key, action, desired: loadDesired(record(saved.op, "op").desired, key), current: recordOf(read) };
    return { key, action, current: recordOf(read) };
  },

  // The declared sub-accounts these ops are about: those pinning a read's id, and (unpinned) those
  // named by an op's key; the reads as the listing the plan matched them in.
  replay(declared, ops) {
    const keys = new Set(ops.map((o) => o.key));
    const read = ops.filter((o): o is Exclude<SubAccountOp, { action: "create" }> => o.action !== "create").map((o) => o.current);
    const ids = new Set(read.map((s) => s.id));
    return { declared: declared.filter((d) => (d.id !== undefined ? ids.has(d.id) : keys.has(d.name))), current: read };
  },

  async recheck(ctx, ops) {
    if (ops.length === 0) return [];
    const creates = ops.filter((o) => o.action === "create");
    const existing = ops.filter((o) => o.action !== "create") as Exclude<SubAccountOp, { action: "create" }>[];
    const out: Drift[] = [];
    // The listing, when a create needs it anyway: it answers for every op at once.
    const all = creates.length > 0 ? await listAllSubAccounts(ctx.client) : undefined;
    for (const op of creates) {
      const named = all!.filter((s) => sameName(s.name, op.desired.name));
      if (named.length > 0) {
        out.push({ key: op.key, message: `no sub-account had this name when planned; now ${named.map((s) => `id ${s.id}`).join(", ")} ${named.length === 1 ? "has" : "have"} it` });
      }
    }
    const now = await Promise.all(
      existing.map(async (op) => (all ? all.find((s) => s.id === op.current.id) : await notFoundToUndefined(ctx.client.getSubAccount(op.current.id)))),
    );
    existing.forEach((op, i) => {
      const was = readOf(op.current);
      const is = now[i];
      if (is === undefined) {
        out.push({ key: op.key, message: `sub-account id ${was.id} no longer exists` });
        return;
      }
      if (is.id !== was.id) {
        out.push({ key: op.key, message: `the API answered sub-account id ${String(is.id)} when asked for id ${was.id}` });
        return;
      }
      const diffs = changes(was, is);
      if (diffs.length > 0) out.push({ key: op.key, message: diffs.join("; ") });
    });
    return out;
  },
};
