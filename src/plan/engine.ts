/**
 * The sync engine: read current state in batches, diff managed keys, and apply with bounded
 * concurrency, bulk writes, convergence polling and per-item failure isolation
 * (PRODUCT.md parts 4 and 8).
 */
import pLimit from "p-limit";
import type { WavixClient } from "../client";
import type { CallWebhookEventType, SubAccount, WavixNumber } from "../client/types";
import type { DesiredState } from "../config/types";
import {
  ASYNC_BULK_FIELDS,
  batchNumberWrites,
  createDiff,
  createSubAccount,
  diffNumber,
  diffSubAccount,
  diffWebhook,
  disableSubAccount,
  EVENT_TYPES,
  findNumbers,
  listAllSubAccounts,
  listWebhooks,
  matchSubAccount,
  numberNotOwnedMessage,
  patchFor,
  pinnedSubAccountMissingMessage,
  rereadNumbers,
  sendNumberBatch,
  settingsOf,
  subAccountSettingsOf,
  twinMessage,
  updateSubAccount,
  deleteWebhook,
  upsertWebhook,
  isRefusal,
  refusedClearMessage,
  splitClears,
  type NumberSettings,
  type NumberWrite,
  type NumberWriteBatch,
  type SubAccountSettings,
} from "../resources";
import type { ApplyResult, ChangeKind, ChangeResult, Plan, PlannedChange, PlanProblem, Unmanaged } from "./types";
import { findNumberOwners, numberOwnedBySubAccountMessage } from "../kinds/number/owners";
import { describeError } from "./error-text";

export interface PlanOptions {
  /** Disable undeclared sub-accounts and delete undeclared call webhooks. @default false */
  readonly prune?: boolean;
}

export interface ApplyOptions {
  /** Writes in flight at once. @default 8 */
  readonly concurrency?: number;
  /** How long to poll for asynchronous bulk changes to show, in seconds. @default 120 */
  readonly waitSeconds?: number;
  /**
   * Called as items are written, for a progress bar: `done` counts items (each number is one,
   * also inside a bulk PATCH) whose write has settled, out of `total`.
   */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Stops the run from starting new writes once aborted (the first Ctrl-C). Writes in flight
   * finish; items not yet sent end `not_started`; the wait for asynchronous changes is cut short
   * (what has not shown is `pending`).
   */
  readonly signal?: AbortSignal;
  /** First poll delay in ms (tests shorten it). @default 250 */
  readonly pollBaseMs?: number;
}

type Op =
  | { kind: "sub_account"; action: "create"; key: string; desired: SubAccountSettings }
  | { kind: "sub_account"; action: "update"; key: string; desired: SubAccountSettings; current: SubAccount }
  | { kind: "sub_account"; action: "delete"; key: string; current: SubAccount }
  | { kind: "call_webhook"; action: "create" | "update"; key: CallWebhookEventType; url: string }
  | { kind: "call_webhook"; action: "delete"; key: CallWebhookEventType }
  | { kind: "number"; action: "update"; key: string; write: NumberWrite; desired: NumberSettings };

/** A plan plus what apply needs to carry it out (ids, current records). */
export interface PreparedPlan {
  plan: Plan;
  ops: Op[];
}

function summarize(changes: PlannedChange[], unchanged: number): Plan["summary"] {
  const s = { create: 0, update: 0, delete: 0, unchanged };
  for (const c of changes) s[c.action]++;
  return s;
}

function errorText(err: unknown): string {
  return describeError(err); // one plain sentence (error-text.ts)
}

