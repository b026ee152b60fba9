/**
 * The `wavix-sync` command line: one file per command, each a thin wrapper over the library.
 * `main` returns the exit code instead of calling `process.exit`, so tests can run it in-process.
 *
 * Start-up (issue #15, #34): only the module of the command being run is loaded (`validate` never
 * loads the simulator, `plan` never loads the simulator or the audit renderers); the top-level help,
 * `--version` and an unknown command load none of them, only each command's head (heads.ts).
 * No command path loads `@pulumi/pulumi`. test/cli/start-up.test.ts holds the counts.
 */
import { Command, CommanderError } from "commander";
import { DEFAULT_BASE_URL, resolveBaseUrl } from "../client/base-url";
import { CliExit, reportError, startRun } from "./output";
import { setNoColor } from "./color";
import { COMMAND_NAMES, declareCommand, type CommandName } from "./heads";

type Register = (program: Command) => void;

/** Each command's module, loaded on demand, in the order the help lists them. */
const COMMANDS: readonly [names: readonly CommandName[], load: () => Register][] = [
  [["validate"], () => (require("./validate") as typeof import("./validate")).registerValidate],
  [["plan", "apply"], () => (require("./plan-apply") as typeof import("./plan-apply")).registerPlanApply],
  [["audit"], () => (require("./audit") as typeof import("./audit")).registerAudit],
  [["export"], () => (require("./export") as typeof import("./export")).registerExport],
  [["show"], () => (require("./show") as typeof import("./show")).registerShow],
  [["simulator"], () => (require("./simulator") as typeof import("./simulator")).registerSimulator],
  [["demo"], () => (program) => (require("./demo") as typeof import("./demo")).registerDemo(program, main)],
  [["tofu-install"], () => (require("./tofu-install") as typeof import("./tofu-install")).registerTofuInstall],
  [["completion"], () => (program) => (require("./completion") as typeof import("./completion")).registerCompletion(program, () => buildProgram())],
];

/** Every command's head only (name, description, arguments): all that the top-level help, `--version` and a typo need. */
const HEADS_ONLY: Register = (program) => {
  for (const name of COMMAND_NAMES) declareCommand(program, name);
};

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
  show: ["wavix-sync show wavix.plan                              # the saved plan, as plan prints it", "wavix-sync show wavix.plan --json"],
  simulator: ["wavix-sync simulator --port 8787", "WAVIX_BASE_URL=http://127.0.0.1:8787 WAVIX_API_KEY=sim-demo-key wavix-sync plan"],
  demo: ["wavix-sync demo                                         # plan, apply, plan against a local simulator"],
  completion: ["source <(wavix-sync completion bash)                     # in ~/.bashrc (zsh: completion zsh, in ~/.zshrc)", "wavix-sync completion fish > ~/.config/fish/completions/wavix-sync.fish"],
  "tofu-install": ["wavix-sync tofu-install                                 # the OpenTofu/Terraform provider, in ~/.terraform.d/plugins"],
};

/** The environment variables, each with the commands that read it (a command's footer lists only its own). */
const VARIABLES: readonly [name: string, text: string, commands: readonly string[]][] = [
  ["WAVIX_API_KEY", "the API key; never a flag, never in the file", ["plan", "apply", "audit", "export"]],
  ["WAVIX_API_KEY", "when set, a file value holding it is refused (never echoed); validate needs no key", ["validate"]],
  ["WAVIX_BASE_URL", `API root (default ${DEFAULT_BASE_URL}; plain http only to loopback)`, ["plan", "apply", "audit", "export"]],
  ["WAVIX_TIMEOUT", "seconds a request may take (default 30; --timeout overrides)", ["plan", "apply", "audit", "export"]],
  ["WAVIX_MAX_PAGES", "most pages one listing may take (default 2000)", ["plan", "apply", "audit", "export"]],
  ["WAVIX_SYNC_VERBOSE", "1 prints every contract-drift warning", ["plan", "apply", "audit", "export", "demo"]],
  ["NO_COLOR", "set (not empty): no colour on a terminal either (as --no-color); without a terminal there is none", ["plan", "apply", "show", "demo"]],
  ["<password_env>", "a SIP trunk's password, in the variable its password_env names (every create and update)", ["apply"]],
];

/** The exit codes, each with the commands that can end with it. */
const CODES: readonly [code: string, text: string, commands: readonly string[]][] = [
  ["0", "success", ["validate", "plan", "apply", "audit", "export", "show", "demo", "completion"]],
  ["0", "stopped with Ctrl-C or SIGTERM", ["simulator"]],
  ["1", "the file is invalid (every problem listed, nothing sent)", ["validate"]],
  ["1", "any error: validation, authentication, API", ["plan", "audit", "export"]],
  ["1", "any error: validation, authentication, API, partial failure, the safety limit, changes still pending after --wait", ["apply"]],
  ["1", "a bad flag, an unreadable seed, a port in use", ["simulator"]],
  ["1", "the file cannot be read, or is not a saved plan of this version, or was changed since it was saved", ["show"]],
  ["1", "the demo did not converge", ["demo"]],
  ["2", "--detailed-exitcode and there are changes", ["plan"]],
  ["2", "--fail-on-findings and an error finding", ["audit"]],
  ["130", "interrupted with Ctrl-C (writes in flight finished, the rest not started)", ["apply"]],
];

