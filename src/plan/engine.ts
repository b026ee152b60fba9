/**
 * The sync engine: read current state in batches, diff managed keys, and apply with bounded
 * concurrency, bulk writes, convergence polling and per-item failure isolation
 * (PRODUCT.md parts 4 and 8).
 */
import pLimit from "p-limit";
import type { WavixClient } from "../client";
import { isWavixApiError } from "../client";
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
  updateSubAccount,
  deleteWebhook,
  upsertWebhook,
  type NumberSettings,
  type NumberWrite,
  type NumberWriteBatch,
  type SubAccountSettings,
} from "../resources";
import type { ApplyResult, ChangeResult, Plan, PlannedChange, PlanProblem, Unmanaged } from "./types";
import { findNumberOwners, numberOwnedBySubAccountMessage } from "./owners";
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
      if (diff.length === 0) unchanged++;
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
      if (diff.length === 0) unchanged++;
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

  return { plan: { changes, unmanaged, problems, summary: summarize(changes, unchanged) }, ops };
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
        if (op.kind === "sub_account") {
          if (op.action === "create") reconciled = (await createSubAccount(client, op.desired)).reconciled;
          else if (op.action === "update") await updateSubAccount(client, op.current, op.desired);
          else await disableSubAccount(client, op.current);
        } else if (op.kind === "call_webhook") {
          if (op.action === "delete") await deleteWebhook(client, op.key);
          else await upsertWebhook(client, op.key, op.url);
        }
        finish({ kind: op.kind, key: op.key, action: op.action, outcome: "ok", ...(reconciled ? { reconciled } : {}) });
      } catch (err) {
        finish(fail(op, err));
      }
    }),
  );

  // Numbers: uniform patches go out as bulk PATCHes; a failed bulk falls back to one PATCH per
  // number so that one bad number cannot fail its neighbours.
  const byDigits = new Map(numberOps.map((o) => [o.key, o]));
  const written = new Set<string>();
  const numberFailures = new Map<string, string>();
  const unsent = new Set<string>();
  const batches = batchNumberWrites(numberOps.map((o) => o.write));
  const sendOne = async (batch: NumberWriteBatch): Promise<void> => {
    if (stopped()) {
      batch.digits.forEach((d) => unsent.add(d));
      tick(batch.digits.length);
      return;
    }
    try {
      await sendNumberBatch(client, batch);
      batch.digits.forEach((d) => written.add(d));
      tick(batch.digits.length);
    } catch (err: unknown) {
      if (batch.bulk && isWavixApiError(err) && err.status >= 400 && err.status < 500 && err.status !== 429) {
        await Promise.all(
          batch.ids.map((id, i) =>
            sendOne({ ids: [id], digits: [batch.digits[i]], patch: batch.patch, bulk: false }),
          ),
        );
        return;
      }
      batch.digits.forEach((d) => numberFailures.set(d, errorText(err)));
      tick(batch.digits.length);
    }
  };
  const numberWork = batches.map((b) => limit(() => sendOne(b)));
  await Promise.all([...singleWork, ...numberWork]);

  // Read back what was written; poll (bounded, with backoff) for asynchronous bulk changes.
  const pendingWhy = new Map<string, string>();
  const pending = await convergeNumbers(client, [...written].map((d) => byDigits.get(d)!), options, numberFailures, pendingWhy);
  for (const op of numberOps) {
    const error = numberFailures.get(op.key);
    const why = pendingWhy.get(op.key);
    // Counted for progress when their write settled (tick above), not again here.
    if (unsent.has(op.key)) finish(notStarted(op), true);
    else if (error) finish(fail(op, error), true);
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

  const order = new Map(prepared.ops.map((o, i) => [`${o.kind}\u0000${o.key}`, i]));
  const rank = (r: ChangeResult) => order.get(`${r.kind}\u0000${r.key}`) ?? 0;
  results.sort((a, b) => rank(a) - rank(b));
  return { results, pending, ok: results.every((r) => r.outcome === "ok"), ...(stopped() ? { interrupted: true } : {}) };
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
