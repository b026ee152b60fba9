/**
 * `wavix-sync completion bash|zsh|fish`: a shell completion script for the commands, their options
 * and the values an option takes (its choices; files for a path), generated from the CLI's own
 * commander program, so it never drifts from `--help`. Install (docs/COMMANDS.md):
 *   bash: `source <(wavix-sync completion bash)` in ~/.bashrc
 *   zsh:  `source <(wavix-sync completion zsh)` in ~/.zshrc (bash's completion, through bashcompinit)
 *   fish: `wavix-sync completion fish > ~/.config/fish/completions/wavix-sync.fish`
 */
import type { Command, Option } from "commander";
import { declareCommand, type Shell } from "./heads";

/** One command as completion needs it. */
interface Spec {
  name: string;
  description: string;
  options: { flags: string[]; description: string; takesValue: boolean; choices?: readonly string[] }[];
}

function specOf(cmd: Command): Spec {
  const options = cmd.options.map((o: Option) => ({
    flags: [o.short, o.long].filter((f): f is string => f !== undefined),
    description: o.description,
    takesValue: o.required || o.optional,
    ...(o.argChoices ? { choices: o.argChoices } : {}),
  }));
  options.push({ flags: ["-h", "--help"], description: "display help for command", takesValue: false });
  return { name: cmd.name(), description: cmd.description(), options };
}

/** A word list for a shell's single quotes. */
const words = (list: readonly string[]) => list.join(" ").replace(/'/g, "");

function bash(specs: readonly Spec[]): string {
  const perCommand = specs
    .map((s) => {
      const choices = s.options
        .filter((o) => o.choices)
        .map((o) => `      ${o.flags.join("|")}) COMPREPLY=($(compgen -W '${words(o.choices!)}' -- "$cur")); return ;;`);
      const values = s.options.filter((o) => o.takesValue && !o.choices).flatMap((o) => o.flags);
      return [
        `    ${s.name})`,
        `      opts='${words(s.options.flatMap((o) => o.flags))}'`,
        "      case \"$prev\" in",
        ...choices,
        ...(values.length > 0 ? [`      ${values.join("|")}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`] : []),
        "      esac",
        "      ;;",
      ].join("\n");
    })
    .join("\n");
  return `# wavix-sync completion for bash: source <(wavix-sync completion bash)
_wavix_sync() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="" opts="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [ -z "$cmd" ]; then
    COMPREPLY=($(compgen -W '${words(specs.map((s) => s.name))} --help --version' -- "$cur"))
    return
  fi
  case "$cmd" in
${perCommand}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _wavix_sync wavix-sync
`;
}

function zsh(specs: readonly Spec[]): string {
  return `# wavix-sync completion for zsh (bash's, through bashcompinit): source <(wavix-sync completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(specs).split("\n").slice(1).join("\n")}`;
}

/** Text for fish's single quotes. */
const fishText = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function fish(specs: readonly Spec[]): string {
  const lines = ["# wavix-sync completion for fish: wavix-sync completion fish > ~/.config/fish/completions/wavix-sync.fish", "complete -c wavix-sync -f"];
  for (const s of specs) lines.push(`complete -c wavix-sync -n __fish_use_subcommand -a ${s.name} -d ${fishText(s.description)}`);
  for (const s of specs) {
    for (const o of s.options) {
      const short = o.flags.find((f) => /^-[^-]$/.test(f));
      const long = o.flags.find((f) => f.startsWith("--"));
      const names = [short ? `-s ${short.slice(1)}` : "", long ? `-l ${long.slice(2)}` : ""].filter(Boolean).join(" ");
      const value = o.choices ? ` -x -a ${fishText(o.choices.join(" "))}` : o.takesValue ? " -r -F" : "";
      lines.push(`complete -c wavix-sync -n '__fish_seen_subcommand_from ${s.name}' ${names}${value} -d ${fishText(o.description)}`);
    }
  }
  return lines.join("\n") + "\n";
}

/** The completion script for `shell`, from the program holding every command. */
export function completionScript(shell: Shell, program: Command): string {
  const specs = program.commands.map(specOf);
  return shell === "bash" ? bash(specs) : shell === "zsh" ? zsh(specs) : fish(specs);
}

/** `all` builds the program with every command (main.ts passes its `buildProgram`: no import back to it). */
export function registerCompletion(program: Command, all: () => Command): void {
  declareCommand(program, "completion")
    .action((shell: Shell) => {
      // Every command's options, from the same program --help describes (loaded here, on demand).
      process.stdout.write(completionScript(shell, all()));
    });
}
