/**
 * Saved plans (`plan --save PLANFILE`, `apply --plan PLANFILE`; docs/SAVED-PLANS.md): a plan
 * written as one versioned JSON document — every change with the values it was computed from, the
 * desired-state file's digest, the API it was made against — and read back to carry out exactly
 * those changes, after re-reading only what they touch and refusing when any of it changed.
 *
 * Generic over the registry like the engine: each kind says how its ops are saved, loaded and
 * rechecked (`Kind.saved`, src/kit/contract.ts); this module never names a kind.
 */
import { createHash } from "node:crypto";
import type { WavixClient } from "../client";
import type { SafetySettings } from "../config/types";
import { KINDS } from "../kinds";
import type { AnyKind } from "../kinds";
import type { Drift, OpBase } from "../kit/contract";
import { SavedPlanNotReadyError } from "../kit/file/saved-data";
import { canonicalKey, SENSITIVE, type FieldDiff } from "../kit/change/diff";
import type { Op, PreparedPlan } from "./engine";
import { describeError } from "../kit/change/error-text";
import type { ChangeAction, ChangeKind, Plan, PlanProblem, PlanSummary, Unmanaged } from "./types";

/** The `format` of every saved plan. */
export const SAVED_PLAN_FORMAT = "wavix-sync-plan";
/** The format version this build writes and reads. Raise it when an older build could misread a newer file. */
export const SAVED_PLAN_VERSION = 1;

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
  /** What the plan was made against: the API root and, when the API says, the account. */
  readonly target: { readonly base_url: string; readonly account: string | null };
  /** The desired-state file the plan was made from: its path as given and the SHA-256 of its bytes. */
  readonly file: { readonly path: string; readonly sha256: string };
  readonly prune: boolean;
  /** The file's `safety:` section (absent: the defaults); `apply --plan` checks the same limits. */
  readonly safety?: SafetySettings;
  readonly changes: readonly SavedPlanChange[];
  readonly problems: readonly PlanProblem[];
  readonly unmanaged: readonly Unmanaged[];
  readonly summary: PlanSummary;
  readonly unchanged_by_kind?: Record<string, number>;
}

