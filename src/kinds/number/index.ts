/**
 * The number kind: identity is the digits; the tool never buys or (from the CLI) releases a
 * number, so a plan only updates. Uniform patches go out as bulk PATCHes, a refused bulk falls
 * back to one PATCH per number, a URL clear goes out on its own, and asynchronous bulk changes are
 * polled for (bounded) before the result is known.
 */
import type { WavixClient } from "../../client";
import type { WavixNumber } from "../../client/types";
import type { DesiredNumber, NumberPart, TenantRef } from "./types";
import type { NumberOp, NumberOwner, NumbersRead } from "./op";
import type { SubAccountPart } from "../sub-account/public";
import type { ConfirmContext, EarlierWrites, FileSpot, Kind, KindPlan, KindResults, Write } from "../../kit/contract";
import { subAccountList } from "../sub-account/public";
import { SIP_TRUNK_KIND, trunkList, type SipTrunkPart } from "../sip-trunk/public";
import { resolveTrunkLabels, withMadeTrunks } from "./trunks";
import {
  ASYNC_BULK_FIELDS,
  batchNumberWrites,
  diffNumber,
  findNumbersListed,
  isRefusal,
  numberNotOwnedMessage,
  patchFor,
  refusedClearMessage,
  rereadNumbers,
  sendNumberBatch,
  settingsOf,
  splitClears,
  type NumberSettings,
  type NumberWrite,
  type NumberWriteBatch,
  type ListedNumbers,
} from "./handler";
import { findNumberOwners, numberOwnedBySubAccountMessage } from "./owners";
import { ownerMismatchMessage, readTenants, tenantKey, tenantLabel, withTenants, type TenantRead } from "./tenants";
import { numbersFragment } from "./schema";
import { numberFileForm } from "./file";
import { numberExport } from "./export";
import { managedSettings, numberSaved } from "./saved";
import { numberEffects } from "./effects";
import { numberSchema } from "./pulumi-schema";

export type { NumberOp, NumberOwner, NumbersRead } from "./op";

/** Most numbers not in the file named one by one in a plan; the rest are counted (a note). */
export const UNMANAGED_NAMED = 20;

/**
 * The account's own numbers the file does not declare (issue #27: drift must see a number set up
 * outside git), from the listing pages the read sent anyway: named up to {@link UNMANAGED_NAMED}
 * as `unmanaged`, and all counted in a note (from the listing's `total` when only its first page
 * was read). A tool that never buys or releases numbers only reports them.
 */
function unmanagedNumbers(declared: readonly DesiredNumber[], current: NumbersRead): { named: string[]; note?: string } {
  const listed = current.listed;
  if (listed === undefined || listed.numbers.length === 0) return { named: [] };
  const mine = new Set(declared.filter((d) => !d.tenant).map((d) => d.number));
  const seen = listed.numbers.filter((n) => !mine.has(n.number));
  // Only the first page was read: the rest are counted from its total, less the declared ones found.
  const count = listed.complete ? seen.length : Math.max(seen.length, listed.total - current.own.size);
  if (count === 0) return { named: [] };
  const named = seen.slice(0, UNMANAGED_NAMED).map((n) => n.number);
  const more = count - named.length;
  if (more <= 0) return { named };
  // More than are named: the count says how many (a drift check sees a number set up outside git).
  const note =
    `the account holds ${count} number${count === 1 ? "" : "s"} this file does not declare (${named.length} named as unmanaged, ${more} more` +
    `${listed.complete ? "" : ", counted from the listing's total"}): they are left as they are; \`wavix-sync export\` writes them all`;
  return { named, note };
}

/** The numbers declaring `on_delete`, a key the CLI does not act on (Pulumi only). */
function onDeleteNote(declared: readonly DesiredNumber[]): { key: string; message: string } | undefined {
  const with_ = declared.filter((d) => d.on_delete !== undefined);
  if (with_.length === 0) return undefined;
  const shown = with_.slice(0, 3).map((d) => d.number).join(", ") + (with_.length > 3 ? ` and ${with_.length - 3} more` : "");
  return {
    key: with_[0].number,
    message: `on_delete (on number${with_.length === 1 ? "" : "s"} ${shown}) is a Pulumi-only key: the CLI never releases a number, whatever it says; a number left out of the file stays in the account, unmanaged`,
  };
}

