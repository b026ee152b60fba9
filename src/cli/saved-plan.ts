/**
 * The CLI's side of saved plans (docs/SAVED-PLANS.md): `plan --save PLANFILE` writes one, and
 * `apply --plan PLANFILE` reads it, checks it is for this API and account (and for `--file`, when
 * given), re-reads what it touches, and hands the engine exactly its changes.
 */
import { readFileSync } from "node:fs";
import type { WavixClient } from "../client";
import { ForbiddenError, NotFoundError } from "../client";
import type { DesiredState } from "../config/types";
import { checkFile, checkTarget, parseSavedPlan, recheckSavedPlan, savePlan, SavedPlanError, type PreparedPlan } from "../plan";
import type { RunReport } from "./guard";
import { describeError } from "../kit/change/error-text";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";

/** The largest saved plan read (a plan of 100,000 numbers is far below it). */
const MAX_PLAN_BYTES = 256 * 1024 * 1024;

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

/**
 * The account the key belongs to (`GET /v1/profile`), as text; null when the key may not read it
 * (a key without the account scope) or the API has no such read. The file's verified pin saves
 * the request.
 */
async function accountOf(client: WavixClient, pinned?: number): Promise<string | null> {
  if (pinned !== undefined) return String(pinned);
  try {
    return String((await client.getAccountProfile()).id);
  } catch (err) {
    if (err instanceof ForbiddenError || err instanceof NotFoundError) return null;
    throw err;
  }
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
    saved = savePlan(prepared, {
      baseUrl: client.baseUrl,
      // The file's pin was checked against the key before the plan was read (guard.ts).
      account: await accountOf(client, options.desired.account_id),
      filePath: options.file,
      fileBytes,
      prune: options.prune,
      toolVersion: require("../../package.json").version as string,
      secrets: [process.env.WAVIX_API_KEY],
      ...(options.desired.safety !== undefined ? { safety: options.desired.safety } : {}),
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

/**
 * The plan decides what is sent: the account callbacks only when it was made with
 * `--send-callbacks` (it then holds their change), a trunk's password only when it was made with
 * `--rotate-password LABEL` (its change says `rotate: true`). Either flag given to `apply --plan`
 * for what the plan does not send is refused, rather than silently not sending it.
 */
function optInsAgree(changes: readonly { kind: string; key: string; op: unknown }[], options: { sendCallbacks?: boolean; rotate?: readonly string[] }): void {
  if (options.sendCallbacks && !changes.some((c) => c.kind === "account_callbacks")) {
    throw new SavedPlanError(
      "Error: --send-callbacks and --plan disagree: this plan was made without --send-callbacks (it sends no account callbacks); make the plan again with --send-callbacks, or drop it; nothing was applied.",
    );
  }
  // A create sends the password anyway.
  const rotated = (label: string) =>
    changes.some((c) => c.kind === "sip_trunk" && c.key === label && ((c as { action?: string }).action === "create" || (c.op as { rotate?: unknown } | null)?.rotate === true));
  const missing = (options.rotate ?? []).filter((label) => !rotated(label));
  if (missing.length > 0) {
    throw new SavedPlanError(
      `Error: --rotate-password and --plan disagree: this plan was not made with --rotate-password ${missing.join(" ")} (it sends no password for ${missing.length === 1 ? "that trunk" : "those trunks"}); make the plan again with it, or drop it; nothing was applied.`,
    );
  }
}

/**
 * `apply --plan`: the saved plan, checked (format, digest, target, `--file` when given) and
 * rechecked against the account; refuses with exit 1, having written nothing, otherwise.
 * Returns the prepared plan and the desired-state file it was made from (for the renderings).
 */
export async function loadPlanFile(
  client: WavixClient,
  run: RunReport,
  options: {
    planFile: string;
    file?: string;
    prune?: boolean;
    /** The file's account pin, already checked against the key. */ pinned?: number;
    /** `--send-callbacks` and `--rotate-password` given with `--plan`: they must be what the plan was made with. */
    sendCallbacks?: boolean;
    rotate?: readonly string[];
  },
): Promise<{ prepared: PreparedPlan; file: string; limits: Pick<DesiredState, "safety"> }> {
  if (options.prune) refuse(new SavedPlanError("Error: --prune and --plan disagree: a saved plan already says what it prunes; drop --prune."), run);
  let text: string;
  try {
    const bytes = readFileSync(options.planFile);
    if (bytes.length > MAX_PLAN_BYTES) throw new Error(`larger than ${MAX_PLAN_BYTES} bytes`);
    text = bytes.toString("utf8");
  } catch (err) {
    refuse(new SavedPlanError(`Error: cannot read --plan ${options.planFile}: ${readErrorText(err)}; nothing was applied.`), run);
  }
  try {
    const { document, prepared } = parseSavedPlan(text);
    optInsAgree(document.plan.changes, options);
    // The API root first: a plan for another API sends nothing there, not even the account read.
    checkTarget(document, { baseUrl: client.baseUrl });
    if (options.file !== undefined) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(options.file);
      } catch (err) {
        throw new SavedPlanError(`Error: cannot read ${options.file} to compare it with the plan's: ${readErrorText(err)}; nothing was applied.`);
      }
      checkFile(document, options.file, bytes);
    }
    let account: string | null = null;
    if (document.plan.target.account !== null) {
      try {
        account = await accountOf(client, options.pinned);
      } catch (err) {
        throw new SavedPlanError(`Error: cannot tell which account the key is for (${describeError(err)}), so the plan made for account ${document.plan.target.account} cannot be checked; nothing was applied.`);
      }
    }
    checkTarget(document, { baseUrl: client.baseUrl, account });
    await recheckSavedPlan(client, prepared);
    return { prepared, file: document.plan.file.path, limits: document.plan.safety !== undefined ? { safety: document.plan.safety } : {} };
  } catch (err) {
    refuse(err, run);
  }
}
