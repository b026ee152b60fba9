/**
 * The fenced blocks of a Markdown file, with the doc-test marker written above each (CONTRIBUTING.md,
 * "Docs are tested"):
 *
 * - every fence names its language (```sh, ```yaml, ```text, ...): a bare fence is an error;
 * - ```sh blocks are run (```bash, ```shell, ```console and ```zsh are errors: write sh);
 * - `<!-- doc-test: skip: REASON -->` on the line before a fence: not run (the reason is required);
 * - `<!-- doc-test: exit N -->`: the block is run and must end with exit code N;
 * - ```yaml blocks whose first key is `version:` are whole files and must validate.
 */
import { readFileSync } from "node:fs";

export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  /** Why the block is not run, when a marker says so. */
  skip?: string;
  /** The exit code the block must end with. @default 0 */
  exit: number;
}

export interface ParsedDoc {
  blocks: DocBlock[];
  /** Fences and markers breaking the convention, as `FILE:LINE: message`. */
  problems: string[];
}

const SHELLS = new Set(["bash", "shell", "console", "zsh", "shell-session", "sh-session"]);

export function parseDoc(file: string, name = file): ParsedDoc {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: DocBlock[] = [];
  const problems: string[] = [];
  let open: { line: number; lang: string; fence: string; indent: string; body: string[]; marker?: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (open) {
      if (l.trimStart().startsWith(open.fence) && l.trim().replace(/`+|~+/, "") === "") {
        const block: DocBlock = { file: name, line: open.line, lang: open.lang, text: open.body.join("\n") + "\n", exit: 0 };
        const m = open.marker;
        if (m !== undefined) {
          const skip = /^skip:\s*(.+?)\s*$/.exec(m);
          const exit = /^exit (\d+)$/.exec(m);
          if (skip) block.skip = skip[1];
          else if (exit) block.exit = Number(exit[1]);
          else problems.push(`${name}:${open.line - 1}: unknown doc-test marker "${m}" (skip: REASON, or exit N)`);
        }
        blocks.push(block);
        open = undefined;
      } else open.body.push(l.startsWith(open.indent) ? l.slice(open.indent.length) : l);
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*$/.exec(l);
    if (!fence) continue;
    const lang = fence[3].toLowerCase();
    // The marker: the closest non-blank line above, when it is a doc-test comment.
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === "") j--;
    const marker = j >= 0 ? /^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$/.exec(lines[j])?.[1] : undefined;
    if (lang === "") problems.push(`${name}:${i + 1}: a fence without a language: name it (sh is run; text, yaml, json, ts... are not)`);
    if (SHELLS.has(lang)) problems.push(`${name}:${i + 1}: a \`${lang}\` fence: write \`sh\` (run by the doc test) or mark it \`text\``);
    if (marker !== undefined && lang !== "sh" && !/^skip:/.test(marker)) problems.push(`${name}:${i + 1}: a doc-test marker on a ${lang || "bare"} fence, which is never run`);
    open = { line: i + 1, lang, fence: fence[2], indent: fence[1], body: [], marker };
  }
  if (open) problems.push(`${name}:${open.line}: a fence that is never closed`);
  return { blocks, problems };
}
