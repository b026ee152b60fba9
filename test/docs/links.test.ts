/**
 * Every relative link of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md resolves: the file
 * exists (in the repository, and in the package for the files the package ships), and a `#fragment`
 * names a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, normalize, sep } from "node:path";
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

  it("the package ships what its shipped docs link to (an installed README's links work offline)", () => {
    // What `npm pack` would put in the tarball (package.json `files`), without building or packing.
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const shipped = new Set((JSON.parse(out.slice(out.indexOf("[\n"))) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
    const missing: string[] = [];
    for (const file of FILES.filter((f) => shipped.has(f))) {
      for (const m of prose(readFileSync(join(ROOT, file), "utf8")).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const [path] = m[1].split("#");
        if (/^[a-z]+:/i.test(m[1]) || path === "") continue;
        const target = normalize(join(dirname(file), path)).split(sep).join("/");
        if (!shipped.has(target)) missing.push(`${file}: ${m[1]} (${target} is not in the package)`);
      }
    }
    expect(shipped.has("README.md")).toBe(true);
    expect(missing).toEqual([]);
  }, 60_000);
});
