/** What several commands share: loading the file (validation first) and a client from the environment. */
import { WavixClient } from "../client";
import { formatProblem, loadDesiredState } from "../config";
import type { DesiredState } from "../config/types";
import { CliExit } from "./output";

/**
 * Load and validate the desired-state file. On problems, print every one of them
 * (`FILE:LINE:COL: message (at path)`) and exit 1 before any request is sent.
 */
export function loadFileOrExit(file: string): DesiredState {
  const result = loadDesiredState(file);
  if (!result.ok) {
    for (const p of result.problems) process.stderr.write(formatProblem(p) + "\n");
    throw new CliExit(1);
  }
  return result.state;
}

export interface ClientFlags {
  concurrency?: number;
}

/** A client whose key comes only from `WAVIX_API_KEY` (never a flag: flags end up in shell history and CI logs). */
export function clientFromEnv(flags: ClientFlags = {}): WavixClient {
  const apiKey = process.env.WAVIX_API_KEY;
  if (!apiKey) {
    process.stderr.write("Error: WAVIX_API_KEY is not set. Export the API key in the environment (it is never read from the file or a flag).\n");
    throw new CliExit(1);
  }
  return new WavixClient({
    apiKey,
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    onWarning: noteDrift,
  });
}

let driftCount = 0;
let driftSummaryArmed = false;

/**
 * Contract-drift notices (a response that does not match schemas/api): each printed with
 * WAVIX_SYNC_VERBOSE=1, otherwise summed up in one line on stderr when the command ends, so a
 * pipeline log shows that the API answered differently without drowning the plan.
 */
export function noteDrift(message: string): void {
  driftCount++;
  if (process.env.WAVIX_SYNC_VERBOSE) {
    process.stderr.write(`Warning: ${message}\n`);
    return;
  }
  if (!driftSummaryArmed) {
    driftSummaryArmed = true;
    // stderr is synchronous for files and pipes on Linux and macOS, so an exit handler may write.
    process.once("exit", () => process.stderr.write(driftSummaryLine(driftCount) + "\n"));
  }
}

/** The one-line summary printed when drift was seen and WAVIX_SYNC_VERBOSE is not set. */
export function driftSummaryLine(count: number): string {
  return `Warning: ${count} API response difference${count === 1 ? "" : "s"} from the documented schema (contract drift); set WAVIX_SYNC_VERBOSE=1 to see them`;
}

/** Parse a positive integer flag, with a clear message. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number of at least 1, got "${value}"`);
    return n;
  };
}

export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} takes a number of at least 0, got "${value}"`);
    return n;
  };
}