/** Read the account and compute what would change. Sends only GETs. */
export async function computePlan(client: WavixClient, desired: DesiredState, options: PlanOptions = {}): Promise<PreparedPlan> {
  const changes: PlannedChange[] = [];
  const ops: Op[] = [];
  const problems: PlanProblem[] = [];
  const unmanaged: Unmanaged[] = [];
  let unchanged = 0;
  // Per kind as well, for the Markdown summary table (plan/md.ts).
  const unchangedByKind: Record<ChangeKind, number> = { sub_account: 0, call_webhook: 0, number: 0 };

  // The three kinds are independent: read them concurrently.
  const [subs, hooks, numbers] = await Promise.all([
    desired.sub_accounts ? listAllSubAccounts(client) : Promise.resolve(undefined),
    desired.call_webhooks ? listWebhooks(client) : Promise.resolve(undefined),
    desired.numbers ? findNumbers(client, desired.numbers.map((n) => n.number)) : Promise.resolve(undefined),
  ]);

  if (desired.sub_accounts && subs) {
    const claimed = new Set<number>();
    for (const d of desired.sub_accounts) {
      const want = subAccountSettingsOf(d);
      let current: SubAccount | undefined;
      try {
        current = matchSubAccount(want, subs);
      } catch (err) {
        problems.push({ kind: "sub_account", key: d.name, message: errorText(err) });
        for (const s of subs) if (s.name === d.name) claimed.add(s.id);
        continue;
      }
      if (!current && want.id !== undefined) {
        problems.push({ kind: "sub_account", key: d.name, message: pinnedSubAccountMissingMessage(want) });
        continue;
      }
      if (!current) {
        changes.push({ kind: "sub_account", key: d.name, action: "create", diff: createDiff(want) });
        ops.push({ kind: "sub_account", action: "create", key: d.name, desired: want });
        continue;
      }
      claimed.add(current.id);
      const diff = diffSubAccount(want, current);
      if (diff.length === 0) {
        unchanged++;
        unchangedByKind.sub_account++;
      }
      else {
        changes.push({ kind: "sub_account", key: d.name, action: "update", diff });
        ops.push({ kind: "sub_account", action: "update", key: d.name, desired: want, current });
      }
    }
    for (const s of subs) {
      if (claimed.has(s.id)) continue;
      if (options.prune && s.status !== "disabled") {
        changes.push({ kind: "sub_account", key: s.name, action: "delete", diff: [{ path: "status", before: s.status, after: "disabled" }] });
        ops.push({ kind: "sub_account", action: "delete", key: s.name, current: s });
      } else if (!options.prune) {
        unmanaged.push({ kind: "sub_account", key: s.name });
      }
    }
  }

  if (desired.call_webhooks && hooks) {
    for (const eventType of EVENT_TYPES) {
      const url = desired.call_webhooks[eventType];
      const current = hooks.get(eventType);
      if (url === undefined) {
        if (current === undefined) continue;
        if (options.prune) {
          changes.push({ kind: "call_webhook", key: eventType, action: "delete", diff: [{ path: "url", before: current, after: null }] });
          ops.push({ kind: "call_webhook", action: "delete", key: eventType });
        } else unmanaged.push({ kind: "call_webhook", key: eventType });
        continue;
      }
      const diff = diffWebhook(url, current);
      if (diff.length === 0) {
        unchanged++;
        unchangedByKind.call_webhook++;
      }
      else {
        const action = current === undefined ? "create" : "update";
        changes.push({ kind: "call_webhook", key: eventType, action, diff });
        ops.push({ kind: "call_webhook", action, key: eventType, url });
      }
    }
  }

  if (desired.numbers && numbers) {
    for (const d of desired.numbers) {
      const current = numbers.get(d.number);
      if (!current) {
        problems.push({ kind: "number", key: d.number, message: numberNotOwnedMessage(d.number) });
        continue;
      }
      const want = settingsOf(d);
      const diff = diffNumber(want, current);
      if (diff.length === 0) {
        unchanged++;
        unchangedByKind.number++;
        continue;
      }
      const fields = diff.map((f) => f.path);
      changes.push({ kind: "number", key: d.number, action: "update", diff });
      ops.push({
        kind: "number",
        action: "update",
        key: d.number,
        desired: want,
        write: { id: current.id, digits: d.number, fields, patch: patchFor(want, fields) },
      });
    }
  }

  // A number missing from the account's list may belong to a sub-account: say which (owners.ts).
  const notOwned = problems.filter((p) => p.kind === "number" && p.message === numberNotOwnedMessage(p.key));
  if (notOwned.length > 0) {
    const owners = await findNumberOwners(client, notOwned.map((p) => p.key), subs);
    for (const p of notOwned) {
      const owner = owners.get(p.key);
      if (owner) p.message = numberOwnedBySubAccountMessage(p.key, owner);
    }
  }

  return { plan: { changes, unmanaged, problems, summary: summarize(changes, unchanged), unchangedByKind }, ops };
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

/**
 * Carry out a prepared plan. A failed item does not stop independent items; the result names
 * every failure, and a re-run (which plans afresh) finishes the rest.
 */
export async function applyPlan(client: WavixClient, prepared: PreparedPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  const limit = pLimit(options.concurrency ?? 8);
  const results: ChangeResult[] = [];
  const total = prepared.ops.length;
  const stopped = () => options.signal?.aborted === true;
  let done = 0;
  const tick = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };
  const finish = (r: ChangeResult, counted = false) => {
    results.push(r);
    if (!counted) tick(1);
  };
  const notStarted = (op: Pick<Op, "kind" | "key" | "action">): ChangeResult => ({
    kind: op.kind,
    key: op.key,
    action: op.action,
    outcome: "not_started",
  });
  const fail = (op: Pick<Op, "kind" | "key" | "action">, err: unknown): ChangeResult => ({
    kind: op.kind,
    key: op.key,
    action: op.action,
    outcome: "failed",
    error: errorText(err),
  });

  const single = prepared.ops.filter((o) => o.kind !== "number");
  const numberOps = prepared.ops.filter((o): o is Extract<Op, { kind: "number" }> => o.kind === "number");

  const singleWork = single.map((op) =>
    limit(async () => {
      if (stopped()) return finish(notStarted(op));
      try {
        let reconciled = false;
        let adopted = false;
        if (op.kind === "sub_account") {
          if (op.action === "create") ({ reconciled, adopted } = await createSubAccount(client, op.desired));
          else if (op.action === "update") await updateSubAccount(client, op.current, op.desired);
          else await disableSubAccount(client, op.current);
        } else if (op.kind === "call_webhook") {
          if (op.action === "delete") await deleteWebhook(client, op.key);
          else await upsertWebhook(client, op.key, op.url);
        }
        finish({ kind: op.kind, key: op.key, action: op.action, outcome: "ok", ...(reconciled ? { reconciled } : {}), ...(adopted ? { adopted } : {}) });
      } catch (err) {
        finish(fail(op, err));
      }
    }),
  );

  // Numbers: uniform patches go out as bulk PATCHes; a failed bulk falls back to one PATCH per
  // number so that one bad number cannot fail its neighbours. A URL clear goes out on its own,
  // apart from the number's other changes (PRODUCT.md part 4): the official update schema has no
  // null, so a server may refuse it, and that must cost only the clear.
  const failedFields = new Map<string, Set<string>>();
  const unsentFields = new Map<string, Set<string>>();
  const numberFailures = new Map<string, string>();
  const addFields = (map: Map<string, Set<string>>, digits: string, fields: readonly string[]) => {
    const set = map.get(digits) ?? new Set<string>();
    fields.forEach((f) => set.add(f));
    map.set(digits, set);
  };
  const addFailure = (digits: string, fields: readonly string[], message: string) => {
    addFields(failedFields, digits, fields);
    const before = numberFailures.get(digits);
    numberFailures.set(digits, before ? `${before}; ${message}` : message);
  };
  const mainWrites: NumberWrite[] = [];
  const clearWrites: NumberWrite[] = [];
  for (const o of numberOps) {
    const { main, clears } = splitClears(o.desired, o.write.fields);
    if (main.length > 0) mainWrites.push({ ...o.write, fields: main, patch: patchFor(o.desired, main) });
    for (const f of clears) clearWrites.push({ id: o.write.id, digits: o.key, fields: [f], patch: { [f]: null } });
  }
  // Progress counts numbers (also inside a bulk PATCH): one is done when each of its writes (its
  // patch, each clear) has settled.
  const writesLeft = new Map<string, number>();
  for (const w of [...mainWrites, ...clearWrites]) writesLeft.set(w.digits, (writesLeft.get(w.digits) ?? 0) + 1);
  const settled = (digits: readonly string[]) => {
    let n = 0;
    for (const d of digits) {
      const left = (writesLeft.get(d) ?? 1) - 1;
      writesLeft.set(d, left);
      if (left === 0) n++;
    }
    if (n > 0) tick(n);
  };
  const sendOne = async (batch: NumberWriteBatch, fields: (digits: string) => string[], clear?: string): Promise<void> => {
    if (stopped()) {
      for (const d of batch.digits) addFields(unsentFields, d, fields(d));
      settled(batch.digits);
      return;
    }
    try {
      await sendNumberBatch(client, batch);
      settled(batch.digits);
    } catch (err: unknown) {
      if (batch.bulk && isRefusal(err)) {
        await Promise.all(
          batch.ids.map((id, i) =>
            sendOne({ ids: [id], digits: [batch.digits[i]], patch: batch.patch, bulk: false }, fields, clear),
          ),
        );
        return;
      }
      for (const d of batch.digits) {
        const message = clear !== undefined && isRefusal(err) ? refusedClearMessage(clear, d, err) : errorText(err);
        addFailure(d, fields(d), message);
      }
      settled(batch.digits);
    }
  };
  const mainFields = new Map(mainWrites.map((w) => [w.digits, w.fields]));
  const numberWork = [
    ...batchNumberWrites(mainWrites).map((b) => limit(() => sendOne(b, (d) => mainFields.get(d) ?? []))),
    ...batchNumberWrites(clearWrites).map((b) => {
      const field = Object.keys(b.patch)[0];
      return limit(() => sendOne(b, () => [field], field));
    }),
  ];
  await Promise.all([...singleWork, ...numberWork]);

  // Read back what was written (fields that failed or were never sent are not waited for); poll
  // (bounded, with backoff) for asynchronous bulk changes.
  const toConverge: Extract<Op, { kind: "number" }>[] = [];
  for (const o of numberOps) {
    const skip = new Set([...(failedFields.get(o.key) ?? []), ...(unsentFields.get(o.key) ?? [])]);
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
  const convergeFailures = new Map<string, string>();
  const pendingWhy = new Map<string, string>();
  const pending = await convergeNumbers(client, toConverge, options, convergeFailures, pendingWhy);
  for (const [d, message] of convergeFailures) addFailure(d, [], message);
  for (const op of numberOps) {
    const error = numberFailures.get(op.key);
    const unsent = unsentFields.get(op.key);
    const why = pendingWhy.get(op.key);
    // Counted for progress when their writes settled (settled above), not again here.
    if (error) finish(fail(op, error), true);
    else if (unsent && unsent.size >= op.write.fields.length) finish(notStarted(op), true);
    else if (unsent) finish(fail(op, `interrupted before ${[...unsent].join(", ")} was sent; the rest was written`), true);
    else if (why) finish({ kind: op.kind, key: op.key, action: op.action, outcome: "pending", error: why }, true);
    else finish({ kind: op.kind, key: op.key, action: op.action, outcome: "ok" }, true);
  }

  // Webhooks: one list confirms every upsert and delete.
  const hookOps = single.filter((o): o is Extract<Op, { kind: "call_webhook" }> => o.kind === "call_webhook");
  if (hookOps.length > 0) {
    try {
      const now = await listWebhooks(client);
      // By key, not `results.find` per op: results holds every number too (10,000 in the bench).
      const hookResults = new Map(results.filter((x) => x.kind === "call_webhook").map((x) => [x.key, x]));
      for (const op of hookOps) {
        const r = hookResults.get(op.key);
        if (!r || r.outcome !== "ok") continue;
        const shows = op.action === "delete" ? !now.has(op.key) : now.get(op.key) === op.url;
        if (!shows) Object.assign(r, { outcome: "failed", error: "the change did not show when read back" });
      }
    } catch (err) {
      // The writes succeeded; a failed read-back is reported, not hidden.
      for (const r of results) if (r.kind === "call_webhook" && r.outcome === "ok") Object.assign(r, { outcome: "failed", error: `read-back failed: ${errorText(err)}` });
    }
  }

  await checkNoTwins(client, results);

  const order = new Map(prepared.ops.map((o, i) => [`${o.kind}\u0000${o.key}`, i]));
  const rank = (r: ChangeResult) => order.get(`${r.kind}\u0000${r.key}`) ?? 0;
  results.sort((a, b) => rank(a) - rank(b));
  return { results, pending, ok: results.every((r) => r.outcome === "ok"), ...(stopped() ? { interrupted: true } : {}) };
}

/**
 * Every sub-account this run created (or adopted at create) must exist exactly once afterwards: a
 * concurrent actor may have created the same name between our read by name and our POST, and no
 * read can close that window. A twin fails the item, naming every id (the run exits 1).
 */
async function checkNoTwins(client: WavixClient, results: ChangeResult[]): Promise<void> {
  const created = results.filter((r) => r.kind === "sub_account" && r.action === "create" && r.outcome === "ok");
  if (created.length === 0) return;
  let all: SubAccount[];
  try {
    all = await listAllSubAccounts(client);
  } catch (err) {
    for (const r of created) Object.assign(r, { outcome: "failed", error: `created, but the check for a twin failed: ${errorText(err)}` });
    return;
  }
  for (const r of created) {
    const problem = twinMessage(r.key, all);
    if (problem) Object.assign(r, { outcome: "failed", error: problem });
  }
}

async function convergeNumbers(
  client: WavixClient,
  ops: Extract<Op, { kind: "number" }>[],
  options: ApplyOptions,
  failures: Map<string, string>,
  pendingWhy: Map<string, string>,
): Promise<string[]> {
  if (ops.length === 0) return [];
  const deadline = Date.now() + (options.waitSeconds ?? 120) * 1000;
  let delay = options.pollBaseMs ?? 250;
  let open = ops;
  for (;;) {
    let read: Map<number, WavixNumber>;
    try {
      read = await rereadNumbers(client, open.map((o) => o.write.id));
    } catch (err) {
      for (const o of open) failures.set(o.key, `read-back failed: ${errorText(err)}`);
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
    const interrupted = options.signal?.aborted === true;
    if (interrupted || Date.now() + delay > deadline) {
      // Written and accepted: the API is still applying it. Pending, not failed (issue #14).
      const when = interrupted ? "when the run was interrupted" : "when --wait ran out";
      for (const o of open) {
        pendingWhy.set(o.key, `asynchronous change (${diffNumber(o.desired, read.get(o.write.id)!).map((f) => f.path).join(", ")}) had not shown ${when}; re-run plan later to confirm`);
      }
      return open.map((o) => o.key);
    }
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, 5000);
  }
}
