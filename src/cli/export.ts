/** `wavix-sync export`: the account as a wavix.yaml that plans clean, streamed out (no whole-account document in memory). */
import type { Command } from "commander";
import { ForbiddenError, NotFoundError, type WavixClient } from "../client";
import { checkAccountPin } from "../kit/provider/account-pin";
import { formatCount } from "../plan/count";
import { streamExport } from "../resources/export";
import { writeFileAtomicStream } from "./files";
import { clientFromEnv, loadFileOrExit, MAX_RPS_HELP, positiveNumber, timeoutOption } from "./common";
import { declareCommand } from "./heads";
import { NO_PROGRESS, readProgress } from "./progress";

/** Where editors find the schema when wavix-sync is installed in the repo. */
const SCHEMA_PATH = "./node_modules/wavix-sync/schemas/wavix.schema.json";

/**
 * Writes to stdout, waiting when the pipe is full (a slow reader holds the export back, memory stays
 * flat). A failed write (a full disk behind `> file`, ENOSPC) rejects naming standard output; the
 * stream's own 'error' event is caught so it cannot end the process with a stack trace.
 */
function writeStdout(chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error): void => {
      if ((err as NodeJS.ErrnoException).code !== undefined) (err as NodeJS.ErrnoException).path = "standard output";
      reject(err);
    };
    try {
      process.stdout.write(chunk, (err) => (err ? fail(err) : resolve()));
    } catch (err) {
      fail(err as Error);
    }
  });
}

/**
 * The account the export describes, as text (every write names its account, docs/GUARD-RAILS.md):
 * with `-f FILE` pinning one, the pin, checked against the key before anything else is read (a key
 * for another account stops the export); else `GET /v1/profile`'s id; null when the key may not
 * read the profile (the export then says so, and writes no pin).
 */
async function exportAccountId(client: WavixClient, file: string | undefined): Promise<string | null> {
  if (file !== undefined) {
    const desired = loadFileOrExit(file);
    if (desired.account_id !== undefined) {
      await checkAccountPin(client, desired.account_id, `${file} account_id`);
      return String(desired.account_id);
    }
  }
  try {
    return String((await client.getAccountProfile()).id);
  } catch (err) {
    if (err instanceof ForbiddenError || err instanceof NotFoundError) return null;
    throw err;
  }
}

export function registerExport(program: Command): void {
  declareCommand(program, "export")
    .option("--out <FILE>", "write to FILE instead of standard output")
    .option("-f, --file <FILE>", "a desired-state file whose account_id: pin the key must match (checked before anything is read); the export writes that pin")
    .addOption(timeoutOption())
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"))
    .action(async (flags: { out?: string; file?: string; timeout?: number; maxRps?: number }) => {
      // Progress on a terminal (stderr) for a large account, unless the file itself goes to that terminal.
      const progress = flags.out !== undefined || !process.stdout.isTTY ? readProgress("Exporting") : NO_PROGRESS;
      const client = clientFromEnv({ timeout: flags.timeout, maxRps: flags.maxRps, ...(progress.onPage ? { onPage: progress.onPage } : {}) });
      const onWarning = (message: string): void => {
        progress.stop();
        process.stderr.write(`Warning: ${message}\n`);
      };
      const accountId = await exportAccountId(client, flags.file);
      if (accountId === null) onWarning("account_id is not written: the key may not read GET /v1/profile; add the pin to the file by hand (account_id: <id>)");
      if (flags.out) {
        const out = flags.out;
        let summary = { subAccounts: 0, numbers: 0 };
        try {
          await writeFileAtomicStream(out, async (write) => {
            summary = await streamExport(client, write, { schemaPath: SCHEMA_PATH, onWarning, accountId, starterAudit: true });
          });
        } finally {
          progress.stop();
        }
        process.stderr.write(`Wrote ${out} (${formatCount(summary.subAccounts)} sub-accounts, ${formatCount(summary.numbers)} numbers).\n`);
      } else {
        // A failed write is reported once by the command (writeStdout rejects); not again as an event.
        const quiet = (): void => undefined;
        process.stdout.on("error", quiet);
        try {
          await streamExport(client, writeStdout, { schemaPath: SCHEMA_PATH, onWarning, accountId, starterAudit: true });
        } finally {
          progress.stop();
        }
      }
    });
}
