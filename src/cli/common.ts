/** What several commands share: loading the file (validation first) and a client from the environment. */
import { nodeHttpFetch, WavixClient } from "../client";
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
  /** `--max-rps`: a fixed cap on requests per second; without it pacing adapts to the server. */
  maxRps?: number;
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
    // Half the CPU of the built-in fetch per page (issue #15): most of a large plan's or export's time.
    fetch: nodeHttpFetch,
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(flags.maxRps !== undefined ? { requestsPerSecond: flags.maxRps } : {}),
    onWarning: (message) => {
      if (process.env.WAVIX_SYNC_VERBOSE) process.stderr.write(`Warning: ${message}\n`);
    },
  });
}

/** Parse a positive integer flag, with a clear message. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number of at least 1, got "${value}"`);
    return n;
  };
}

export function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} takes a number above 0, got "${value}"`);
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
