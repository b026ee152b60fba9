/** What several commands share: loading the file (validation first) and a client from the environment. */
import { Option } from "commander";
import { nodeHttpFetch, WavixClient, type PageRead, type RetryNotice } from "../client";
// The loader itself, not the config index: the index also re-exports serialize, which loads the
// registry of kinds (every plan handler), and no command needs it to read a file.
import { formatProblem, loadDesiredState } from "../config/load";
import type { DesiredState } from "../config/types";
import { CliExit, progressLine } from "./output";

/**
 * Load and validate the desired-state file. On problems, print every one of them
 * (`FILE:LINE:COL: message (at path)`) and exit 1 before any request is sent.
 */
export function loadFileOrExit(file: string): DesiredState {
  // The key itself must not hide in a value (a URL's query, say): refused without being echoed.
  const result = loadDesiredState(file, { secretValues: [process.env.WAVIX_API_KEY] });
  if (!result.ok) {
    for (const p of result.problems) process.stderr.write(formatProblem(p) + "\n");
    throw new CliExit(1);
  }
  return result.state;
}

export interface ClientFlags {
  concurrency?: number;
  /** `--max-rps`: a fixed cap on requests per second; without it pacing adapts to the server. */
  maxRps?: number;
  /** `--timeout`, seconds per request attempt. @default WAVIX_TIMEOUT, else DEFAULT_TIMEOUT_SECONDS */
  timeout?: number;
  /** Each listing page read (progress.ts, the events of --json-events). */
  onPage?: (read: PageRead) => void;
}

/** Seconds one request attempt may take (headers and body) when neither `--timeout` nor WAVIX_TIMEOUT says. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * A retry whose wait, counted with the failed attempt's own duration (a timeout is a silence as long
 * as the timeout), reaches this long prints one line on stderr, so a slow run is never silent.
 */
export const RETRY_NOTICE_MS = 2_000;

/** `--timeout S`, shared by every command that talks to the API. */
export function timeoutOption(): Option {
  return new Option(
    "--timeout <S>",
    `seconds each API request may take before it is abandoned and retried (default: WAVIX_TIMEOUT, else ${DEFAULT_TIMEOUT_SECONDS})`,
  ).argParser(positiveNumber("--timeout"));
}

/** The per-request timeout in ms: the flag, else WAVIX_TIMEOUT, else the default; a bad value exits 1. */
function timeoutMsOf(flags: ClientFlags): number {
  if (flags.timeout !== undefined) return Math.round(flags.timeout * 1000);
  const env = process.env.WAVIX_TIMEOUT;
  if (env === undefined || env.trim() === "") return DEFAULT_TIMEOUT_SECONDS * 1000;
  const n = Number(env);
  if (!Number.isFinite(n) || n <= 0) {
    process.stderr.write(`Error: WAVIX_TIMEOUT takes a number of seconds greater than 0, got "${env}".\n`);
    throw new CliExit(1);
  }
  return Math.round(n * 1000);
}

/** `WAVIX_MAX_PAGES`: the page bound of one listing, for accounts larger than the default allows. */
function maxPagesOf(): number | undefined {
  const env = process.env.WAVIX_MAX_PAGES;
  if (env === undefined || env.trim() === "") return undefined;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`Error: WAVIX_MAX_PAGES takes a whole number of at least 1, got "${env}".\n`);
    throw new CliExit(1);
  }
  return n;
}

/** One line for a long retry wait: what, which attempt, why, how long. */
export function retryNoticeLine(n: RetryNotice): string {
  return `Retrying ${n.method} ${n.path} (attempt ${n.attempt} of ${n.attempts}) after ${n.reason}: waiting ${(n.waitMs / 1000).toFixed(1)} s\n`;
}

/** A client whose key comes only from `WAVIX_API_KEY` (never a flag: flags end up in shell history and CI logs). */
export function clientFromEnv(flags: ClientFlags = {}): WavixClient {
  const apiKey = process.env.WAVIX_API_KEY;
  if (!apiKey) {
    process.stderr.write("Error: WAVIX_API_KEY is not set. Export the API key in the environment (it is never read from the file or a flag).\n");
    throw new CliExit(1);
  }
  const timeoutMs = timeoutMsOf(flags);
  const maxPages = maxPagesOf();
  return new WavixClient({
    apiKey,
    timeoutMs,
    ...(maxPages !== undefined ? { maxPages } : {}),
    // Half the CPU of the built-in fetch per page (issue #15): most of a large plan's or export's time.
    fetch: nodeHttpFetch,
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(flags.maxRps !== undefined ? { requestsPerSecond: flags.maxRps } : {}),
    onRetry: (notice) => {
      if (notice.waitMs + notice.failedAfterMs >= RETRY_NOTICE_MS) progressLine(retryNoticeLine(notice));
    },
    onWarning: noteDrift,
    ...(flags.onPage ? { onPage: flags.onPage } : {}),
  });
}

let driftCount = 0;
let driftSummaryArmed = false;

/**
 * Contract-drift notices (a response that does not match schemas/api): each printed with
 * WAVIX_SYNC_VERBOSE=1, otherwise summed up in one line on stderr when the command ends, so a
 * pipeline log shows that the API answered differently without drowning the plan.
 */
export function noteDrift(message: string, info?: { additive?: boolean }): void {
  // A property the API added is harmless (ignored): one quiet note per field and kind with
  // WAVIX_SYNC_VERBOSE=1, nothing otherwise (it must not flag every pipeline run).
  if (info?.additive) {
    if (process.env.WAVIX_SYNC_VERBOSE) process.stderr.write(`Note: ${message}\n`);
    return;
  }
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

/** Help text of `--max-rps`, the same on every command that talks to the API. */
export const MAX_RPS_HELP =
  "cap requests per second (default: no cap; the pace adapts to the server, slowing on 429/Retry-After)";

export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} takes a number of at least 0, got "${value}"`);
    return n;
  };
}

export function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} takes a number greater than 0, got "${value}"`);
    return n;
  };
}