export interface SavedPlanChange {
  readonly kind: ChangeKind;
  readonly key: string;
  readonly action: ChangeAction;
  readonly destructive: boolean;
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
  /** The account the key belongs to, when the API can say; null otherwise. */
  readonly account?: string | null;
  /** The path of the desired-state file, as given, and its bytes. */
  readonly filePath: string;
  readonly fileBytes: Uint8Array;
  readonly prune: boolean;
  /** The file's `safety:` section, when it has one. */
  readonly safety?: SafetySettings;
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

/**
 * The saved form of a prepared plan. Refuses (SavedPlanError, naming the kinds) when the plan holds
 * a change of a kind without saved-plan support, and when a secret would end up in the file.
 */
export function savePlan(prepared: PreparedPlan, ctx: SaveContext, kinds: readonly AnyKind[] = KINDS): { document: SavedPlanDocument; text: string } {
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
      diff: (diffs.get(`${o.kind}\u0000${o.key}`) ?? []).map(savedDiff),
      read: saved.read,
      op: saved.op,
    };
  });
  const plan = prepared.plan;
  const body: SavedPlanBody = {
    tool: { name: "wavix-sync", version: ctx.toolVersion },
    target: { base_url: ctx.baseUrl, account: ctx.account ?? null },
    file: { path: ctx.filePath, sha256: sha256(ctx.fileBytes) },
    prune: ctx.prune,
    ...(ctx.safety !== undefined ? { safety: { ...ctx.safety } } : {}),
    changes,
    problems: plan.problems.map((p) => ({ kind: p.kind, key: p.key, message: p.message })),
    unmanaged: plan.unmanaged.map((u) => ({ kind: u.kind, key: u.key })),
    summary: { ...plan.summary },
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
    changes: p.changes.map((c) => ({ kind: c.kind, key: c.key, action: c.action, diff: c.diff.map((f) => ({ ...f })) })),
    unmanaged: p.unmanaged.map((u) => ({ ...u })),
    problems: p.problems.map((x) => ({ ...x })),
    summary: { ...p.summary },
    ...(p.unchanged_by_kind ? { unchangedByKind: { ...(p.unchanged_by_kind as Record<ChangeKind, number>) } } : {}),
    saved: { digest: doc.digest },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const ACTIONS: readonly ChangeAction[] = ["create", "update", "delete"];

/**
 * Reads a saved plan's text: JSON, this format and version, contents matching the digest, every
 * change loadable by its kind. Throws SavedPlanError naming the file's problem or each bad item.
 */
export function parseSavedPlan(text: string, kinds: readonly AnyKind[] = KINDS): { document: SavedPlanDocument; prepared: PreparedPlan } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SavedPlanError(`Error: this is not a saved plan (not JSON: ${(err as Error).message}); nothing was applied.`);
  }
  if (!isRecord(raw) || raw.format !== SAVED_PLAN_FORMAT) {
    throw new SavedPlanError(`Error: this is not a saved plan (its "format" is not "${SAVED_PLAN_FORMAT}"); nothing was applied.`);
  }
  if (raw.version !== SAVED_PLAN_VERSION) {
    throw new SavedPlanError(
      `Error: this saved plan has format version ${JSON.stringify(raw.version)}; this wavix-sync reads version ${SAVED_PLAN_VERSION}. ` +
        "Make the plan again with this version (wavix-sync plan --save); nothing was applied.",
    );
  }
  if (typeof raw.digest !== "string" || !isRecord(raw.plan) || planDigest(raw.plan as unknown as SavedPlanBody) !== raw.digest) {
    throw new SavedPlanError(
      "Error: this saved plan's contents do not match its digest: it was changed or damaged after it was saved. Make the plan again; nothing was applied.",
    );
  }
  const body = raw.plan;
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  need(isRecord(body.target) && typeof body.target.base_url === "string" && (body.target.account === null || typeof body.target.account === "string"), "target is not { base_url, account }");
  need(isRecord(body.file) && typeof body.file.path === "string" && typeof body.file.sha256 === "string", "file is not { path, sha256 }");
  need(body.safety === undefined || (isRecord(body.safety) && Object.values(body.safety).every((v) => Number.isFinite(v))), "safety is not the file's safety: section");
  need(Array.isArray(body.changes) && Array.isArray(body.problems) && Array.isArray(body.unmanaged) && isRecord(body.summary), "changes, problems, unmanaged or summary is missing");
  if (problems.length > 0) throw new SavedPlanError("Error: this saved plan is malformed; nothing was applied:", problems);

  const byName = new Map(kinds.map((k) => [k.name, k]));
  const ops: Op[] = [];
  const notReady: string[] = [];
  for (const [i, c] of (body.changes as unknown[]).entries()) {
    if (!isRecord(c) || typeof c.kind !== "string" || typeof c.key !== "string" || !ACTIONS.includes(c.action as ChangeAction)) {
      problems.push(`change ${i + 1}: not { kind, key, action, ... }`);
      continue;
    }
    const name = itemName(c.kind, c.key);
    const kind = byName.get(c.kind as ChangeKind);
    if (!kind) {
      problems.push(`${name}: this wavix-sync has no kind "${c.kind}"`);
      continue;
    }
    if (!kind.saved) {
      problems.push(`${name}: ${c.kind} changes are not supported in saved plans`);
      continue;
    }
    if (!Array.isArray(c.diff)) {
      problems.push(`${name}: diff is not a list`);
      continue;
    }
    try {
      const data: OpBase = kind.saved.load(c.key, c.action as ChangeAction, { read: c.read, op: c.op });
      ops.push({ kind: kind.name, key: c.key, action: c.action as ChangeAction, destructive: c.destructive === true || c.action === "delete", data });
    } catch (err) {
      if (err instanceof SavedPlanNotReadyError) notReady.push(`${name}: ${err.message}`);
      else problems.push(`${name}: ${describeError(err)}`);
    }
  }
  if (problems.length > 0) throw new SavedPlanError("Error: this saved plan is malformed; nothing was applied:", problems);
  if (notReady.length > 0) throw new SavedPlanError("Error: this saved plan cannot be carried out in this environment; nothing was applied:", notReady);
  const document = raw as unknown as SavedPlanDocument;
  return { document, prepared: { plan: displayPlan(document), ops } };
}

/** What `apply --plan` talks to, to compare with the plan's target. */
export interface ApplyTarget {
  readonly baseUrl: string;
  /** The account the key belongs to; null when the API cannot say; undefined: not compared (yet). */
  readonly account?: string | null;
}

/** Refuses a plan made against another API root or another account (SavedPlanError). */
export function checkTarget(document: SavedPlanDocument, target: ApplyTarget): void {
  const t = document.plan.target;
  if (t.base_url !== target.baseUrl) {
    throw new SavedPlanError(`Error: this plan was made against ${t.base_url}, and this run talks to ${target.baseUrl}; nothing was applied.`);
  }
  if (t.account !== null && target.account !== undefined && t.account !== target.account) {
    const now = target.account ? `account ${target.account}` : "an account it cannot identify";
    throw new SavedPlanError(`Error: this plan was made for account ${t.account}, and the key in WAVIX_API_KEY is for ${now}; nothing was applied.`);
  }
}

/** Refuses a plan whose desired-state file is not the one given (when one is given to compare). */
export function checkFile(document: SavedPlanDocument, filePath: string, bytes: Uint8Array): void {
  const got = sha256(bytes);
  if (got !== document.plan.file.sha256) {
    throw new SavedPlanError(
      `Error: ${filePath} is not the file this plan was made from (${document.plan.file.path}, ${shortDigest(document.plan.file.sha256)}; this one is ${shortDigest(got)}); nothing was applied.`,
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
