/**
 * The number kind: identity is the digits; the tool never buys or (from the CLI) releases a
 * number, so a plan only updates. Uniform patches go out as bulk PATCHes, a refused bulk falls
 * back to one PATCH per number, a URL clear goes out on its own, and asynchronous bulk changes are
 * polled for (bounded) before the result is known.
 */
import type { WavixNumber } from "../../client/types";
import type { DesiredNumber } from "../../config/types";
import type { ConfirmContext, Kind, KindPlan, KindResults, OpBase, Write } from "../contract";
import { subAccountList } from "../sub-account";
import {
  ASYNC_BULK_FIELDS,
  batchNumberWrites,
  diffNumber,
  findNumbers,
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
} from "./handler";
import { findNumberOwners, numberOwnedBySubAccountMessage } from "./owners";
import { numbersFragment } from "./schema";
import { numberFileForm } from "./file";
import { numberExport } from "./export";
import { managedSettings, numberSaved } from "./saved";

/** `before`: the managed fields as the plan read them, which a saved plan rechecks. */
export type NumberOp = OpBase & { action: "update"; write: NumberWrite; desired: NumberSettings; before: NumberSettings };

export const numberKind: Kind<"number", DesiredNumber[], Map<string, WavixNumber>, NumberOp, "PhoneNumber"> = {
  name: "number",
  label: { one: "number", many: "numbers" },
  file: numbersFragment,
  fileForm: numberFileForm,
  export: numberExport,
  pulumi: {
    type: "PhoneNumber",
    collection: "numbers",
    provider: () => (require("./provider") as typeof import("./provider")).PhoneNumber,
    program: () => (require("./pulumi") as typeof import("./pulumi")).numberProgram,
  },
  saved: numberSaved,
  declared: (state) => state.numbers,
  count: (declared) => declared.length,
  read: (ctx, declared) => findNumbers(ctx.client, declared.map((n) => n.number)),

  async plan(ctx, declared, numbers) {
    const out: KindPlan<NumberOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0 };
    for (const d of declared) {
      const current = numbers.get(d.number);
      if (!current) {
        out.problems.push({ key: d.number, message: numberNotOwnedMessage(d.number) });
        continue;
      }
      const want = settingsOf(d);
      const diff = diffNumber(want, current);
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
          before: managedSettings(want, current),
          write: { id: current.id, digits: d.number, fields, patch: patchFor(want, fields) },
        },
      });
    }
    // A number missing from the account's list may belong to a sub-account: say which (owners.ts).
    if (out.problems.length > 0) {
      const owners = await findNumberOwners(ctx.client, out.problems.map((p) => p.key), () => subAccountList(ctx));
      for (const p of out.problems) {
        const owner = owners.get(p.key);
        if (owner) p.message = numberOwnedBySubAccountMessage(p.key, owner);
      }
    }
    return out;
  },

  // A URL clear goes out on its own, apart from the number's other changes (docs/CONTRACT.md part 4):
  // the official update schema has no null, so a server may refuse it, and that must cost only the clear.
  writes(ops) {
    const mainWrites: NumberWrite[] = [];
    const clearWrites: NumberWrite[] = [];
    for (const o of ops) {
      const { main, clears } = splitClears(o.desired, o.write.fields);
      if (main.length > 0) mainWrites.push({ ...o.write, fields: main, patch: patchFor(o.desired, main) });
      for (const f of clears) clearWrites.push({ id: o.write.id, digits: o.key, fields: [f], patch: { [f]: null } });
    }
    const mainFields = new Map(mainWrites.map((w) => [w.digits, w.fields]));
    return [
      ...batchNumberWrites(mainWrites).map((b) => batchWrite(b, (d) => mainFields.get(d) ?? [])),
      ...batchNumberWrites(clearWrites).map((b) => {
        const field = Object.keys(b.patch)[0];
        return batchWrite(b, () => [field], field);
      }),
    ];
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
    const pending = await convergeNumbers(ctx, toConverge, convergeFailures, pendingWhy);
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

/** One PATCH (bulk or single) as a write; a refused bulk falls back to one PATCH per number. */
function batchWrite(batch: NumberWriteBatch, fields: (digits: string) => readonly string[], clear?: string): Write {
  return {
    keys: batch.digits,
    fields,
    send: (client) => sendNumberBatch(client, batch),
    fallback: (err) =>
      batch.bulk && isRefusal(err)
        ? batch.ids.map((id, i) => batchWrite({ ids: [id], digits: [batch.digits[i]], patch: batch.patch, bulk: false }, fields, clear))
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
