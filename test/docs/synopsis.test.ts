/**
 * docs/COMMANDS.md's synopsis names every option each command has, and no option it lacks (issue
 * #36: the `audit` line had lost `--last`, `--from`, `--to`, `--table`, `--concurrency`). Checked
 * against the CLI's own commander program, so a new option fails here until the synopsis shows it.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/cli";

// The compiled CLI (what users run; its commands load on demand with require, which needs compiled files).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildProgram } = require(join(ROOT, "dist", "cli", "main.js")) as typeof import("../../src/cli/main");

/** The synopsis block's text per command: its first line and the indented lines that continue it. */
function synopsis(): Map<string, string> {
  const text = readFileSync(join(ROOT, "docs", "COMMANDS.md"), "utf8");
  const block = /## |```text\n([\s\S]*?)```/.exec(text.slice(text.indexOf("The synopsis:")));
  expect(block?.[1], "docs/COMMANDS.md has a synopsis block after 'The synopsis:'").toBeTruthy();
  const out = new Map<string, string>();
  let current = "";
  for (const line of block![1].split("\n")) {
    const m = /^wavix-sync (\S+)/.exec(line);
    if (m) out.set((current = m[1]), line);
    else if (current && /^\s+\S/.test(line)) out.set(current, `${out.get(current)} ${line.trim()}`);
  }
  return out;
}

describe("docs/COMMANDS.md synopsis", () => {
  const lines = synopsis();
  const program = buildProgram();

  it("lists every command", () => {
    expect([...lines.keys()].sort()).toEqual(program.commands.map((c) => c.name()).sort());
  });

  it.each(program.commands.map((c) => [c.name()]))("%s: every option, and only those", (name) => {
    const cmd = program.commands.find((c) => c.name() === name)!;
    const line = lines.get(name) ?? "";
    const documented = new Set(line.match(/(?<![\w-])--?[a-z][\w-]*/g) ?? []);
    // --no-color is every command's, said once under the synopsis.
    const options = cmd.options.filter((o) => o.long !== "--no-color");
    const flags = options.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined);
    expect(options.filter((o) => !documented.has(o.long!) && !(o.short && documented.has(o.short))).map((o) => o.long), `${name}: options its synopsis lacks`).toEqual([]);
    expect([...documented].filter((o) => !flags.includes(o)), `${name}: options its synopsis names that it does not have`).toEqual([]);
  });
});
