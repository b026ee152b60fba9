/**
 * Saved plans (`plan --save PLANFILE`, `apply --plan PLANFILE`; docs/SAVED-PLANS.md): a plan
 * written as one versioned JSON document — every change with the values it was computed from, the
 * desired-state file's digest, the API and account it was made against — and read back to carry out
 * exactly those changes. A saved plan is verified, not trusted (docs/GUARD-RAILS.md): its digest is
 * a checksum anyone can recompute, so `apply --plan` computes every change again from the reviewed
 * desired-state file and the values the plan recorded (`verifySavedPlan`), and refuses unless they
 * are identical; then it re-reads only what the changes touch and refuses when any of it changed.
 *
 * Generic over the registry like the engine: each kind says how its ops are saved, loaded,
 * replayed and rechecked (`Kind.saved`, src/kit/contract.ts); this module never names a kind.
 */
import { createHash } from "node:crypto";
import type { WavixClient } from "../client";
import type { DesiredState } from "../config/types";
import { KINDS } from "../kinds";
import type { AnyKind } from "../kinds";
import type { Drift, KindChange, OpBase } from "../kit/contract";
import { SavedPlanNotReadyError } from "../kit/file/saved-data";
import { canonicalKey, SENSITIVE, type FieldDiff } from "../kit/change/diff";
import { CHANGE_ACTIONS } from "../kit/change/types";
import { DESTRUCTIVE_EFFECTS, EFFECT_TEXT, type DestructiveEffect } from "../kit/change/effects";
import { effectsOf, readCache, summarize, type Op, type PlanOptions, type PreparedPlan } from "./engine";
import { describeError } from "../kit/change/error-text";
import { maskDeep, maskText } from "./mask";
import type { ChangeAction, ChangeKind, Plan, PlannedChange, PlanProblem, PlanSummary, Unmanaged } from "./types";

/** The `format` of every saved plan. */
export const SAVED_PLAN_FORMAT = "wavix-sync-plan";
/**
 * The format version this build writes and reads. Raise it when an older build could misread a
 * newer file, or a newer build must not trust an older one. 2: the account is always named, the
 * file is the one `apply --plan` verifies the changes against (so the plan holds neither problems
 * nor the safety limits), each change says its destructive effects, the summary counts replacements.
 */
export const SAVED_PLAN_VERSION = 2;
/** The largest saved plan read, in bytes (a plan of 100,000 changes is far below it). */
export const MAX_SAVED_PLAN_BYTES = 256 * 1024 * 1024;
/** The deepest nesting of arrays and objects a saved plan may have (a real one has 8 at most). */
export const MAX_SAVED_PLAN_DEPTH = 64;

/** A saved plan, as written (docs/SAVED-PLANS.md has the field-by-field description). */
export interface SavedPlanDocument {
  readonly format: typeof SAVED_PLAN_FORMAT;
  readonly version: typeof SAVED_PLAN_VERSION;
  /** `sha256:` and the hex SHA-256 of the canonical JSON of `plan` (keys sorted, no blanks). */
  readonly digest: string;
  /** When it was saved; outside the digest, so the same account and file give the same digest. */
  readonly created_at: string;
  readonly plan: SavedPlanBody;
}

export interface SavedPlanBody {
  readonly tool: { readonly name: "wavix-sync"; readonly version: string };
  /** What the plan was made against: the API root and the account (as text: ids are never rounded). */
  readonly target: { readonly base_url: string; readonly account: string };
  /** The desired-state file the plan was made from: its path as given and the SHA-256 of its bytes. */
  readonly file: { readonly path: string; readonly sha256: string };
  /** Whether `--prune` made it: `apply --plan` must be given `--prune` too. */
  readonly prune: boolean;
  readonly changes: readonly SavedPlanChange[];
  readonly unmanaged: readonly Unmanaged[];
  readonly summary: PlanSummary;
  readonly unchanged_by_kind?: Record<string, number>;
}

export interface SavedPlanChange {
  readonly kind: ChangeKind;
  readonly key: string;
  readonly action: ChangeAction;
  /** Whether it has a destructive effect (`effects` is not empty). */
  readonly destructive: boolean;
  /** Its destructive effects (src/kit/change/effects.ts), as its kind classifies it. */
  readonly effects: readonly DestructiveEffect[];
  readonly diff: readonly FieldDiff[];
  /** The values the change was computed from (the kind's own form; null: the item did not exist). */
  readonly read: unknown;
  /** What apply needs to carry it out (the kind's own form). */
  readonly op: unknown;
}

