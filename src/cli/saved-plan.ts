/**
 * The CLI's side of saved plans (docs/SAVED-PLANS.md): `plan --save PLANFILE` writes one (naming its
 * account, never from a plan with problems), and `apply --plan PLANFILE -f FILE` reads it, checks it
 * is for this API, this file and this account, verifies every change against the file, re-reads
 * what it touches, and hands the engine exactly its changes.
 */
import { readFileSync, statSync } from "node:fs";
import type { WavixClient } from "../client";
import type { DesiredState } from "../config/types";
import {
  AccountMismatchError,
  checkExpectedDigest,
  checkFile,
  computePlan,
  checkTarget,
  MAX_SAVED_PLAN_BYTES,
  parseSavedPlan,
  recheckSavedPlan,
  savePlan,
  SavedPlanError,
  verifySavedPlan,
  type PreparedPlan,
  type SavedPlanChange,
  type SavedPlanDocument,
} from "../plan";
import type { RunReport } from "./guard";
import { describeError } from "../kit/change/error-text";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";

/** A failed read of a file as one plain phrase (describeError words write failures). */
function readErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return describeError(err);
}

/** Prints a refusal, records it for the `--out` report (stage `saved-plan`), exits 1. */
function refuse(err: unknown, run: RunReport): never {
  if (err instanceof SavedPlanError) {
    process.stderr.write(err.message + "\n");
    run.stage = "saved-plan";
    run.problems = [err.headline.replace(/^Error: /, "").replace(/:$/, ""), ...err.items];
    throw new CliExit(1);
  }
  throw err;
}

/** `plan --save`: writes the saved plan (atomically) and returns the prepared plan carrying its digest. */
export async function savePlanFile(
  prepared: PreparedPlan,
  client: WavixClient,
  run: RunReport,
  options: { planFile: string; file: string; prune: boolean; desired: DesiredState },
): Promise<PreparedPlan> {
  let fileBytes: Buffer;
  try {
    fileBytes = readFileSync(options.file);
  } catch (err) {
    process.stderr.write(`Error: cannot read ${options.file} again to record its digest: ${readErrorText(err)}\n`);
    throw new CliExit(1);
  }
  let saved;
  try {
    // Every write names its account: a plan whose account is not known is not saved (GUARD-RAILS.md).
    const account = await run.account(client);
    if (account === null) {
      throw new SavedPlanError(
        `Error: this plan cannot be saved: which account WAVIX_API_KEY is for cannot be read (the key may not read GET /v1/profile), and ${options.file} pins none; ` +
          `a saved plan always names its account. Pin it in the file (\`account_id: <your account id>\`), or plan with a key that may read the profile; nothing was saved.`,
      );
    }
    saved = savePlan(prepared, {
      baseUrl: client.baseUrl,
      account,
      filePath: options.file,
      fileBytes,
      prune: options.prune,
      toolVersion: require("../../package.json").version as string,
      secrets: [process.env.WAVIX_API_KEY],
    });
  } catch (err) {
    refuse(err, run);
  }
  try {
    await writeFileAtomic(options.planFile, saved.text);
  } catch (err) {
    process.stderr.write(`Error: cannot write --save ${options.planFile}: ${describeError(err)}\n`);
    throw new CliExit(1);
  }
  return { ...prepared, plan: { ...prepared.plan, saved: { digest: saved.document.digest } } };
}

/** The opt-ins a saved plan was made with, read from its changes (the plan holds what they send). */
function savedOptIns(changes: readonly SavedPlanChange[]): { sendCallbacks: boolean; rotate: string[] } {
  return {
    sendCallbacks: changes.some((c) => c.kind === "account_callbacks"),
    rotate: changes.filter((c) => c.kind === "sip_trunk" && c.action === "update" && (c.op as { rotate?: unknown } | null)?.rotate === true).map((c) => c.key),
  };
}

/**
 * The plan decides what its opt-ins send: the account callbacks only when it was made with
 * `--send-callbacks` (it then holds their change), a trunk's password only when it was made with
 * `--rotate-password LABEL` (its change says `rotate: true`); what they send is what the file
 * declares, which the verification checks. Either flag given to `apply --plan` for what the plan
 * does not send is refused, rather than silently not sending it. `--prune`, which deletes, must be
 * given to `apply --plan` exactly when the plan was made with it: the apply's own command line (the
 * reviewed pipeline), not the plan file, says that it prunes.
 */
function optInsAgree(document: SavedPlanDocument, options: { prune?: boolean; sendCallbacks?: boolean; rotate?: readonly string[] }): void {
  const { changes } = document.plan;
  if (document.plan.prune && !options.prune) {
    throw new SavedPlanError(
      "Error: this plan was made with --prune (it deletes or disables what the file does not declare): give --prune to apply --plan as well, so that the apply itself says it prunes; nothing was applied.",
    );
  }
  if (!document.plan.prune && options.prune) {
    throw new SavedPlanError("Error: --prune and --plan disagree: this plan was made without --prune (it prunes nothing); drop --prune, or make the plan again with it; nothing was applied.");
  }
  if (options.sendCallbacks && !changes.some((c) => c.kind === "account_callbacks")) {
    throw new SavedPlanError(
      "Error: --send-callbacks and --plan disagree: this plan was made without --send-callbacks (it sends no account callbacks); make the plan again with --send-callbacks, or drop it; nothing was applied.",
    );
  }
  // A create sends the password anyway.
  const rotated = (label: string) =>
    changes.some((c) => c.kind === "sip_trunk" && c.key === label && (c.action === "create" || (c.op as { rotate?: unknown } | null)?.rotate === true));
  const missing = (options.rotate ?? []).filter((label) => !rotated(label));
  if (missing.length > 0) {
    throw new SavedPlanError(
      `Error: --rotate-password and --plan disagree: this plan was not made with --rotate-password ${missing.join(" ")} (it sends no password for ${missing.length === 1 ? "that trunk" : "those trunks"}); make the plan again with it, or drop it; nothing was applied.`,
    );
  }
}

