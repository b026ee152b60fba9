/**
 * Numbers in saved plans (docs/SAVED-PLANS.md). The read is the number's id and digits and the
 * fields the file manages, as the plan read them (normalised as the diff compares them); the op is
 * the desired settings and the fields to write. The recheck reads those numbers again by id: one
 * GET each when they are few, else the listing's pages when that costs fewer requests
 * (`rereadNumbers`), never more than one request per number plus one.
 *
 * A tenant's number (`sub_account:`) saves its owner's id and name, never its key. The recheck
 * reads that sub-account by id with the master key (one GET per owner), refuses when it is gone or
 * renamed, and re-reads the owner's numbers with the key it answered; the op's owner then holds a
 * client with that key (memory only) for the writes. Until then the loaded owner's client sends
 * nothing. A number routed to a trunk the same plan creates (`newTrunks`) is not saved yet.
 */
import type { WavixNumber } from "../../client/types";
import { canonicalDestinations, destinationsForWire, sameDestinations, type CanonicalDestination } from "./destinations";
import { ForbiddenError, UnauthorizedError, type WavixClient } from "../../client";
import { notFoundToUndefined } from "../../client/not-found";
import type { Drift, RecheckContext, SavedPlanSupport } from "../../kit/contract";
import { actionOf, httpUrl, oneOf, record, shown, SavedDataError, text, wholeNumber } from "../../kit/file/saved-data";
import { currentSettings, NUMBER_FIELDS, NUMBER_URL_FIELDS, patchFor, rereadNumbers, type NumberField, type NumberSettings } from "./handler";
import type { NumberOp, NumberOwner, NumbersRead } from "./op";
import type { DesiredNumber } from "./types";
import type { SubAccount } from "../../client/types";
import { tenantKey, tenantLabel, type TenantRead } from "./tenants";

/** The fields `desired` manages, as `current` holds them (normalised: an unset URL is null). */
export function managedSettings(desired: NumberSettings, current: WavixNumber): NumberSettings {
  const all = currentSettings(current);
  const out: Record<string, unknown> = {};
  for (const f of NUMBER_FIELDS) if (desired[f] !== undefined) out[f] = all[f];
  return out as NumberSettings;
}

function sameField(f: NumberField, a: unknown, b: unknown): boolean {
  return f === "destinations" ? sameDestinations(a as CanonicalDestination[], b as CanonicalDestination[]) : a === b;
}

/** Settings from a saved plan, each field checked against what the file's schema allows. */
function loadSettings(v: unknown, what: string): NumberSettings {
  const r = record(v, what);
  const out: Record<string, unknown> = {};
  for (const [f, value] of Object.entries(r)) {
    if (!(NUMBER_FIELDS as readonly string[]).includes(f)) throw new SavedDataError(`${what}.${f} is not a number setting`);
    const at = `${what}.${f}`;
    if (f === "sms_enabled" || f === "call_recording_enabled" || f === "transcription_enabled") {
      if (typeof value !== "boolean") throw new SavedDataError(`${at} is not true or false`);
      out[f] = value;
    } else if ((NUMBER_URL_FIELDS as readonly string[]).includes(f)) {
      out[f] = value === null ? null : httpUrl(value, at);
    } else if (f === "transcription_threshold") {
      out[f] = wholeNumber(value, at);
    } else {
      if (!Array.isArray(value)) throw new SavedDataError(`${at} is not a list`);
      out[f] = canonicalDestinations(
        value.map((d, i) => {
          const o = record(d, `${at}[${i}]`);
          const transport = Number(oneOf(String(o.transport), ["1", "4", "5"] as const, `${at}[${i}].transport`)) as 1 | 4 | 5;
          return {
            priority: wholeNumber(o.priority, `${at}[${i}].priority`),
            transport,
            destination: text(o.destination, `${at}[${i}].destination`),
            trunk_id: o.trunk_id === null || o.trunk_id === undefined ? null : wholeNumber(o.trunk_id, `${at}[${i}].trunk_id`),
          };
        }),
      );
    }
  }
  return out as NumberSettings;
}

function numberSavedChange(op: NumberOp): { read: Record<string, unknown>; op: Record<string, unknown> } {
  return {
    read: { id: op.write.id, number: op.key, ...op.before },
    op: { desired: op.desired, fields: op.write.fields },
  };
}

/**
 * The number as the plan read it, from what the op recorded: its id and digits and the managed
 * fields (normalised; `currentSettings` gives them back unchanged). Nothing else of it was read.
 */
