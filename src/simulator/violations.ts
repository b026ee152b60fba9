/**
 * The contract check of the test suite: when `WAVIX_SIM_VIOLATIONS_DIR` names a folder (the
 * vitest global setup sets it), every simulator, in whatever process, appends each request that
 * breaks `schemas/api/*.request.schema.json` and each answer of its own that breaks the response
 * schemas to a file there; the global teardown fails the run listing them. A test that sends bad
 * requests on purpose says so with the `expectBadRequests` option and is left out.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";

/** Folder where violations are collected; unset outside the test suite. */
export const VIOLATIONS_DIR_ENV = "WAVIX_SIM_VIOLATIONS_DIR";
/** The test file running, set per test file by the suite's setup file (for the report). */
export const TEST_FILE_ENV = "WAVIX_SIM_TEST_FILE";

export interface ContractViolation {
  /** A request the client sent, or a response the simulator served. */
  kind: "request" | "response";
  method: string;
  path: string;
  message: string;
  /** Test file that made the request, when known. */
  test?: string;
}

/** Is the contract check on in this process? */
export function violationsRecorded(): boolean {
  return Boolean(process.env[VIOLATIONS_DIR_ENV]);
}

/** Append one violation (no-op outside the suite). Synchronous, so nothing is lost on exit. */
export function recordViolation(v: ContractViolation): void {
  const dir = process.env[VIOLATIONS_DIR_ENV];
  if (!dir) return;
  const entry: ContractViolation = { ...v, test: v.test ?? process.env[TEST_FILE_ENV] };
  try {
    appendFileSync(path.join(dir, `${process.pid}.jsonl`), JSON.stringify(entry) + "\n");
  } catch {
    // The folder went away (the run is ending): nothing left to report to.
  }
}
