/**
 * The sync engine, generic over the resource kinds of src/kinds (it never names one): read
 * each kind the file names concurrently, let each kind diff its managed keys, and apply with
 * ordering between kinds, bounded concurrency, bulk fallback, per-item failure isolation and
 * progress (docs/CONTRACT.md parts 4 and 8).
 */
import pLimit from "p-limit";
import type { WavixClient } from "../client";
import type { DesiredState } from "../config/types";
import { applyWaves, KINDS } from "../kinds";
import type { AnyKind } from "../kinds";
import type { OpBase, PlanContext, ReadCache, Write, WriteNote } from "../kit/contract";
import { actionEffects, orderedEffects, type ChangeShape, type DestructiveEffect } from "../kit/change/effects";
import type { ApplyResult, ChangeKind, ChangeOwner, ChangeResult, Plan, PlannedChange, PlanNote, PlanProblem, Unmanaged } from "./types";
import { describeError, needsAPerson } from "../kit/change/error-text";
import { compareAccounts, keyAccount, WriteGate, type AccountPin, type BlastLimits } from "../kit/gate";

export interface PlanOptions {
  /** Remove (or disable, for a kind that has no delete) what the file does not declare, kind by kind. @default false */
  readonly prune?: boolean;
  /** Opt-ins a kind acts on only when asked (the CLI's `--send-callbacks` is `send-callbacks`). @default none */
  readonly flags?: readonly string[];
  /** Keys whose write-only secrets are sent again (`--rotate-password LABEL`). @default none */
  readonly rotate?: readonly string[];
  /**
   * `--target KIND/NAME`: keep only the changes (and problems) of these items, as Terraform's
   * `-target` does — for exceptional use (a fix that cannot wait for an unrelated item); the rest is
   * read and planned, then left out, and the plan says how many changes it left out. A change that
   * needs another in the same run (a number routed by label to a trunk the run creates) needs that
   * one targeted too. @default every item
   */
  readonly targets?: readonly PlanTarget[];
}

/** An item named by `--target KIND/NAME`: a kind's name and an item's identity. */
export interface PlanTarget {
  readonly kind: string;
  readonly key: string;
}

/** `KIND/NAME` as `--target` takes it (the name may hold `/`: a 10DLC link); throws naming what is wrong. */
export function parseTarget(text: string): PlanTarget {
  const slash = text.indexOf("/");
  const kind = slash > 0 ? text.slice(0, slash) : "";
  const key = slash > 0 ? text.slice(slash + 1) : "";
  const kinds = KINDS.map((k) => k.name);
  const named = KINDS.find((k) => k.name === kind);
  if (!named || key === "") {
    throw new Error(`--target takes KIND/NAME, KIND one of ${kinds.join(", ")}, NAME the item's name as the file writes it (its number, name or label), got "${text}"`);
  }
  return { kind, key: named.targetKey ? named.targetKey(key) : key };
}

