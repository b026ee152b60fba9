/**
 * The `wavix-sync` command line: one file per command, each a thin wrapper over the library.
 * `main` returns the exit code instead of calling `process.exit`, so tests can run it in-process.
 *
 * Start-up (issue #15): only the module of the command being run is loaded (`validate` never
 * loads the client, `plan` never loads the simulator or the audit renderers); every command is
 * loaded for the top-level help or an unknown command. No command path loads `@pulumi/pulumi`.
 */
import { Command, CommanderError } from "commander";
import { CliExit, reportError } from "./output";

type Register = (program: Command) => void;

/** Each command's module, loaded on demand, in the order the help lists them. */
const COMMANDS: readonly [names: readonly string[], load: () => Register][] = [
  [["validate"], () => (require("./validate") as typeof import("./validate")).registerValidate],
  [["plan", "apply"], () => (require("./plan-apply") as typeof import("./plan-apply")).registerPlanApply],
  [["audit"], () => (require("./audit") as typeof import("./audit")).registerAudit],
  [["export"], () => (require("./export") as typeof import("./export")).registerExport],
  [["simulator"], () => (require("./simulator") as typeof import("./simulator")).registerSimulator],
  [["demo"], () => (program) => (require("./demo") as typeof import("./demo")).registerDemo(program, main)],
];

/**
 * The program with the command named in `argv` (`process.argv` form), or with every command when
 * `argv` names none that is known (help, typos: commander then lists or suggests them all).
 */
export function buildProgram(argv?: readonly string[]): Command {
  const program = new Command("wavix-sync")
    .description("Keep a Wavix account in the state declared by a YAML file.")
    .version(require("../../package.json").version as string)
    .showHelpAfterError()
    .exitOverride();
  // The top level has no option taking a value, so the first operand is the command.
  const named = argv?.slice(2).find((a) => !a.startsWith("-"));
  const only = COMMANDS.find(([names]) => named !== undefined && names.includes(named));
  for (const entry of only ? [only] : COMMANDS) entry[1]()(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CliExit) return err.code;
    if (err instanceof CommanderError) {
      // --help and --version end with code 0; usage errors were already printed by commander.
      return err.exitCode === 0 ? 0 : 1;
    }
    reportError(err);
    return 1;
  }
}