function recordOf(op: NumberOp): WavixNumber {
  const before = op.before as Record<string, unknown>;
  const n: Record<string, unknown> = { id: op.write.id, number: op.key };
  for (const f of NUMBER_FIELDS) {
    if (before[f] === undefined) continue;
    if (f === "destinations") n.destination = destinationsForWire(before[f] as CanonicalDestination[]);
    else n[f] = before[f];
  }
  return n as unknown as WavixNumber;
}

/** Whether the file's `sub_account:` names the owner the plan wrote the number under. */
function sameOwner(ref: NonNullable<DesiredNumber["tenant"]>, owner: NumberOwner): boolean {
  return ref.id !== undefined ? ref.id === owner.id : ref.name === owner.name;
}

export const numberSaved: SavedPlanSupport<NumberOp, DesiredNumber[], NumbersRead> = {
  save: (op) => {
    // Not yet in a saved plan: a number routed to a trunk this same run creates (its id comes from that create).
    if (op.newTrunks && op.newTrunks.length > 0) throw new Error(`a number routed to a SIP trunk created in the same run is not supported in saved plans yet`);
    const saved = numberSavedChange(op);
    // A tenant's number: its owner by id and name, never the key (fetched again at apply time).
    return op.owner ? { read: saved.read, op: { ...saved.op, owner: { id: op.owner.id, name: op.owner.name } } } : saved;
  },

  load(key, savedAction, saved) {
    const action = actionOf(savedAction, ["update"] as const, "number (in a saved plan)");
    if (!/^\d{1,20}$/.test(key)) throw new SavedDataError(`"${key}" is not a number's digits`);
    const { id, number, ...rest } = record(saved.read, "read");
    const numberId = wholeNumber(id, "read.id");
    if (number !== key) throw new SavedDataError(`read.number is not the item's digits ${key}`);
    const before = loadSettings(rest, "read");
    const op = record(saved.op, "op");
    const desired = loadSettings(op.desired, "op.desired");
    if (!Array.isArray(op.fields) || op.fields.length === 0) throw new SavedDataError("op.fields is not a non-empty list");
    const fields = op.fields.map((f, i) => text(f, `op.fields[${i}]`));
    for (const f of fields) {
      if ((desired as Record<string, unknown>)[f] === undefined) throw new SavedDataError(`op.fields names ${f}, which op.desired does not set`);
    }
    for (const f of Object.keys(desired)) {
      if ((before as Record<string, unknown>)[f] === undefined) throw new SavedDataError(`read has no ${f}, which op.desired sets`);
    }
    const loaded: NumberOp = { key, action, desired, before, write: { id: numberId, digits: key, fields, patch: patchFor(desired, fields) } };
    if (op.owner !== undefined) {
      const o = record(op.owner, "op.owner");
      const id = wholeNumber(o.id, "op.owner.id");
      const name = text(o.name, "op.owner.name");
      if (id < 1) throw new SavedDataError("op.owner.id is not a sub-account id");
      if (name === "") throw new SavedDataError("op.owner.name is empty");
      loaded.owner = { id, name, client: unfetchedKey(id, name) };
    }
    return loaded;
  },

  /**
   * The declared numbers of the ops' digits, and each as the plan read it: the account's own, or a
   * tenant's under the owner the op names. A number the file declares under another owner than the
   * op's (or under none) is read where the file says, so the plan gives a different op, or a problem.
   */
  replay(declared, ops) {
    const byDigits = new Map(ops.map((o) => [o.key, o]));
    const part = declared.filter((d) => byDigits.has(d.number));
    const own = new Map<string, WavixNumber>();
    const tenants = new Map<string, TenantRead>();
    for (const d of part) {
      const op = byDigits.get(d.number)!;
      if (!d.tenant) {
        own.set(d.number, recordOf(op));
        continue;
      }
      const key = tenantKey(d.tenant);
      const read = tenants.get(key);
      if (read && !read.ok) continue;
      const problem =
        d.tenant.status === "disabled"
          ? `${tenantLabel(d.tenant)} is disabled by this file, and a disabled sub-account's key is refused: its numbers cannot be managed`
          : !op.owner
            ? `the saved plan writes it as the account's own number, and the file declares it under ${tenantLabel(d.tenant)}`
            : !sameOwner(d.tenant, op.owner)
              ? `the saved plan writes it under sub-account ${JSON.stringify(op.owner.name)} (id ${op.owner.id}), and the file declares it under ${tenantLabel(d.tenant)}`
              : undefined;
      if (problem) {
        tenants.set(key, { ok: false, ref: d.tenant, problem });
        continue;
      }
      const owner = op.owner!;
      if (read?.ok && read.account.id !== owner.id) {
        tenants.set(key, { ok: false, ref: d.tenant, problem: `the saved plan writes numbers of ${tenantLabel(d.tenant)} under two sub-accounts (ids ${read.account.id}, ${owner.id})` });
        continue;
      }
      const numbers = read?.ok ? (read.numbers as Map<string, WavixNumber>) : new Map<string, WavixNumber>();
      numbers.set(d.number, recordOf(op));
      if (!read) tenants.set(key, { ok: true, ref: d.tenant, account: { id: owner.id, name: owner.name } as SubAccount, client: owner.client, numbers });
    }
    return { declared: part, current: { own, tenants } };
  },

  async recheck(ctx, ops) {
    if (ops.length === 0) return [];
    const out: Drift[] = [];
    const byOwner = new Map<number | undefined, NumberOp[]>();
    for (const o of ops) byOwner.set(o.owner?.id, [...(byOwner.get(o.owner?.id) ?? []), o]);
    await Promise.all(
      [...byOwner].map(async ([ownerId, group]) => {
        if (ownerId === undefined) {
          out.push(...(await recheckNumbers(ctx.client, group)));
          return;
        }
        const tenant = await tenantClient(ctx, group[0].owner!);
        if ("drift" in tenant) {
          for (const op of group) out.push({ key: op.key, message: tenant.drift });
          return;
        }
        let drift: Drift[];
        try {
          drift = await recheckNumbers(tenant.client, group);
        } catch (err) {
          if (!(err instanceof ForbiddenError || err instanceof UnauthorizedError)) throw err;
          for (const op of group) out.push({ key: op.key, message: `the API refused the key of ${tenant.label}: ${ctx.describe(err)}` });
          return;
        }
        out.push(...drift);
        // The writes and read-backs go out under the tenant's key, from memory only.
        for (const op of group) op.owner = { id: op.owner!.id, name: op.owner!.name, client: tenant.client };
      }),
    );
    return out;
  },
};

