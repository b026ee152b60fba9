/**
 * docs/RELIABILITY.md is part prose, part measured tables: each test file that measures owns one block
 * between `<!-- NAME:start -->` and `<!-- NAME:end -->` and rewrites only that block.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/cli";

export const RELIABILITY_DOC = join(ROOT, "docs", "RELIABILITY.md");

export function replaceDocBlock(name: string, lines: string[]): void {
  const text = readFileSync(RELIABILITY_DOC, "utf8");
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/RELIABILITY.md has no ${start} … ${end} block`);
  writeFileSync(RELIABILITY_DOC, `${text.slice(0, a + start.length)}\n${lines.join("\n")}\n${text.slice(b)}`);
}
