/**
 * Every relative link of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md resolves: the file
 * exists (in the repository, and in the package for the files the package ships), and a `#fragment`
 * names a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { ROOT } from "../helpers/cli";

const FILES = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The text outside fenced blocks (links inside code are not links). */
const prose = (text: string) => text.replace(/^(\s*)(`{3,}|~{3,})[\s\S]*?^\1\2\s*$/gm, "");

/** GitHub's anchor of a heading. */
export function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(readFileSync(join(ROOT, file), "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchor(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe("links between the docs", () => {
  it("every relative link names a file that exists and a heading it has", () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of FILES) {
      const text = prose(readFileSync(join(ROOT, file), "utf8"));
      for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const href = m[1];
        if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
        count++;
        const [path, fragment] = href.split("#");
        const target = path === "" ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${file}: ${href} (no ${target})`);
          continue;
        }
        if (fragment !== undefined && target.endsWith(".md") && !anchors(target).has(fragment)) broken.push(`${file}: ${href} (no heading #${fragment} in ${target})`);
      }
    }
    expect(count).toBeGreaterThan(40);
    expect(broken).toEqual([]);
  });
});