export const numberKind: Kind<"number", DesiredNumber[], NumbersRead, NumberOp, "PhoneNumber", NumberPart & SubAccountPart & SipTrunkPart> = {
  name: "number",
  label: { one: "number", many: "numbers" },
  // A number as the file may write it: a leading + is dropped, as the file's numbers are.
  targetKey: (name) => name.replace(/^\+/, ""),
  file: numbersFragment,
  fileForm: numberFileForm,
  export: numberExport,
  pulumi: {
    type: "PhoneNumber",
    collection: "numbers",
    program: () => (require("./pulumi") as typeof import("./pulumi")).numberProgram,
    schema: () => numberSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).numberProvider,
  // A number routed to a trunk by label is written after the trunk's create (its id comes from it).
  after: [SIP_TRUNK_KIND],
  saved: numberSaved,
  effects: numberEffects,
  declared: (state) => (state.numbers === undefined ? undefined : withTenants(state.numbers, state.sub_accounts)),
  count: (declared) => declared.length,
  async read(ctx, declared) {
    const own: string[] = [];
    const groups = new Map<string, { ref: TenantRef; digits: string[] }>();
    for (const n of declared) {
      if (!n.tenant) {
        own.push(n.number);
        continue;
      }
      const key = tenantKey(n.tenant);
      const g = groups.get(key);
      if (g) g.digits.push(n.number);
      else groups.set(key, { ref: n.tenant, digits: [n.number] });
    }
    const [ownFound, tenants] = await Promise.all([
      findNumbersListed(ctx.client, own),
      readTenants(ctx.client, groups, () => subAccountList(ctx), ctx.describe),
    ]);
    return { own: ownFound.found, tenants, listed: ownFound.listed };
  },

  async plan(ctx, declared, current) {
    const out: KindPlan<NumberOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0, notes: [] };
    const loose = unmanagedNumbers(declared, current);
    out.unmanaged.push(...loose.named);
    if (loose.note) out.notes!.push({ key: "numbers", message: loose.note });
    const onDelete = onDeleteNote(declared);
    if (onDelete) out.notes!.push(onDelete);
    const ownMissing: string[] = [];
    const tenantMissing: { digits: string; read: TenantRead & { ok: true }; at: FileSpot }[] = [];
    // `trunk: LABEL` destinations: the trunk listing is read once (the trunk kind shares it).
    const byLabel = declared.some((x) => x.destinations?.some((y) => y.trunk !== undefined));
    const trunks = byLabel ? await trunkList(ctx) : [];
    for (const declaredNumber of declared) {
      let d = declaredNumber;
      let n: WavixNumber | undefined;
      let owner: NumberOwner | undefined;
      if (d.tenant) {
        const read = current.tenants.get(tenantKey(d.tenant));
        if (!read || !read.ok) {
          out.problems.push({ key: d.number, message: read?.problem ?? "its sub-account was not read", at: d });
          continue;
        }
        n = read.numbers.get(d.number);
        if (!n) {
          tenantMissing.push({ digits: d.number, read, at: d });
          continue;
        }
        owner = { id: read.account.id, name: read.account.name, client: read.client };
      } else {
        n = current.own.get(d.number);
        if (!n) {
          out.problems.push({ key: d.number, message: numberNotOwnedMessage(d.number), at: d });
          ownMissing.push(d.number);
          continue;
        }
      }
      const resolved = byLabel ? resolveTrunkLabels(d, trunks, ctx.desired.sip_trunks ?? []) : { number: d, newTrunks: [] };
      if ("problem" in resolved) {
        out.problems.push({ key: d.number, message: resolved.problem, at: d });
        continue;
      }
      d = resolved.number;
      const want = settingsOf(d);
      const diff = diffNumber(want, n);
      if (diff.length === 0) {
        out.unchanged++;
        continue;
      }
      const fields = diff.map((f) => f.path);
      out.changes.push({
        diff,
        op: {
          key: d.number,
          action: "update",
          desired: want,
          before: managedSettings(want, n),
          write: { id: n.id, digits: d.number, fields, patch: patchFor(want, fields) },
          ...(owner ? { owner } : {}),
          ...(resolved.newTrunks.length > 0 ? { declared: d, newTrunks: resolved.newTrunks } : {}),
        },
        ...(owner ? { owner: { kind: "sub_account" as const, key: owner.name, id: owner.id } } : {}),
      });
    }
    // A number missing under the owner the file gives may be held by another: say which (owners.ts).
    if (ownMissing.length > 0 || tenantMissing.length > 0) {
      const found = await findNumberOwners(ctx.client, [...ownMissing, ...tenantMissing.map((t) => t.digits)], () => subAccountList(ctx), {
        master: tenantMissing.length > 0,
      });
      for (const p of out.problems) {
        const owner = ownMissing.includes(p.key) ? found.get(p.key) : undefined;
        if (owner && owner.kind === "sub_account") p.message = numberOwnedBySubAccountMessage(p.key, owner.account);
      }
      for (const t of tenantMissing) {
        const declaredOwner = tenantLabel(t.read.ref, t.read.account);
        const owner = found.get(t.digits);
        const elsewhere = owner && !(owner.kind === "sub_account" && owner.account.id === t.read.account.id) ? owner : undefined;
        out.problems.push({
          key: t.digits,
          message: elsewhere ? ownerMismatchMessage(t.digits, declaredOwner, elsewhere) : numberNotOwnedMessage(t.digits, declaredOwner),
          at: t.at,
        });
      }
    }
    return out;
  },

  // A URL clear goes out on its own, apart from the number's other changes (docs/CONTRACT.md part 4):
  // the official update schema has no null, so a server may refuse it, and that must cost only the clear.
  // A tenant's numbers are written with its key, so writes are batched per owner (a bulk PATCH
  // carries the ids of one organisation).
  writes(allOps, earlier: EarlierWrites) {
    const { ops, unresolved } = withMadeTrunks(allOps, earlier);
    const byOwner = new Map<number | undefined, NumberOp[]>();
    for (const o of ops) {
      const list = byOwner.get(o.owner?.id);
      if (list) list.push(o);
      else byOwner.set(o.owner?.id, [o]);
    }
    return [...unresolved, ...[...byOwner.values()].flatMap((group) => ownerWrites(group, group[0].owner?.client))];
  },

  async confirm(ctx, ops, report) {
    // Read back what was written (fields that failed or were never sent are not waited for).
    const toConverge: NumberOp[] = [];
    for (const o of ops) {
      const skip = new Set([...(report.failedFields.get(o.key) ?? []), ...(report.unsent.get(o.key) ?? [])]);
      if (skip.size === 0) {
        toConverge.push(o);
        continue;
      }
      const rest = o.write.fields.filter((f) => !skip.has(f));
      if (rest.length === 0) continue;
      const desired = { ...o.desired } as Record<string, unknown>;
      for (const f of skip) delete desired[f];
      toConverge.push({ ...o, desired: desired as NumberSettings });
    }
    const failures = new Map(report.failures);
    const pendingWhy = new Map<string, string>();
    const convergeFailures = new Map<string, string>();
    // Each owner's numbers are read back with its own key, owners concurrently.
    const byOwner = new Map<number | undefined, NumberOp[]>();
    for (const o of toConverge) {
      const list = byOwner.get(o.owner?.id);
      if (list) list.push(o);
      else byOwner.set(o.owner?.id, [o]);
    }
    const pending = (
      await Promise.all(
        [...byOwner.values()].map((group) =>
          convergeNumbers({ ...ctx, client: group[0].owner?.client ? ctx.client.through(group[0].owner.client) : ctx.client }, group, convergeFailures, pendingWhy),
        ),
      )
    ).flat();
    for (const [d, message] of convergeFailures) {
      const before = failures.get(d);
      failures.set(d, before ? `${before}; ${message}` : message);
    }
    const results: KindResults["results"] = ops.map((op) => {
      const base = { key: op.key, action: op.action };
      const error = failures.get(op.key);
      const unsent = report.unsent.get(op.key);
      const why = pendingWhy.get(op.key);
      if (error) return { ...base, outcome: "failed", error };
      if (unsent && unsent.size >= op.write.fields.length) return { ...base, outcome: "not_started" };
      if (unsent) return { ...base, outcome: "failed", error: `interrupted before ${[...unsent].join(", ")} was sent; the rest was written` };
      if (why) return { ...base, outcome: "pending", error: why };
      return { ...base, outcome: "ok" };
    });
    return { results, pending };
  },
};

