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

/** Examples shown under each command's --help (as kubectl and Terraform show them). */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  validate: ["wavix-sync validate -f wavix.yaml"],
  plan: [
    "wavix-sync plan -f wavix.yaml --detailed-exitcode     # exit 2 when there are changes",
    "wavix-sync plan --format md --out plan.md              # a pull-request comment",
    "wavix-sync plan --json --prune                          # also what --prune would disable or delete",
  ],
  apply: ["wavix-sync apply -f wavix.yaml --auto-approve", "wavix-sync apply --auto-approve --format md --out apply.md --wait 120"],
  audit: ["wavix-sync audit -f wavix.yaml --fail-on-findings", "wavix-sync audit --format html --out reports/"],
  export: ["wavix-sync export --out wavix.yaml                     # the account as a file that plans clean"],
  simulator: ["wavix-sync simulator --port 8787", "WAVIX_BASE_URL=http://127.0.0.1:8787 WAVIX_API_KEY=sim-demo-key wavix-sync plan"],
  demo: ["wavix-sync demo                                         # plan, apply, plan against a local simulator"],
};

const ENVIRONMENT = `Environment:
  WAVIX_API_KEY        the API key (plan, apply, audit, export); never a flag, never in the file
  WAVIX_BASE_URL       API root (default https://api.wavix.com; plain http only to loopback)
  WAVIX_TIMEOUT        seconds a request may take (default 30; --timeout overrides)
  WAVIX_MAX_PAGES      most pages one listing may take (default 2000)
  WAVIX_SYNC_VERBOSE   1 prints every contract-drift warning`;

const EXIT_CODES = `Exit codes:
  0    success
  1    any error: validation, authentication, API, partial failure
  2    plan --detailed-exitcode with changes; audit --fail-on-findings with an error finding
  130  apply interrupted with Ctrl-C`;

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
  program.addHelpText("after", `\nExamples:\n  wavix-sync validate\n  wavix-sync plan --detailed-exitcode\n  wavix-sync apply --auto-approve\n\n${ENVIRONMENT}\n\n${EXIT_CODES}\n`);
  for (const cmd of program.commands) {
    const examples = EXAMPLES[cmd.name()] ?? [];
    const head = examples.length > 0 ? `\nExamples:\n${examples.map((e) => `  ${e}`).join("\n")}\n` : "";
    cmd.addHelpText("after", `${head}\n${ENVIRONMENT}\n\n${EXIT_CODES}\n`);
  }
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