/** Re-reads numbers by id under one key and says which are no longer as planned. */
async function recheckNumbers(client: WavixClient, ops: readonly NumberOp[]): Promise<Drift[]> {
  const now = await rereadNumbers(client, [...new Set(ops.map((o) => o.write.id))], { missingOk: true });
  const out: Drift[] = [];
  for (const op of ops) {
    const n = now.get(op.write.id);
    const where = op.owner ? ` of sub-account ${JSON.stringify(op.owner.name)}` : "";
    if (n === undefined) {
      out.push({ key: op.key, message: `number id ${op.write.id} is no longer in the account${where}` });
      continue;
    }
    if (n.id !== op.write.id || n.number !== op.key) {
      out.push({ key: op.key, message: `the API answered number ${shown(n.number)} (id ${String(n.id)}) when asked for id ${op.write.id}` });
      continue;
    }
    const is = managedSettings(op.desired, n) as Record<string, unknown>;
    const was = op.before as Record<string, unknown>;
    const changed = NUMBER_FIELDS.filter((f) => op.desired[f] !== undefined && !sameField(f, was[f], is[f]));
    if (changed.length > 0) out.push({ key: op.key, message: changed.map((f) => `${f} was ${shown(was[f])} when planned, now ${shown(is[f])}`).join("; ") });
  }
  return out;
}

/**
 * A tenant's key, fetched with the master key as the plan fetched it (one GET of the sub-account
 * by id): the sub-account must still exist under the name the plan recorded. The key lives in the
 * returned client only (memory), never in the plan, a message or a log.
 */
async function tenantClient(ctx: RecheckContext, owner: NumberOwner): Promise<{ client: WavixClient; label: string } | { drift: string }> {
  const was = `sub-account ${JSON.stringify(owner.name)} (id ${owner.id})`;
  const account = await notFoundToUndefined(ctx.client.getSubAccount(owner.id));
  if (account === undefined) return { drift: `its owner, ${was}, no longer exists` };
  if (account.id !== owner.id) return { drift: `the API answered sub-account id ${String(account.id)} when asked for id ${owner.id}, its owner` };
  if (account.name !== owner.name) return { drift: `its owner, ${was}, was renamed to ${JSON.stringify(account.name)} since the plan` };
  if (typeof account.api_key !== "string" || account.api_key === "") return { drift: `the API gives no key for its owner, ${was}, so it cannot be written` };
  return { client: ctx.client.withApiKey(account.api_key), label: was };
}

/**
 * The owner's client of a number loaded from a saved plan, until the recheck fetches its key: it
 * sends nothing (never the master key in its place) and says why.
 */
function unfetchedKey(id: number, name: string): WavixClient {
  const fail = () => Promise.reject(new Error(`the key of sub-account ${JSON.stringify(name)} (id ${id}) was not fetched (apply --plan fetches it when it re-reads the plan's numbers); not written`));
  return new Proxy({} as WavixClient, { get: (_t, prop) => (prop === "then" ? undefined : fail) });
}