/** The "Environment:" and "Exit codes:" footer of one command's help, or of the top level (every line) when `command` is undefined. */
export function helpFooter(command?: string): string {
  const mine = <T extends readonly [string, string, readonly string[]]>(rows: readonly T[]) =>
    // The top level: each name once (its first row).
    command === undefined ? rows.filter(([name], i) => rows.findIndex(([n]) => n === name) === i) : rows.filter(([, , cmds]) => cmds.includes(command));
  const env = mine(VARIABLES);
  const codes = command === undefined ? CODES_TOP : mine(CODES);
  const width = (rows: readonly (readonly [string, ...unknown[]])[]) => Math.max(...rows.map(([n]) => n.length)) + 2;
  const parts: string[] = [];
  if (env.length > 0) {
    const w = width(env);
    parts.push(`Environment:\n${env.map(([n, t]) => `  ${n.padEnd(w)}${t}`).join("\n")}`);
  }
  const w = width(codes);
  parts.push(`Exit codes:\n${codes.map(([c, t]) => `  ${c.padEnd(w)}${t}`).join("\n")}`);
  return parts.join("\n\n");
}

/** The top level's exit codes: every command's, in one list. */
const CODES_TOP: readonly [string, string, readonly string[]][] = [
  ["0", "success", []],
  ["1", "any error: validation, authentication, API, partial failure", []],
  ["2", "plan --detailed-exitcode with changes; audit --fail-on-findings with an error finding", []],
  ["130", "apply interrupted with Ctrl-C", []],
];

/** `--version`: the version, and the API root a command would talk to (the default unless WAVIX_BASE_URL says otherwise). */
export function versionText(env: NodeJS.ProcessEnv = process.env): string {
  const version = require("../../package.json").version as string;
  if ((env.WAVIX_BASE_URL ?? "").trim() === "") return `wavix-sync ${version}\nAPI root: ${DEFAULT_BASE_URL} (the default; WAVIX_BASE_URL sets another)`;
  let root: string;
  try {
    // As every command would read it: checked, and shown without anything a URL could hide a secret in.
    root = `API root: ${resolveBaseUrl(undefined, env)} (from WAVIX_BASE_URL; the default is ${DEFAULT_BASE_URL})`;
  } catch (err) {
    root = `API root: none usable: ${(err as Error).message} (the default is ${DEFAULT_BASE_URL})`;
  }
  return `wavix-sync ${version}\n${root}`;
}

/**
 * The program with the command named in `argv` (`process.argv` form; `help plan` names plan), or
 * with only the heads of every command when `argv` names none that is known (the top-level help,
 * `--version`, typos: commander then lists or suggests them by name). Without `argv`, every command
 * whole (completion, the docs).
 */
export function buildProgram(argv?: readonly string[]): Command {
  const program = new Command("wavix-sync")
    .description("Keep a Wavix account in the state declared by a YAML file.")
    .version(versionText(), "-V, --version", "print the version and the API root")
    .showHelpAfterError("(wavix-sync --help lists the commands)")
    // Also before the command (`wavix-sync --no-color plan`); main() reads it from argv either way.
    .option("--no-color", "no colour, even on a terminal (NO_COLOR=1 does the same)")
    .exitOverride();
  // The top level has no option taking a value, so the first operand is the command.
  const operands = argv?.slice(2).filter((a) => !a.startsWith("-")) ?? [];
  const named = operands[0] === "help" ? operands[1] : operands[0];
  const only = COMMANDS.find(([names]) => named !== undefined && (names as readonly string[]).includes(named));
  if (argv === undefined) for (const [, load] of COMMANDS) load()(program);
  else (only ? only[1]() : HEADS_ONLY)(program);
  program.addHelpText("after", `\nExamples:\n  wavix-sync validate\n  wavix-sync plan --detailed-exitcode\n  wavix-sync apply --auto-approve\n\n${helpFooter()}\n`);
  for (const cmd of program.commands) {
    // Colour is for terminals only, and never with NO_COLOR (src/cli/color.ts); every command takes --no-color.
    cmd.option("--no-color", "no colour, even on a terminal (NO_COLOR=1 does the same; output that is not a terminal never has any)");
    const examples = EXAMPLES[cmd.name()] ?? [];
    const head = examples.length > 0 ? `\nExamples:\n${examples.map((e) => `  ${e}`).join("\n")}\n` : "";
    cmd.addHelpText("after", `${head}\n${helpFooter(cmd.name())}\n`);
    // A usage error is one line and what to do, not the whole help (issue #36).
    cmd.showHelpAfterError(`(wavix-sync ${cmd.name()} --help lists its options)`);
  }
  return program;
}

/**
 * Terraform's single-dash long options (`-auto-approve`, `-out`): commander reads them as bundled
 * short flags. When the command has the long option, one line saying which to type instead.
 */
function singleDashHint(program: Command, argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  const cmd = program.commands.find((c) => c.name() === args.find((a) => !a.startsWith("-")));
  if (!cmd) return undefined;
  for (const a of args) {
    const m = /^-([a-z][a-z0-9-]+)(=.*)?$/.exec(a);
    if (!m || m[1].length < 2) continue;
    if (cmd.options.some((o) => o.long === `--${m[1]}`)) {
      return `error: unknown option '${a}': wavix-sync's long options take two dashes: --${m[1]}${m[2] ?? ""}\n(wavix-sync ${cmd.name()} --help lists its options)\n`;
    }
  }
  return undefined;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv);
  // Read before parsing, so that what fails in parsing is not coloured either; a run inside a run (demo) keeps the outer's.
  const noColor = argv.slice(2).includes("--no-color");
  if (noColor) setNoColor(true);
  const end = startRun();
  try {
    const hint = singleDashHint(program, argv);
    if (hint) {
      process.stderr.write(hint);
      return 1;
    }
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
  } finally {
    if (noColor) setNoColor(false);
    end();
  }
}