/** Why a plan cannot be saved, or a saved plan cannot be applied: one line per item (or for the file). */
export class SavedPlanError extends Error {
  constructor(
    readonly headline: string,
    readonly items: readonly string[] = [],
  ) {
    super(items.length > 0 ? `${headline}\n${items.map((i) => `  ${i}`).join("\n")}` : headline);
    this.name = "SavedPlanError";
  }
}

/** What `plan --save` knows besides the plan. */
export interface SaveContext {
  readonly baseUrl: string;
  /** The account the key belongs to, as text (the file's pin, or `GET /v1/profile`'s id). Required: every write names its account. */
  readonly account: string;
  /** The path of the desired-state file, as given, and its bytes. */
  readonly filePath: string;
  readonly fileBytes: Uint8Array;
  readonly prune: boolean;
  readonly toolVersion: string;
  /** Values that must never be in the file (the API key): saving is refused when one is. */
  readonly secrets?: readonly (string | undefined)[];
  /** @default new Date() */
  readonly now?: Date;
}

/** `sha256:<hex>` of bytes. */
export function sha256(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** The digest of a saved plan's body: what the Markdown, the JSON output and `apply --plan` name. */
export function planDigest(body: SavedPlanBody): string {
  return sha256(canonicalKey(body));
}

/** A digest as `--expect-digest` takes it: `sha256:` and 64 hex digits, or the 64 digits alone (any case). */
const FULL_DIGEST = /^(?:sha256:)?([0-9a-f]{64})$/i;

/**
 * `apply --plan FILE --expect-digest SHA256` (docs/SAVED-PLANS.md, "The digest the reviewer saw"):
 * refuses, before any request, a saved plan whose digest is not the one given — the digest a
 * reviewer saw in the pull-request comment. The plan's own digest proves only that its body was not
 * changed since its digest was computed; anyone who can rewrite the file can compute a new one (a
 * delete appended for an object made after the review). The reviewer's digest, carried apart from
 * the file, cannot be recomputed so. The full digest is required: the comment's 12-digit short form
 * is 48 bits, which a determined forger could match.
 */
export function checkExpectedDigest(document: Pick<SavedPlanDocument, "digest">, expected: string): void {
  const m = FULL_DIGEST.exec(expected.trim());
  if (!m) {
    throw new SavedPlanError(
      `Error: --expect-digest needs the plan's full digest, sha256: and 64 hex digits (the pull-request comment shows it in parentheses after the short form), not ${JSON.stringify(expected.length > 80 ? `${expected.slice(0, 80)}…` : expected)}; nothing was applied.`,
    );
  }
  const want = `sha256:${m[1].toLowerCase()}`;
  if (document.digest !== want) {
    throw new SavedPlanError(
      `Error: this saved plan is not the one reviewed: its digest is ${document.digest}, and --expect-digest is ${want}. Apply only the plan whose digest the review showed (make the plan again and review it otherwise); nothing was applied.`,
    );
  }
}

/** The short form a pull-request comment shows: the first 12 hex digits. */
export function shortDigest(digest: string): string {
  return digest.replace(/^sha256:/, "").slice(0, 12);
}

function itemName(kind: string, key: string): string {
  return `${kind} "${key}"`;
}

/** A diff as saved: a sensitive field keeps only the marker, whatever a kind put in it. */
function savedDiff(f: FieldDiff): FieldDiff {
  return f.sensitive ? { path: f.path, before: null, after: SENSITIVE, sensitive: true } : { path: f.path, before: f.before ?? null, after: f.after ?? null };
}

/** The problems of a plan, one line each, for a refusal. */
function problemLines(problems: readonly PlanProblem[]): string[] {
  return problems.map((p) => `${itemName(p.kind, p.key)}: ${maskText(p.message)}`);
}

/**
 * The saved form of a prepared plan. Refuses (SavedPlanError, naming them) a plan with problems
 * (nothing is written from an incomplete plan, so none is saved), a change of a kind without
 * saved-plan support, and a secret that would end up in the file.
 */
export function savePlan(prepared: PreparedPlan, ctx: SaveContext, kinds: readonly AnyKind[] = KINDS): { document: SavedPlanDocument; text: string } {
  if (prepared.plan.problems.length > 0) {
    throw new SavedPlanError(
      `Error: this plan cannot be saved: ${prepared.plan.problems.length} declared item${prepared.plan.problems.length === 1 ? "" : "s"} could not be planned, and nothing is written from an incomplete plan; nothing was saved. Fix ${prepared.plan.problems.length === 1 ? "it" : "them"} and plan again:`,
      problemLines(prepared.plan.problems),
    );
  }
  if (typeof ctx.account !== "string" || ctx.account === "") {
    throw new SavedPlanError("Error: this plan cannot be saved: the account it is for is not known (every write names its account); nothing was saved.");
  }
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const unsupported = [...new Set(prepared.ops.filter((o) => !byName.get(o.kind)?.saved).map((o) => o.kind))];
  if (unsupported.length > 0) {
    throw new SavedPlanError(
      `Error: this plan cannot be saved: ${unsupported.join(", ")} changes are not supported in saved plans yet; nothing was written. Run apply without --plan instead.`,
    );
  }
  const diffs = new Map(prepared.plan.changes.map((c) => [`${c.kind}\u0000${c.key}`, c.diff]));
  const changes: SavedPlanChange[] = prepared.ops.map((o) => {
    let saved: ReturnType<NonNullable<AnyKind["saved"]>["save"]>;
    try {
      saved = byName.get(o.kind)!.saved!.save(o.data);
    } catch (err) {
      throw new SavedPlanError(
        `Error: this plan cannot be saved: ${o.kind} ${o.key}: ${(err as Error).message}; nothing was written. Run apply without --plan instead.`,
      );
    }
    return {
      kind: o.kind,
      key: o.key,
      action: o.action,
      destructive: o.destructive,
      effects: [...o.effects],
      diff: (diffs.get(`${o.kind}\u0000${o.key}`) ?? []).map(savedDiff),
      read: saved.read,
      op: saved.op,
    };
  });
  const plan = prepared.plan;
  const body: SavedPlanBody = {
    tool: { name: "wavix-sync", version: ctx.toolVersion },
    target: { base_url: ctx.baseUrl, account: ctx.account },
    file: { path: ctx.filePath, sha256: sha256(ctx.fileBytes) },
    prune: ctx.prune,
    changes,
    unmanaged: plan.unmanaged.map((u) => ({ kind: u.kind, key: u.key })),
    // Counted from the changes saved (what apply --plan checks it against).
    summary: summarize(changes.map((c) => ({ ...c, diff: [...c.diff], effects: [...c.effects] })), plan.summary.unchanged),
    ...(plan.unchangedByKind ? { unchanged_by_kind: { ...plan.unchangedByKind } } : {}),
  };
  const document: SavedPlanDocument = {
    format: SAVED_PLAN_FORMAT,
    version: SAVED_PLAN_VERSION,
    digest: planDigest(body),
    created_at: (ctx.now ?? new Date()).toISOString(),
    plan: body,
  };
  const text = JSON.stringify(document, null, 2) + "\n";
  for (const secret of ctx.secrets ?? []) {
    if (secret && secret.length >= 4 && text.includes(secret)) {
      throw new SavedPlanError("Error: this plan cannot be saved: it would hold the API key; nothing was written.");
    }
  }
  return { document, text };
}

/** The plan a saved document shows (for the renderers), with its digest. */
function displayPlan(doc: SavedPlanDocument): Plan {
  const p = doc.plan;
  return {
    changes: p.changes.map((c) => ({ kind: c.kind, key: c.key, action: c.action, diff: c.diff.map((f) => ({ ...f })), effects: [...c.effects] })),
    unmanaged: p.unmanaged.map((u) => ({ ...u })),
    problems: [],
    summary: { ...p.summary },
    ...(p.unchanged_by_kind ? { unchangedByKind: { ...(p.unchanged_by_kind as Record<ChangeKind, number>) } } : {}),
    saved: { digest: doc.digest },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing (strings
 * skipped), stopping past `limit`: a plan nested deeper than any real one is refused before the
 * parser or any recursive walk (the digest's) can run out of stack.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** The parts of a summary a plan's changes decide, in the order `summarize` counts them. */
const COUNTED = ["create", "update", "replace", "delete", "destructive"] as const;

/** A loaded saved plan: the document, what apply carries out, and each op's saved change (same order). */
export interface LoadedSavedPlan {
  readonly document: SavedPlanDocument;
  readonly prepared: PreparedPlan;
  /** The saved change each of `prepared.ops` was loaded from. */
  readonly saved: readonly SavedPlanChange[];
}

/**
 * A saved plan's text as a document, checked but not loaded: bounded in size and depth, JSON, this
 * format and version, contents matching the digest, the parts every reader needs. `outcome` ends
 * each refusal (`nothing was applied`). Throws SavedPlanError.
 */
function checkedDocument(text: string, outcome: string): { plan: Record<string, unknown> } & Record<string, unknown> {
  if (text.length > MAX_SAVED_PLAN_BYTES) {
    throw new SavedPlanError(`Error: this saved plan is larger than ${MAX_SAVED_PLAN_BYTES} bytes, far past any real plan; ${outcome}.`);
  }
  if (jsonDepth(text, MAX_SAVED_PLAN_DEPTH) > MAX_SAVED_PLAN_DEPTH) {
    throw new SavedPlanError(`Error: this saved plan is nested more than ${MAX_SAVED_PLAN_DEPTH} levels deep, far past any real plan; ${outcome}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SavedPlanError(`Error: this is not a saved plan (not JSON: ${(err as Error).message}); ${outcome}.`);
  }
  if (!isRecord(raw) || raw.format !== SAVED_PLAN_FORMAT) {
    throw new SavedPlanError(`Error: this is not a saved plan (its "format" is not "${SAVED_PLAN_FORMAT}"); ${outcome}.`);
  }
  if (raw.version !== SAVED_PLAN_VERSION) {
    const old = Number.isInteger(raw.version) && (raw.version as number) < SAVED_PLAN_VERSION;
    throw new SavedPlanError(
      `Error: this saved plan has format version ${JSON.stringify(raw.version)}; this wavix-sync reads version ${SAVED_PLAN_VERSION}` +
        (old ? " (an older wavix-sync made it, before saved plans named their account and were verified against the file)" : "") +
        `. Make the plan again with this version (wavix-sync plan --save); ${outcome}.`,
    );
  }
  if (typeof raw.digest !== "string" || !isRecord(raw.plan) || planDigest(raw.plan as unknown as SavedPlanBody) !== raw.digest) {
    throw new SavedPlanError(
      `Error: this saved plan's contents do not match its digest: it was changed or damaged after it was saved. Make the plan again; ${outcome}.`,
    );
  }
  const body = raw.plan;
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  need(isRecord(body.target) && typeof body.target.base_url === "string" && typeof body.target.account === "string" && body.target.account !== "", "target is not { base_url, account }");
  need(isRecord(body.file) && typeof body.file.path === "string" && typeof body.file.sha256 === "string", "file is not { path, sha256 }");
  need(typeof body.prune === "boolean", "prune is not true or false");
  need(Array.isArray(body.changes) && Array.isArray(body.unmanaged) && isRecord(body.summary), "changes, unmanaged or summary is missing");
  need(body.problems === undefined, "it lists problems, and a plan with problems is never saved");
  if (problems.length > 0) throw new SavedPlanError(`Error: this saved plan is malformed; ${outcome}:`, problems);
  return raw as { plan: Record<string, unknown> } & Record<string, unknown>;
}

/**
 * A saved plan for a person to read (`wavix-sync show`): the document and its plan, checked as
 * {@link checkedDocument} does (digest included), without loading each change for apply; needs no
 * key, no file and no environment. Throws SavedPlanError.
 */
export function readSavedPlan(text: string): { document: SavedPlanDocument; plan: Plan } {
  const raw = checkedDocument(text, "nothing to show");
  const bad = (raw.plan.changes as unknown[])
    .map((c, i) =>
      isRecord(c) && typeof c.kind === "string" && typeof c.key === "string" && CHANGE_ACTIONS.includes(c.action as ChangeAction) && Array.isArray(c.diff) && c.diff.every(isRecord) && Array.isArray(c.effects)
        ? undefined
        : `change ${i + 1}: not { kind, key, action, diff, effects, ... }`,
    )
    .filter((p): p is string => p !== undefined);
  if (bad.length > 0) throw new SavedPlanError("Error: this saved plan is malformed; nothing to show:", bad);
  const document = raw as unknown as SavedPlanDocument;
  return { document, plan: displayPlan(document) };
}

/**
 * Reads a saved plan's text: bounded in size and depth, JSON, this format and version, contents
 * matching the digest, every change loadable by its kind and none twice, a summary that counts
 * its changes. Throws SavedPlanError naming the file's problem or each bad item.
 */
export function parseSavedPlan(text: string, kinds: readonly AnyKind[] = KINDS): LoadedSavedPlan {
  const raw = checkedDocument(text, "nothing was applied");
  const body = raw.plan;
  const problems: string[] = [];
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const ops: Op[] = [];
  const saved: SavedPlanChange[] = [];
  const notReady: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, c] of (body.changes as unknown[]).entries()) {
    if (!isRecord(c) || typeof c.kind !== "string" || typeof c.key !== "string" || !CHANGE_ACTIONS.includes(c.action as ChangeAction)) {
      problems.push(`change ${i + 1}: not { kind, key, action, ... }`);
      continue;
    }
    const name = itemName(c.kind, c.key);
    const id = `${c.kind}\u0000${c.key}`;
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${name}: change ${i + 1} changes it again (change ${first + 1} does): a plan changes each item once`);
      continue;
    }
    seen.set(id, i);
    const kind = byName.get(c.kind as ChangeKind);
    if (!kind) {
      problems.push(`${name}: this wavix-sync has no kind "${c.kind}"`);
      continue;
    }
    if (!kind.saved) {
      problems.push(`${name}: ${c.kind} changes are not supported in saved plans`);
      continue;
    }
    if (!Array.isArray(c.diff) || !c.diff.every((f) => isRecord(f) && typeof f.path === "string")) {
      problems.push(`${name}: diff is not a list of { path, before, after }`);
      continue;
    }
    const effects = c.effects;
    if (typeof c.destructive !== "boolean" || !Array.isArray(effects) || !effects.every((e) => DESTRUCTIVE_EFFECTS.includes(e as DestructiveEffect))) {
      problems.push(`${name}: destructive is not true or false, or effects is not a list of ${DESTRUCTIVE_EFFECTS.join(", ")}`);
      continue;
    }
    if (c.destructive !== effects.length > 0) {
      problems.push(`${name}: destructive is ${c.destructive}, and its effects are ${effects.length > 0 ? effects.join(", ") : "none"}`);
      continue;
    }
    try {
      const action = c.action as ChangeAction;
      const data: OpBase = kind.saved.load(c.key, action, { read: c.read, op: c.op });
      if (data.key !== c.key || data.action !== action) throw new Error(`its op is for ${itemName(kind.name, data.key)} (${data.action})`);
      ops.push({ kind: kind.name, key: c.key, action, destructive: c.destructive, effects: effects as DestructiveEffect[], data });
      saved.push(c as unknown as SavedPlanChange);
    } catch (err) {
      if (err instanceof SavedPlanNotReadyError) notReady.push(`${name}: ${err.message}`);
      else problems.push(`${name}: ${describeError(err)}`);
    }
  }
  if (problems.length === 0 && notReady.length === 0) {
    const counted = summarize(
      saved.map((c) => ({ kind: c.kind, key: c.key, action: c.action, diff: [], effects: [...c.effects] })),
      0,
    );
    const summary = body.summary as Record<string, unknown>;
    const wrong = COUNTED.filter((k) => summary[k] !== counted[k]);
    if (wrong.length > 0 || !Number.isInteger(summary.unchanged)) {
      problems.push(`summary does not count its changes (${wrong.map((k) => `${k}: ${JSON.stringify(summary[k])}, the changes make ${counted[k]}`).join("; ") || "unchanged is not a number"})`);
    }
  }
  if (problems.length > 0) throw new SavedPlanError("Error: this saved plan is malformed; nothing was applied:", problems);
  if (notReady.length > 0) throw new SavedPlanError("Error: this saved plan cannot be carried out in this environment; nothing was applied:", notReady);
  const document = raw as unknown as SavedPlanDocument;
  return { document, prepared: { plan: displayPlan(document), ops }, saved };
}

/** What `apply --plan` talks to, to compare with the plan's target. */
export interface ApplyTarget {
  readonly baseUrl: string;
  /** The account the key belongs to, as text; null when the API cannot say; undefined: not compared (yet). */
  readonly account?: string | null;
}

/**
 * Refuses a plan made against another API root or another account (SavedPlanError). Accounts are
 * compared as text, never as JavaScript numerals (an id past 2^53 is not rounded into another).
 */
export function checkTarget(document: SavedPlanDocument, target: ApplyTarget): void {
  const t = document.plan.target;
  if (t.base_url !== target.baseUrl) {
    throw new SavedPlanError(`Error: this plan was made against ${t.base_url}, and this run talks to ${target.baseUrl}; nothing was applied.`);
  }
  if (target.account === undefined) return;
  if (target.account === null) {
    throw new SavedPlanError(
      `Error: this plan was made for account ${t.account}, and which account the key in WAVIX_API_KEY is for cannot be read (GET /v1/profile): pin \`account_id: ${t.account}\` in the file, or use a key that may read the profile; nothing was applied.`,
    );
  }
  if (t.account !== target.account) {
    throw new SavedPlanError(`Error: this plan was made for account ${t.account}, and the key in WAVIX_API_KEY is for account ${target.account}; nothing was applied.`);
  }
}

/** Refuses a plan whose desired-state file is not the one given. */
export function checkFile(document: SavedPlanDocument, filePath: string, bytes: Uint8Array): void {
  const got = sha256(bytes);
  if (got !== document.plan.file.sha256) {
    throw new SavedPlanError(
      `Error: ${filePath} is not the file this plan was made from (${document.plan.file.path}, ${shortDigest(document.plan.file.sha256)}; this one is ${shortDigest(got)}); nothing was applied.`,
    );
  }
}

/** A value as a refusal quotes it: URL passwords masked, long values cut. */
function quoted(v: unknown): string {
  const text = v === undefined ? "absent" : JSON.stringify(maskDeep(v));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** The first place two plain JSON values differ (`op.desired.call_status_url`), with both values; undefined when equal. */
export function firstDifference(planned: unknown, implied: unknown, path: string): string | undefined {
  if (canonicalKey(planned) === canonicalKey(implied)) return undefined;
  if (Array.isArray(planned) && Array.isArray(implied) && planned.length === implied.length) {
    for (let i = 0; i < planned.length; i++) {
      const d = firstDifference(planned[i], implied[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (isRecord(planned) && isRecord(implied)) {
    for (const k of [...new Set([...Object.keys(planned), ...Object.keys(implied)])].sort()) {
      const d = firstDifference(planned[k], implied[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path} is ${quoted(planned)} in the plan, and ${quoted(implied)} by the file and the plan's reads`;
}

function effectList(effects: readonly DestructiveEffect[]): string {
  return effects.length === 0 ? "not destructive" : `destructive (${effects.map((e) => EFFECT_TEXT[e]).join(", ")})`;
}

/** How a saved change differs from the one the file and its reads imply; undefined when identical. */
function changeDifference(kind: AnyKind, saved: SavedPlanChange, implied: KindChange<OpBase>): string | undefined {
  if (implied.op.action !== saved.action) return `the plan says ${saved.action}, and the file and the plan's reads imply ${implied.op.action}`;
  const effects = effectsOf(kind, { action: implied.op.action, diff: implied.diff });
  if (saved.destructive !== effects.length > 0 || canonicalKey(saved.effects) !== canonicalKey(effects)) {
    return `the plan says it is ${effectList(saved.effects)}, and it is ${effectList(effects)}`;
  }
  let again: { read: unknown; op: unknown };
  try {
    again = kind.saved!.save(implied.op);
  } catch (err) {
    return `the file implies a change a saved plan cannot hold (${describeError(err)})`;
  }
  return (
    firstDifference(saved.read, again.read, "read") ??
    firstDifference(saved.op, again.op, "op") ??
    firstDifference(saved.diff, implied.diff.map(savedDiff), "diff")
  );
}

/**
 * Verifies a saved plan against the reviewed desired-state file (`apply --plan`, docs/SAVED-PLANS.md):
 * each kind's `plan` runs again over the part of the file the plan's changes are about and the
 * values the plan recorded as read (`saved.replay`), with this run's `options` (prune, opt-ins), and
 * every change it gives must be one the plan holds, identical — action, destructive effects, diff,
 * read and op — and every change the plan holds must be given. Refuses (SavedPlanError, naming
 * each item and how it differs) otherwise, and on any problem the plan would now have. GETs only,
 * and only where a kind's plan reads (a label resolved to an id, what routes to an item to delete).
 */
export async function verifySavedPlan(
  client: WavixClient,
  desired: DesiredState,
  loaded: LoadedSavedPlan,
  options: PlanOptions = {},
  kinds: readonly AnyKind[] = KINDS,
): Promise<void> {
  const ctx = {
    client,
    prune: options.prune === true,
    flags: new Set(options.flags ?? []),
    desired,
    rotate: new Set(options.rotate ?? []),
    cache: readCache(),
    describe: describeError,
  };
  const items: string[] = [];
  const byKind = new Map<string, { ops: OpBase[]; saved: SavedPlanChange[] }>();
  loaded.prepared.ops.forEach((o, i) => {
    const entry = byKind.get(o.kind) ?? { ops: [], saved: [] };
    entry.ops.push(o.data);
    entry.saved.push(loaded.saved[i]);
    byKind.set(o.kind, entry);
  });
  const file = desired.file;
  for (const kind of kinds) {
    const entry = byKind.get(kind.name);
    if (!entry) continue;
    const declared = kind.declared(desired);
    if (declared === undefined || !kind.saved) {
      for (const c of entry.saved) items.push(`${itemName(c.kind, c.key)}: ${file} has no ${kind.file.key}, so it implies no change of it`);
      continue;
    }
    const again = kind.saved.replay(declared, entry.ops);
    let part;
    try {
      part = await kind.plan(ctx, again.declared, again.current);
    } catch (err) {
      items.push(`${kind.name}: its changes could not be computed again: ${describeError(err)}`);
      continue;
    }
    for (const p of part.problems) items.push(`${itemName(kind.name, p.key)}: ${maskText(p.message)}`);
    const implied = new Map<string, KindChange<OpBase>[]>();
    for (const c of part.changes) implied.set(c.op.key, [...(implied.get(c.op.key) ?? []), c]);
    for (const s of entry.saved) {
      const [c, ...more] = implied.get(s.key) ?? [];
      implied.delete(s.key);
      if (!c) {
        items.push(`${itemName(s.kind, s.key)}: the plan says ${s.action}, and ${file} and the plan's reads imply no change of it${ctx.prune ? "" : " (without --prune nothing undeclared is deleted)"}`);
        continue;
      }
      const d = changeDifference(kind, s, c);
      if (d) items.push(`${itemName(s.kind, s.key)}: ${d}`);
      if (more.length > 0) items.push(`${itemName(s.kind, s.key)}: ${file} implies ${more.length + 1} changes of it, and the plan holds one`);
    }
    for (const [key, cs] of implied) items.push(`${itemName(kind.name, key)}: ${file} and the plan's reads imply a change (${cs[0].op.action}) the plan does not hold`);
  }
  if (items.length > 0) {
    throw new SavedPlanError(
      `Error: this saved plan is not what ${file} implies (${items.length} item${items.length === 1 ? "" : "s"}): it was edited after it was made, or made from another file; nothing was applied. Make the plan again from the reviewed file:`,
      items,
    );
  }
}

/**
 * Re-reads what the plan's changes touch, kind by kind (each kind's `saved.recheck`: only those
 * items, bounded requests, GETs only), and refuses — SavedPlanError naming each item — when any of
 * them is no longer as the plan read it, or when it could not be read.
 */
export async function recheckSavedPlan(client: WavixClient, prepared: PreparedPlan, kinds: readonly AnyKind[] = KINDS): Promise<void> {
  const ctx = { client, describe: describeError };
  const failures: string[] = [];
  const drifts = await Promise.all(
    kinds.map(async (kind): Promise<{ kind: AnyKind; drift: Drift[] }> => {
      const ops = prepared.ops.filter((o) => o.kind === kind.name).map((o) => o.data);
      if (ops.length === 0 || !kind.saved) return { kind, drift: [] };
      try {
        return { kind, drift: await kind.saved.recheck(ctx, ops) };
      } catch (err) {
        failures.push(`${kind.name}: ${describeError(err)}`);
        return { kind, drift: [] };
      }
    }),
  );
  if (failures.length > 0) {
    throw new SavedPlanError("Error: could not read again what the plan changes, so it cannot be checked; nothing was applied:", failures);
  }
  const items = drifts.flatMap(({ kind, drift }) => drift.map((d) => `${itemName(kind.name, d.key)}: ${d.message}`));
  if (items.length > 0) {
    throw new SavedPlanError(
      `Error: the account changed since the plan was made (${items.length} item${items.length === 1 ? "" : "s"}); nothing was applied. Make the plan again:`,
      items,
    );
  }
}