/** The writes of one owner's ops: main fields batched, URL clears on their own; sent with `as` (a tenant's key) when given. */
function ownerWrites(ops: readonly NumberOp[], as: WavixClient | undefined): Write[] {
  const mainWrites: NumberWrite[] = [];
  const clearWrites: NumberWrite[] = [];
  for (const o of ops) {
    const { main, clears } = splitClears(o.desired, o.write.fields);
    if (main.length > 0) mainWrites.push({ ...o.write, fields: main, patch: patchFor(o.desired, main) });
    for (const f of clears) clearWrites.push({ id: o.write.id, digits: o.key, fields: [f], patch: { [f]: null } });
  }
  const mainFields = new Map(mainWrites.map((w) => [w.digits, w.fields]));
  return [
    ...batchNumberWrites(mainWrites).map((b) => batchWrite(b, (d) => mainFields.get(d) ?? [], undefined, as)),
    ...batchNumberWrites(clearWrites).map((b) => {
      const field = Object.keys(b.patch)[0];
      return batchWrite(b, () => [field], field, as);
    }),
  ];
}

/**
 * 401/403: the key may not write numbers at all — one PATCH per number would be refused the same
 * way, once per number (5,011 refused requests on a 5,000-number account), so the bulk does not split.
 */
function isAuthRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}

