/**
 * The CLI's side of saved plans (docs/SAVED-PLANS.md): `plan --save PLANFILE` writes one, and
 * `apply --plan PLANFILE` reads it, checks it is for this API and account (and for `--file`, when
 * given), re-reads what it touches, and hands the engine exactly its changes.
 */
import { readFileSync } from "node:fs";
import type { WavixClient } from "../client";
import { checkFile, checkTarget, parseSavedPlan, recheckSavedPlan, savePlan, SavedPlanError, type PreparedPlan } from "../plan";
import { describeError } from "../plan/error-text";
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

function refuse(err: unknown): never {
  if (err instanceof SavedPlanError) {
    process.stderr.write(err.message + "\n");
    throw new CliExit(1);
  }
  throw err;
}

/**
 * The account the key belongs to, when the API can say. Today the client has no read that names
 * it, so plans record only the API root (`target.account` is null and is not checked).
 */
async function accountOf(_client: WavixClient): Promise<string | null> {
  return null;
}

/** `plan --save`: writes the saved plan (atomically) and returns the prepared plan carrying its digest. */
export async function savePlanFile(
  prepared: PreparedPlan,
  client: WavixClient,
  options: { planFile: string; file: string; prune: boolean },
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
      account: await accountOf(client),
      filePath: options.file,
      fileBytes,
      prune: options.prune,
      toolVersion: require("../../package.json").version as string,
      secrets: [process.env.WAVIX_API_KEY],
    });
  } catch (err) {
    refuse(err);
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
 * `apply --plan`: the saved plan, checked (format, digest, target, `--file` when given) and
 * rechecked against the account; refuses with exit 1, having written nothing, otherwise.
 * Returns the prepared plan and the desired-state file it was made from (for the renderings).
 */
export async function loadPlanFile(
  client: WavixClient,
  options: { planFile: string; file?: string },
): Promise<{ prepared: PreparedPlan; file: string }> {
  let text: string;
  try {
    const bytes = readFileSync(options.planFile);
    if (bytes.length > MAX_PLAN_BYTES) throw new Error(`larger than ${MAX_PLAN_BYTES} bytes`);
    text = bytes.toString("utf8");
  } catch (err) {
    process.stderr.write(`Error: cannot read --plan ${options.planFile}: ${readErrorText(err)}; nothing was applied.\n`);
    throw new CliExit(1);
  }
  try {
    const { document, prepared } = parseSavedPlan(text);
    checkTarget(document, { baseUrl: client.baseUrl, account: document.plan.target.account === null ? null : await accountOf(client) });
    if (options.file !== undefined) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(options.file);
      } catch (err) {
        throw new SavedPlanError(`Error: cannot read ${options.file} to compare it with the plan's: ${readErrorText(err)}; nothing was applied.`);
      }
      checkFile(document, options.file, bytes);
    }
    await recheckSavedPlan(client, prepared);
    return { prepared, file: document.plan.file.path };
  } catch (err) {
    refuse(err);
  }
}
