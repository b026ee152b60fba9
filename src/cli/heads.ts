/**
 * Each command's head: its name, one-line description and arguments, which is all the top-level
 * help (and commander's "Did you mean …?") shows of it. Every command's declaration starts here
 * (`declareCommand`), so `wavix-sync --help` and `--version` list the commands from this file alone,
 * without loading any command's module (main.ts; held by test/cli/start-up.test.ts).
 * Loads nothing but commander.
 */
import { Argument, type Command } from "commander";

/** The shells `completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

interface Head {
  description: string;
  /** Made afresh for each program (commander keeps what it is given). */
  args?: () => Argument[];
}

/** In the order the help lists them. */
const HEADS = {
  validate: { description: "Check the desired-state file (schema, duplicates, secrets) without contacting Wavix." },
  plan: { description: "Show what apply would change (reads only)" },
  apply: { description: "Make the account match the file" },
  audit: { description: "Report 2FA verification sessions over a period and 10DLC brand vettings, checked against the file's audit thresholds." },
  export: { description: "Print the account as a wavix.yaml on which plan reports no changes (no secrets)" },
  show: {
    description: "Print a saved plan (from `plan --save`): what `apply --plan` would carry out; reads no account",
    args: () => [new Argument("<PLANFILE>", "the saved plan")],
  },
  simulator: { description: "Serve a local Wavix API (demo account by default) for trying and testing offline." },
  demo: { description: "Run plan → apply → plan of examples/wavix.yaml against the local simulator (never the real API)" },
  "tofu-install": {
    description: "Install the OpenTofu/Terraform provider (wavix-sync/wavix) as a filesystem mirror, or print the dev_overrides configuration",
  },
  completion: {
    description: "Print a shell completion script (bash, zsh or fish) for the commands and their options",
    args: () => [new Argument("<SHELL>", "the shell").choices(SHELLS)],
  },
} satisfies Record<string, Head>;

export type CommandName = keyof typeof HEADS;

/** Every command's name, in the order the help lists them. */
export const COMMAND_NAMES = Object.keys(HEADS) as CommandName[];

/** `program.command(name)` with its description and arguments: what its module then adds options and an action to. */
export function declareCommand(program: Command, name: CommandName): Command {
  const head: Head = HEADS[name];
  const cmd = program.command(name).description(head.description);
  for (const arg of head.args?.() ?? []) cmd.addArgument(arg);
  return cmd;
}
