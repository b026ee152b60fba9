/**
 * `wavix-sync validate [-f FILE]` (docs/CONTRACT.md part 5): checks the desired-state file offline.
 * It sends no request and needs no API key.
 */
import type { Command } from "commander";
import { formatProblem, loadDesiredState, type DesiredState } from "../config";
import { kindsInFileOrder } from "../kinds";
import { declareCommand } from "./heads";
import { CliExit } from "./output";

/** Default desired-state file (docs/CONTRACT.md part 3). */
export const DEFAULT_CONFIG_FILE = "wavix.yaml";

/**
 * Loads the file or prints every problem to stderr, one per line, and throws `CliExit(1)`.
 * plan, apply and audit call it before any request (docs/CONTRACT.md part 3: "reported all at once,
 * before any request").
 */
export function loadOrReport(file: string): DesiredState {
  // When the key is in the environment, it must not hide in a value either (never echoed).
  const result = loadDesiredState(file, { secretValues: [process.env.WAVIX_API_KEY] });
  if (!result.ok) {
    process.stderr.write(result.problems.map((p) => `${formatProblem(p)}\n`).join(""));
    throw new CliExit(1);
  }
  return result.state;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Kinds at or before this file order are always counted (`0 call webhooks`); later ones only when the file names them. */
const ALWAYS_SUMMARISED = 30;

/** One-line summary of a valid state, in file order: `N sub-accounts, M numbers, K call webhooks`, then the other kinds the file names. */
export function summarizeState(state: DesiredState): string {
  return kindsInFileOrder()
    .filter((kind) => kind.file.order <= ALWAYS_SUMMARISED || kind.declared(state) !== undefined)
    .map((kind) => {
      const declared = kind.declared(state);
      return count(declared === undefined ? 0 : kind.count(declared), kind.label.one, kind.label.many);
    })
    .join(", ");
}

export function registerValidate(program: Command): void {
  declareCommand(program, "validate")
    .option("-f, --file <FILE>", "desired-state file", DEFAULT_CONFIG_FILE)
    .action((opts: { file: string }) => {
      const state = loadOrReport(opts.file);
      process.stdout.write(`${opts.file}: valid (${summarizeState(state)})\n`);
    });
}
