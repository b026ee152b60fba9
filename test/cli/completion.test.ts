/**
 * `wavix-sync completion bash|zsh|fish` (issue #36): the bash script is loaded into a real bash and
 * asked as bash asks it (COMP_WORDS, COMP_CWORD, then the function `complete` names); zsh loads the
 * same function through bashcompinit; fish's lines are checked against the CLI's own options (fish
 * itself is run when installed).
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT, runCli, scratch, writeYaml } from "../helpers/cli";

// The compiled CLI (what users run; its commands load on demand with require, which needs compiled files).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildProgram } = require(join(ROOT, "dist", "cli", "main.js")) as typeof import("../../src/cli/main");

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(script: string, typed: string[], cwd?: string): string[] {
  const words = typed.map((w) => `'${w}'`).join(" ");
  const r = spawnSync("bash", ["--noprofile", "--norc", "-c", `${script}\nCOMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _wavix_sync; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: "utf8",
    cwd,
  });
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter((l) => l !== "");
}

describe("wavix-sync completion", () => {
  it("bash: the commands, a command's options, an option's choices, files for a path", async () => {
    const r = await runCli(["completion", "bash"]);
    expect(r.code).toBe(0);
    const script = r.stdout;
    expect(script).toContain("complete -o filenames -F _wavix_sync wavix-sync");
    expect(bashComplete(script, ["wavix-sync", "p"])).toEqual(["plan"]);
    expect(bashComplete(script, ["wavix-sync", ""]).sort()).toEqual(
      [...buildProgram().commands.map((c) => c.name()), "--help", "--version"].sort(),
    );
    expect(bashComplete(script, ["wavix-sync", "apply", "--auto"])).toEqual(["--auto-approve"]);
    expect(bashComplete(script, ["wavix-sync", "plan", "--detailed-exitcode", "--format", ""])).toEqual(["text", "json", "md"]);
    expect(bashComplete(script, ["wavix-sync", "audit", "--format", "h"])).toEqual(["html"]);
    // Every option of plan is offered.
    const plan = buildProgram().commands.find((c) => c.name() === "plan")!;
    expect(bashComplete(script, ["wavix-sync", "plan", "--"]).sort()).toEqual([...plan.options.map((o) => o.long!), "--help"].sort());
    const dir = scratch();
    writeYaml(dir, "wavix.yaml", "version: 1\n");
    expect(bashComplete(script, ["wavix-sync", "plan", "-f", "wav"], dir)).toEqual(["wavix.yaml"]);
  });

  it("zsh: the same function, through bashcompinit", async () => {
    const r = await runCli(["completion", "zsh"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("autoload -U +X bashcompinit && bashcompinit");
    expect(r.stdout).toContain("complete -o filenames -F _wavix_sync wavix-sync");
    if (has("zsh")) {
      const z = spawnSync("zsh", ["-f", "-c", `${r.stdout}\nprint ok`], { encoding: "utf8" });
      expect(z.stdout.trim()).toBe("ok");
    }
  });

  it("fish: a line per command and per option, choices for --format", async () => {
    const r = await runCli(["completion", "fish"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("complete -c wavix-sync -n __fish_use_subcommand -a plan -d 'Show what apply would change (reads only)'");
    expect(r.stdout).toContain("complete -c wavix-sync -n '__fish_seen_subcommand_from plan' -l format -x -a 'text json md'");
    expect(r.stdout).toContain("complete -c wavix-sync -n '__fish_seen_subcommand_from apply' -l auto-approve -d 'apply without asking'");
    if (has("fish")) expect(spawnSync("fish", ["--no-execute", "-c", r.stdout]).status).toBe(0);
  });

  it("another shell: one line naming the ones it knows", async () => {
    const r = await runCli(["completion", "tcsh"]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe("error: command-argument value 'tcsh' is invalid for argument 'SHELL'. Allowed choices are bash, zsh, fish.");
  });
});