/**
 * One PATCH (bulk or single) as a write; a bulk refused for its content (400, 404, 422) falls back
 * to one PATCH per number, so one bad number does not fail the others.
 */
function batchWrite(batch: NumberWriteBatch, fields: (digits: string) => readonly string[], clear?: string, as?: WavixClient): Write {
  return {
    keys: batch.digits,
    fields,
    send: (client) => sendNumberBatch(as ? client.through(as) : client, batch),
    fallback: (err) =>
      batch.bulk && isRefusal(err) && !isAuthRefusal(err)
        ? batch.ids.map((id, i) => batchWrite({ ids: [id], digits: [batch.digits[i]], patch: batch.patch, bulk: false }, fields, clear, as))
        : undefined,
    failure: (digits, err) => (clear !== undefined && isRefusal(err) ? refusedClearMessage(clear, digits, err) : undefined),
  };
}

/** Waits `ms`, or less when `signal` aborts (an interrupted run stops waiting at once). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Polls (bounded, with backoff) until what was written shows; asynchronous bulk fields may lag. */
async function convergeNumbers(
  ctx: ConfirmContext,
  ops: NumberOp[],
  failures: Map<string, string>,
  pendingWhy: Map<string, string>,
): Promise<string[]> {
  if (ops.length === 0) return [];
  const deadline = Date.now() + ctx.waitSeconds * 1000;
  let delay = ctx.pollBaseMs;
  let open = ops;
  for (;;) {
    let read: Map<number, WavixNumber>;
    try {
      read = await rereadNumbers(ctx.client, open.map((o) => o.write.id));
    } catch (err) {
      for (const o of open) failures.set(o.key, `read-back failed: ${ctx.describe(err)}`);
      return [];
    }
    const stillOpen: typeof open = [];
    for (const o of open) {
      const n = read.get(o.write.id);
      if (!n) {
        failures.set(o.key, "the number disappeared from the account while applying");
      } else {
        // Only asynchronously applied fields may lag; anything else not showing is a failure.
        const lagging = diffNumber(o.desired, n).map((f) => f.path);
        if (lagging.length === 0) continue;
        if (lagging.every((f) => ASYNC_BULK_FIELDS.has(f as never))) stillOpen.push(o);
        else failures.set(o.key, `written but read back different: ${lagging.join(", ")}`);
      }
    }
    open = stillOpen;
    if (open.length === 0) return [];
    const interrupted = ctx.signal?.aborted === true;
    if (interrupted || Date.now() + delay > deadline) {
      // Written and accepted: the API is still applying it. Pending, not failed (issue #14).
      const when = interrupted ? "when the run was interrupted" : "when --wait ran out";
      for (const o of open) {
        pendingWhy.set(o.key, `asynchronous change (${diffNumber(o.desired, read.get(o.write.id)!).map((f) => f.path).join(", ")}) had not shown ${when}; re-run plan later to confirm`);
      }
      return open.map((o) => o.key);
    }
    await sleep(delay, ctx.signal);
    delay = Math.min(delay * 2, 5000);
  }
}
