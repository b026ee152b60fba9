/**
 * The `wavix-sync` command line: one file per command, each a thin wrapper over the library.
 * `main` returns the exit code instead of calling `process.exit`, so tests can run it in-process.
 */
import { Command, CommanderError } from "commander";
import { registerValidate } from "./validate";
import { registerPlanApply } from "./plan-apply";
import { registerExport } from "./export";
import { registerAudit } from "./audit";
import { registerSimulator } from "./simulator";
import { registerDemo } from "./demo";
import { CliExit, reportError } from "./output";

export function buildProgram(): Command {
  const program = new Command("wavix-sync")
    .description("Keep a Wavix account in the state declared by a YAML file.")
    .version(require("../../package.json").version as string)
    .showHelpAfterError()
    .exitOverride();
  registerValidate(program);
  registerPlanApply(program);
  registerAudit(program);
  registerExport(program);
  registerSimulator(program);
  registerDemo(program, main);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
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