/** The plan narrowed to `targets`: their changes and problems; the rest counted as left out. */
function narrow(prepared: { plan: Plan; ops: Op[] }, targets: readonly PlanTarget[]): void {
  const hit = (x: { kind: string; key: string }) => targets.some((t) => t.kind === x.kind && t.key === x.key);
  const { plan } = prepared;
  const kept = plan.changes.filter(hit);
  const named = (t: PlanTarget) => [...plan.changes, ...plan.problems].some((x) => x.kind === t.kind && x.key === t.key);
  plan.targeted = {
    targets: targets.map((t) => `${t.kind}/${t.key}`),
    leftOut: plan.changes.length - kept.length,
    leftOutProblems: plan.problems.filter((p) => !hit(p)).length,
    unmatched: targets.filter((t) => !named(t)).map((t) => `${t.kind}/${t.key}`),
  };
  plan.changes = kept;
  plan.problems = plan.problems.filter(hit);
  if (plan.notes) plan.notes = plan.notes.filter(hit);
  prepared.ops = prepared.ops.filter(hit);
  plan.summary = summarize(kept, plan.summary.unchanged);
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
  /**
   * How long after its writes a kind that replaces whole records looks again for another run's
   * stale write (the kind's own default when unset); tests whose subject is not that race shorten it.
   */
  readonly settleMs?: number;
  /**
   * The kinds whose ops to carry out, in registry order (tests of the engine's ordering give
   * their own). @default the registry, src/kinds/index.ts
   */
  readonly kinds?: readonly AnyKind[];
  /**
   * Apply even when the destructive changes pass the file's `safety:` limits (`--force`).
   * @default false
   */
  readonly force?: boolean;
  /**
   * The file's pin and limits (`account_id:`, `safety:`), when the plan did not come from
   * {@link computePlan} over the same file (a saved plan): the write gate holds the run to them.
   * @default what computePlan recorded in the plan
   */
  readonly desired?: Pick<DesiredState, "account_id" | "safety" | "file">;
  /**
   * The write gate of a face that drives several runs through one (src/kit/gate/gate.ts). Without
   * it, applyPlan makes one for this run from the file's pin and limits.
   */
  readonly gate?: WriteGate;
  /** Where secrets read at apply come from (a trunk's `password_env`). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}


/** One planned op: the kind's own op (typed in its folder), tagged with the kind that carries it out. */
export interface Op {
  readonly kind: ChangeKind;
  readonly key: string;
  readonly action: OpBase["action"];
  /** Counts toward the safety limits: it has a destructive effect (`effects`). */
  readonly destructive: boolean;
  /** Its destructive effects (its kind's `effects`); empty when it has none. */
  readonly effects: readonly DestructiveEffect[];
  readonly data: OpBase;
}

/** A plan plus what apply needs to carry it out (ids, current records). */
export interface PreparedPlan {
  plan: Plan;
  ops: Op[];
  /** The file's pin and blast-radius limits, which applyPlan's write gate holds the run to. */
  guard?: PlanGuard;
}

/** What the write gate of applyPlan takes from the file (src/kit/gate/). */
export interface PlanGuard {
  readonly pins: readonly AccountPin[];
  readonly limits?: Partial<BlastLimits>;
}

/** The file's pin and limits, for the write gate. */
export function guardOf(desired: Pick<DesiredState, "account_id" | "safety" | "file">): PlanGuard {
  return {
    pins: desired.account_id === undefined ? [] : [{ account: desired.account_id, source: `${desired.file ?? "the file"} account_id` }],
    ...(desired.safety ? { limits: desired.safety } : {}),
  };
}

/**
 * How many items of each kind the account holds, as a plan saw them: unchanged, updated,
 * replaced, deleted and unmanaged items (creates do not exist yet). The per-kind share of the
 * blast-radius limit is counted against it.
 */
export function existingItems(plan: Plan): (kind: string) => number {
  return (kind) =>
    (plan.unchangedByKind?.[kind as ChangeKind] ?? 0) +
    plan.changes.filter((c) => c.kind === kind && c.action !== "create").length +
    plan.unmanaged.filter((u) => u.kind === kind).length;
}

/** The destructive effects of a kind's change: what its kind's one rule says (src/kit/change/effects.ts). */
export function effectsOf(kind: Pick<AnyKind, "effects">, change: ChangeShape): DestructiveEffect[] {
  return orderedEffects((kind.effects ?? actionEffects)(change));
}

/** Whether a planned change is destructive: its effects, or (a plan built by hand) a delete or a replace. */
export function isDestructive(c: Pick<PlannedChange, "action" | "effects">): boolean {
  return c.effects !== undefined ? c.effects.length > 0 : c.action === "delete" || c.action === "replace";
}

/** The summary of a plan's changes (`unchanged` as the kinds counted it). */
export function summarize(changes: readonly PlannedChange[], unchanged: number): Plan["summary"] {
  const s = { create: 0, update: 0, replace: 0, delete: 0, unchanged, destructive: 0 };
  for (const c of changes) {
    s[c.action]++;
    if (isDestructive(c)) s.destructive++;
  }
  return s;
}

function errorText(err: unknown): string {
  return describeError(err); // one plain sentence (error-text.ts)
}

/** Reads several kinds need (a list one kind reads and another consults) go out once per plan. */
export function readCache(): ReadCache {
  const reads = new Map<string, Promise<unknown>>();
  return {
    once<T>(name: string, read: () => Promise<T>): Promise<T> {
      let p = reads.get(name) as Promise<T> | undefined;
      if (!p) reads.set(name, (p = read()));
      return p;
    },
  };
}

/** How many planned ops are destructive (by their effects): what the safety limits count. */
export function destructiveCount(prepared: PreparedPlan): number {
  return prepared.ops.filter((o) => o.destructive).length;
}

/**
 * The account as a plan reads it, started: the pin checked first (its one GET), then every kind the
 * file names read concurrently (a kind it does not name is not read). GETs only. {@link computePlan}
 * plans from it; a face that knows a plan will follow may start it earlier and hand it over (the
 * native plugin's Account resource starts it when a Check of an existing resource is answered, for
 * the Diff that follows: src/pulumi/plugin/account.ts).
 */
export interface AccountRead {
  /** The declared state and options it was read for: computePlan takes it only for these same objects. */
  readonly desired: DesiredState;
  readonly options: PlanOptions;
  readonly ctx: PlanContext<object>;
  /** Each kind's declared part (KINDS order), undefined where the file does not name the kind. */
  readonly declared: readonly unknown[];
  /** Each kind's current state (KINDS order); rejects as the pin or a read failed. */
  readonly current: Promise<readonly unknown[]>;
}

/** Starts reading the account for a plan of `desired` (see {@link AccountRead}). Sends only GETs. */
export function readAccount(client: WavixClient, desired: DesiredState, options: PlanOptions = {}): AccountRead {
  const ctx = { client, prune: options.prune === true, flags: new Set(options.flags ?? []), desired, rotate: new Set(options.rotate ?? []), cache: readCache(), describe: errorText };
  const declared = KINDS.map((k) => k.declared(desired));
  const guard = guardOf(desired);
  const current = (async () => {
    // The pin first (no request when the CLI checked it already with this client); nothing else is read for another account.
    if (guard.pins.length > 0) compareAccounts(await keyAccount(client), guard.pins, undefined, "the plan", { keyName: "WAVIX_API_KEY", pinHint: (a) => `\`account_id: ${a}\` in the file` });
    return Promise.all(KINDS.map((k, i) => (declared[i] === undefined ? undefined : k.read(ctx, declared[i]))));
  })();
  return { desired, options, ctx, declared, current };
}

/** Read the account (or take the reads {@link readAccount} started for the same state and options) and compute what would change. Sends only GETs. */
export async function computePlan(client: WavixClient, desired: DesiredState, options: PlanOptions = {}, read?: AccountRead): Promise<PreparedPlan> {
  const { ctx, declared, current: reading } = read !== undefined && read.desired === desired && read.options === options ? read : readAccount(client, desired, options);
  const guard = guardOf(desired);
  const current = await reading;
  const changes: PlannedChange[] = [];
  const ops: Op[] = [];
  const problems: PlanProblem[] = [];
  const unmanaged: Unmanaged[] = [];
  const notes: PlanNote[] = [];
  let unchanged = 0;
  // Per kind as well, for the Markdown summary table (plan/md.ts).
  const unchangedByKind = Object.fromEntries(KINDS.map((k) => [k.name, 0])) as Record<ChangeKind, number>;

  for (const [i, kind] of KINDS.entries()) {
    if (declared[i] === undefined || current[i] === undefined) continue;
    const part = await kind.plan(ctx, declared[i], current[i]);
    for (const c of part.changes) {
      const op: OpBase = c.op;
      const effects = effectsOf(kind, { action: op.action, diff: c.diff });
      changes.push({ kind: kind.name, key: op.key, action: op.action, diff: c.diff, effects, ...(c.owner ? { owner: c.owner as ChangeOwner } : {}) });
      ops.push({ kind: kind.name, key: op.key, action: op.action, destructive: effects.length > 0, effects, data: op });
    }
    for (const p of part.problems) problems.push({ kind: kind.name, key: p.key, message: p.message, ...(p.at ? { at: { path: p.at.path, ...p.at.pos } } : {}) });
    for (const key of part.unmanaged) unmanaged.push({ kind: kind.name, key });
    for (const n of part.notes ?? []) notes.push({ kind: kind.name, key: n.key, message: n.message });
    unchanged += part.unchanged;
    unchangedByKind[kind.name] += part.unchanged;
  }

  const plan: Plan = { changes, unmanaged, problems, summary: summarize(changes, unchanged), unchangedByKind };
  if (notes.length > 0) plan.notes = notes;
  const prepared = { plan, ops, guard };
  if (options.targets && options.targets.length > 0) narrow(prepared, options.targets);
  return prepared;
}

/** What the engine records while sending one kind's writes (the kind's WriteReport). */
class Report {
  readonly failedFields = new Map<string, Set<string>>();
  readonly failures = new Map<string, string>();
  readonly unsent = new Map<string, Set<string>>();
  readonly notes = new Map<string, WriteNote>();

  private add(map: Map<string, Set<string>>, key: string, fields: readonly string[]): void {
    const set = map.get(key) ?? new Set<string>();
    fields.forEach((f) => set.add(f));
    map.set(key, set);
  }
  fail(key: string, fields: readonly string[], message: string): void {
    this.add(this.failedFields, key, fields);
    const before = this.failures.get(key);
    this.failures.set(key, before ? `${before}; ${message}` : message);
  }
  skip(key: string, fields: readonly string[]): void {
    this.add(this.unsent, key, fields);
  }
}

/**
 * The waves as this run needs them: a kind waits only for kinds (named in `after`, directly or
 * through others) that have something to write in this run: when those have nothing to write, it
 * writes alongside the others, exactly as before kinds were ordered.
 */
function activeWaves(waves: AnyKind[][], active: (k: AnyKind) => boolean): AnyKind[][] {
  const level = new Map<string, number>();
  const byName = new Map<string, AnyKind>(waves.flat().map((k) => [k.name, k]));
  for (const k of waves.flat()) {
    let l = 0;
    for (const a of k.after ?? []) {
      const dep = byName.get(a);
      const la = level.get(a) ?? 0;
      l = Math.max(l, dep && active(dep) ? la + 1 : la);
    }
    level.set(k.name, l);
  }
  const out: AnyKind[][] = [];
  for (const k of waves.flat()) (out[level.get(k.name)!] ??= []).push(k);
  return out.filter((w) => w !== undefined);
}

/** A plan with problems handed to apply: nothing is written from an incomplete plan (docs/GUARD-RAILS.md). */
export class IncompletePlanError extends Error {
  constructor(readonly problems: readonly PlanProblem[]) {
    super(
      `nothing was written: ${problems.length} declared item${problems.length === 1 ? "" : "s"} could not be planned (${problems
        .slice(0, 3)
        .map((p) => `${p.kind} "${p.key}"`)
        .join(", ")}${problems.length > 3 ? ", …" : ""}), and nothing is written from an incomplete plan`,
    );
    this.name = "IncompletePlanError";
  }
}

/**
 * The secrets a prepared plan needs that this apply cannot have (each kind's `secrets`: a trunk whose
 * `password_env` variable is unset), one problem per item. Empty when apply may write.
 */
export function missingSecrets(client: Pick<WavixClient, "isApiKey">, prepared: PreparedPlan, env: NodeJS.ProcessEnv = process.env, kinds: readonly AnyKind[] = KINDS): PlanProblem[] {
  const out: PlanProblem[] = [];
  for (const kind of kinds) {
    const ops = prepared.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
    if (ops.length === 0 || !kind.secrets) continue;
    for (const p of kind.secrets(ops, { env, isApiKey: (v) => client.isApiKey(v) })) out.push({ kind: kind.name, key: p.key, message: p.message });
  }
  return out;
}

/** A plan whose secrets this apply cannot read (an unset `password_env` variable): nothing is written. */
export class MissingSecretError extends Error {
  constructor(readonly problems: readonly PlanProblem[]) {
    super(`nothing was written: ${problems.map((p) => `${p.kind} "${p.key}": ${p.message}`).join("; ")}`);
    this.name = "MissingSecretError";
  }
}

/**
 * Carry out a prepared plan. A failed item does not stop independent items; the result names
 * every failure, and a re-run (which plans afresh) finishes the rest.
 *
 * Each kind turns its ops into writes (data: which items, which fields, how to send, what to try
 * after a refusal); the engine sends them under one concurrency bound, wave by wave in the order
 * the kinds declare (`after`), counts progress per item, stops starting writes when interrupted,
 * and hands each kind its write report to read back and give results.
 */
export async function applyPlan(client: WavixClient, prepared: PreparedPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  // One rule for every caller, whatever it checked before: no write from an incomplete plan.
  if (prepared.plan.problems.length > 0) throw new IncompletePlanError(prepared.plan.problems);
  const kinds = options.kinds ?? KINDS;
  // And none when a secret it must send cannot be read now (a plan never holds one).
  const missing = missingSecrets(client, prepared, options.env, kinds);
  if (missing.length > 0) throw new MissingSecretError(missing);
  // The write gate: the account and the blast radius, before the first write (src/kit/gate/).
  const guard = options.desired ? guardOf(options.desired) : prepared.guard;
  const gate = options.gate ?? new WriteGate({ client, pins: guard?.pins, limits: guard?.limits, force: options.force });
  await gate.admitRun(
    prepared.ops.map((o) => ({ kind: o.kind, key: o.key, effects: o.effects })),
    existingItems(prepared.plan),
  );
  const gated = gate.client(client);
  const limit = pLimit(options.concurrency ?? 8);
  const total = prepared.ops.length;
  const stopped = () => options.signal?.aborted === true;
  let done = 0;
  const tick = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };

  const opsOf = new Map<ChangeKind, OpBase[]>();
  for (const o of prepared.ops) {
    const list = opsOf.get(o.kind) ?? [];
    list.push(o.data);
    opsOf.set(o.kind, list);
  }
  const reports = new Map<ChangeKind, Report>();
  // What creates made (`WriteNote.made`), for the writes of later waves.
  const made = new Map<string, Readonly<Record<string, unknown>>>();
  const earlier = { made: (kind: string, key: string) => made.get(itemId(kind as ChangeKind, key)) };

  // Progress counts items (also inside a bulk write): one is done when each of its writes has settled.
  const writesLeft = new Map<string, number>();
  const itemId = (kind: ChangeKind, key: string) => `${kind}\u0000${key}`;
  const settled = (kind: ChangeKind, keys: readonly string[]) => {
    let n = 0;
    for (const k of keys) {
      const id = itemId(kind, k);
      const left = (writesLeft.get(id) ?? 1) - 1;
      writesLeft.set(id, left);
      if (left === 0) n++;
    }
    if (n > 0) tick(n);
  };
  const send = async (kind: ChangeKind, report: Report, w: Write): Promise<void> => {
    if (stopped()) {
      for (const k of w.keys) report.skip(k, w.fields(k));
      settled(kind, w.keys);
      return;
    }
    try {
      const note = await w.send(gated);
      if (note && (note.reconciled || note.adopted || note.id !== undefined || note.twin !== undefined)) for (const k of w.keys) report.notes.set(k, note);
      if (note?.made) for (const k of w.keys) made.set(itemId(kind, k), note.made);
      settled(kind, w.keys);
    } catch (err: unknown) {
      const instead = w.fallback?.(err);
      if (instead) {
        await Promise.all(instead.map((x) => send(kind, report, x)));
        return;
      }
      for (const k of w.keys) report.fail(k, w.fields(k), w.failure?.(k, err) ?? errorText(err));
      settled(kind, w.keys);
    }
  };

  // Wave by wave: a kind's creates and updates after those of the kinds it is ordered after; the
  // deletes of a kind others are ordered after wait until those others have written (a trunk is
  // deleted only once no number is routed to it). Without ordering, everything is one wave.
  const waves = activeWaves(applyWaves(kinds), (k) => (opsOf.get(k.name)?.length ?? 0) > 0);
  const dependedOn = new Set(waves.flat().flatMap((k) => k.after ?? []));
  const phases: { kind: AnyKind; ops: OpBase[] }[][] = waves.map((wave) =>
    wave.map((kind) => ({ kind, ops: (opsOf.get(kind.name) ?? []).filter((o) => !(dependedOn.has(kind.name) && o.action === "delete")) })),
  );
  const lateDeletes = [...waves]
    .reverse()
    .map((wave) => wave.filter((k) => dependedOn.has(k.name)).map((kind) => ({ kind, ops: (opsOf.get(kind.name) ?? []).filter((o) => o.action === "delete") })));
  for (const phase of [...phases, ...lateDeletes]) {
    const work: Promise<void>[] = [];
    for (const { kind, ops } of phase) {
      if (ops.length === 0) continue;
      const report = reports.get(kind.name) ?? new Report();
      reports.set(kind.name, report);
      const writes = kind.writes(ops, earlier);
      for (const w of writes) for (const k of w.keys) writesLeft.set(itemId(kind.name, k), (writesLeft.get(itemId(kind.name, k)) ?? 0) + 1);
      for (const w of writes) work.push(limit(() => send(kind.name, report, w)));
    }
    await Promise.all(work);
  }

  // Read back, kind by kind: each kind gives its ops' results from what was recorded.
  const results: ChangeResult[] = [];
  const pending: string[] = [];
  const confirmCtx = {
    client: gated,
    waitSeconds: options.waitSeconds ?? 120,
    pollBaseMs: options.pollBaseMs ?? 250,
    settleMs: options.settleMs,
    signal: options.signal,
    describe: errorText,
  };
  for (const kind of kinds) {
    const ops = opsOf.get(kind.name);
    if (!ops) continue;
    const out = await kind.confirm(confirmCtx, ops, reports.get(kind.name) ?? new Report());
    // A failure a re-run cannot fix (a scope the key lacks, a password variable unset) is never promised to a re-run.
    for (const r of out.results) results.push({ kind: kind.name, ...r, ...(r.outcome === "failed" && r.error && needsAPerson(r.error) ? { rerunHelps: false as const } : {}) });
    pending.push(...(out.pending ?? []));
  }

  const order = new Map(prepared.ops.map((o, i) => [itemId(o.kind, o.key), i]));
  const rank = (r: ChangeResult) => order.get(itemId(r.kind, r.key)) ?? 0;
  results.sort((a, b) => rank(a) - rank(b));
  return { results, pending, ok: results.every((r) => r.outcome === "ok"), ...(stopped() ? { interrupted: true } : {}) };
}