/**
 * `apply --plan`: the saved plan, checked (size, depth, format, digest, the reviewer's digest when
 * `--expect-digest` gives it, each change, the opt-ins,
 * the API root, the file's SHA-256, the account), verified against the reviewed file (every change
 * computed again from it and the plan's reads), and rechecked against the account; refuses with
 * exit 1, having written nothing, otherwise (docs/SAVED-PLANS.md has the order). Returns the
 * prepared plan and the path the plan was made from.
 */
export async function loadPlanFile(
  client: WavixClient,
  run: RunReport,
  options: {
    planFile: string;
    /** The desired-state file given with `-f` (required with `--plan`), and its loaded state. */
    file: string;
    desired: DesiredState;
    prune?: boolean;
    /** `--send-callbacks` and `--rotate-password` given with `--plan`: they must be what the plan was made with. */
    sendCallbacks?: boolean;
    rotate?: readonly string[];
    /** `--expect-digest`: the digest the reviewer saw; any other plan is refused before any request. */
    expectDigest?: string;
  },
): Promise<{ prepared: PreparedPlan; file: string; alreadyApplied?: boolean }> {
  let text: string;
  try {
    // The size is bounded before anything is read into memory.
    if (statSync(options.planFile).size > MAX_SAVED_PLAN_BYTES) throw new Error(`larger than ${MAX_SAVED_PLAN_BYTES} bytes`);
    text = readFileSync(options.planFile, "utf8");
  } catch (err) {
    refuse(new SavedPlanError(`Error: cannot read --plan ${options.planFile}: ${readErrorText(err)}; nothing was applied.`), run);
  }
  try {
    const loaded = parseSavedPlan(text);
    const { document } = loaded;
    // The reviewer's digest first: a plan nobody reviewed sends nothing, not even the account read.
    if (options.expectDigest !== undefined) checkExpectedDigest(document, options.expectDigest);
    optInsAgree(document, options);
    // The API root first: a plan for another API sends nothing there, not even the account read.
    checkTarget(document, { baseUrl: client.baseUrl });
    let bytes: Buffer;
    try {
      bytes = readFileSync(options.file);
    } catch (err) {
      throw new SavedPlanError(`Error: cannot read ${options.file} to compare it with the plan's: ${readErrorText(err)}; nothing was applied.`);
    }
    checkFile(document, options.file, bytes);
    // Always compared: the file's pin (checked against the key), else the key's own account.
    let account: string | null;
    try {
      await run.checkPin(client, options.desired);
      account = await run.account(client);
    } catch (err) {
      if (err instanceof AccountMismatchError) throw err;
      throw new SavedPlanError(`Error: cannot tell which account the key is for (${describeError(err)}), so the plan made for account ${document.plan.target.account} cannot be checked; nothing was applied.`);
    }
    checkTarget(document, { baseUrl: client.baseUrl, account });
    const optIns = savedOptIns(document.plan.changes);
    await verifySavedPlan(client, options.desired, loaded, {
      prune: document.plan.prune,
      flags: optIns.sendCallbacks ? ["send-callbacks"] : [],
      rotate: optIns.rotate,
    });
    try {
      await recheckSavedPlan(client, loaded.prepared);
    } catch (err) {
      // A re-run of an apply that succeeded reads the plan's own writes as "changed since": when the
      // account now holds every change of the plan, exactly, that is not a refusal but "already applied".
      if (err instanceof SavedPlanError && (await alreadyApplied(client, options.desired, document, optIns))) {
        return { prepared: loaded.prepared, file: document.plan.file.path, alreadyApplied: true };
      }
      throw err;
    }
    return { prepared: loaded.prepared, file: document.plan.file.path };
  } catch (err) {
    refuse(err, run);
  }
}

/**
 * Whether every change of the saved plan is already in effect in the account, exactly: a fresh plan
 * of the (verified, identical) file, with the plan's prune and opt-ins, holds no change and no
 * problem for any item the plan changes. The plan was verified to be what the file implies, so "the
 * file implies no change of it now" is "the account holds what the plan writes". A change the API
 * cannot show back (the account callbacks, a rotated password) always plans again, so such a plan
 * never counts as applied; anything short of all of them still refuses.
 */
async function alreadyApplied(
  client: WavixClient,
  desired: DesiredState,
  document: SavedPlanDocument,
  optIns: { sendCallbacks: boolean; rotate: string[] },
): Promise<boolean> {
  if (document.plan.changes.length === 0) return false;
  let fresh;
  try {
    fresh = await computePlan(client, desired, { prune: document.plan.prune, flags: optIns.sendCallbacks ? ["send-callbacks"] : [], rotate: optIns.rotate });
  } catch {
    return false;
  }
  const pending = new Set([...fresh.plan.changes, ...fresh.plan.problems].map((c) => `${c.kind}\u0000${c.key}`));
  return document.plan.changes.every((c) => !pending.has(`${c.kind}\u0000${c.key}`));
}
