/**
 * Installing wavix-sync into a user's own repository, as README "Install" says: the tarball that
 * `npm pack` makes (its prepack build puts dist/ inside) installs with `--ignore-scripts` and runs;
 * from a git URL it either works (npm builds a git dependency by running its prepare script) or,
 * with `--ignore-scripts` (npm then skips that build), fails in one line saying what to do, never
 * with Node's "Cannot find module" stack.
 *
 * Everything here runs npm as a user would, against the registry (or its cache) for the
 * dependencies, and a copy of this checkout for the package itself, so the tests never build in the
 * checkout other test files are running from.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT, scratch } from "../helpers/cli";
import { checkoutVersion, git, NPM_ENV, packPackage, run, type PackedPackage } from "../helpers/consumer";

const VERSION = checkoutVersion();
const SLOW = { timeout: 900_000 };

/** This checkout's files as git would commit them (tracked and new, not ignored), in a folder of their own. */
function copyOfCheckout(): string {
  const dir = join(scratch(), "wavix-sync");
  mkdirSync(dir);
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT).split("\0").filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dir, f));
  }
  return dir;
}

/** A new, empty consumer repository: git init and `npm init -y`. */
function emptyConsumer(): string {
  const dir = join(scratch(), "acme-wavix");
  mkdirSync(dir);
  git(dir, "init", "-q");
  run("npm", ["init", "-y"], dir);
  return dir;
}

/** `npx wavix-sync ...` in a consumer repository, as its pipeline runs it. */
function npx(dir: string, ...args: string[]) {
  return npxWith({}, dir, ...args);
}

/** `npx` with variables of its own on top. */
function npxWith(extra: NodeJS.ProcessEnv, dir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...NPM_ENV, ...extra };
  const r = spawnSync("npx", ["wavix-sync", ...args], { cwd: dir, env, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const DEFAULT_VERSION_TEXT = `wavix-sync ${VERSION}\nAPI root: https://api.wavix.com (the default; WAVIX_BASE_URL sets another)\n`;

describe("from the tarball npm pack makes", SLOW, () => {
  let copy: string;
  let pkg: PackedPackage;
  beforeAll(() => {
    copy = copyOfCheckout();
    // The copy builds with this checkout's dependencies (typescript and the rest), as after `npm ci`.
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    pkg = packPackage(copy, { ignoreScripts: false });
  }, 900_000);

  it("holds dist/ (the prepack build), the launcher, the schemas, the examples and the docs; not the sources or the tests", () => {
    expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);
    expect(pkg.fileName).toBe(`wavix-sync-${VERSION}.tgz`);
    expect(pkg.files).toEqual(
      expect.arrayContaining([
        "dist/cli/main.js",
        "dist/index.js",
        "dist/config/desired-state.validate.js",
        "bin/wavix-sync.js",
        "schemas/wavix.schema.json",
        "examples/wavix.yaml",
        "examples/ci/github/wavix-plan.yml",
        "examples/ci/gitlab/.gitlab-ci.yml",
        "README.md",
        "CHANGELOG.md",
        "LICENSE",
        "docs/FILE-FORMAT.md",
        "docs/CLI.md",
        // What README.md and docs/AUDIT.md link to (test/docs/links.test.ts checks every link).
        "CONTRIBUTING.md",
        "docs/audit-html.png",
      ]),
    );
    // The CLI's and the Pulumi plugin's code caches, recorded by the prepack build (src/cli/code-cache.ts).
    expect(pkg.files.filter((f) => /^dist\/cli\/code-cache-\d+\.bin$/.test(f))).toHaveLength(1);
    expect(pkg.files.filter((f) => /^dist\/cli\/plugin-code-cache-\d+\.bin$/.test(f))).toHaveLength(1);
    // The one TypeScript source it carries is the example Pulumi program.
    expect(pkg.files.filter((f) => /^(src|test|scripts|bench|tools)\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.startsWith("examples/")))).toEqual([]);
  });

  it("installs into a new repository with --ignore-scripts, and runs: --version names the version and the API root", () => {
    const dir = emptyConsumer();
    run("npm", ["install", "--save-dev", "--ignore-scripts", pkg.tarball], dir);
    const version = npx(dir, "--version");
    expect(version.stderr).toBe("");
    expect(version.stdout).toBe(DEFAULT_VERSION_TEXT);
    expect(version.code).toBe(0);
    // The schema path export writes into the file resolves in the consumer's node_modules.
    expect(existsSync(join(dir, "node_modules", "wavix-sync", "schemas", "wavix.schema.json"))).toBe(true);
    const valid = npx(dir, "validate", "-f", "node_modules/wavix-sync/examples/wavix.yaml");
    expect(valid.stdout).toMatch(/^node_modules\/wavix-sync\/examples\/wavix\.yaml: valid \(/);
    expect(valid.code).toBe(0);
    // The installed CLI compiles its modules and its dependencies (found in the consumer's
    // node_modules) with the code cache the tarball carries: every one the cache has, none stale.
    const probe = join(dir, "probe.js");
    writeFileSync(
      probe,
      `process.on("exit", () => { const m = Object.keys(require.cache).find((f) => f.endsWith("code-cache.js")); if (m) process.stderr.write("CODE-CACHE " + JSON.stringify(require(m).codeCacheStats()) + "\\n"); });\n`,
    );
    const cached = npxWith({ NODE_OPTIONS: `--require ${probe}` }, dir, "validate", "-f", "node_modules/wavix-sync/examples/wavix.yaml");
    expect(cached.code).toBe(0);
    const stats = JSON.parse(/^CODE-CACHE (.*)$/m.exec(cached.stderr)?.[1] ?? "null") as { used: number; rejected: number; stale: number; missing: number } | null;
    expect(stats).toMatchObject({ rejected: 0, stale: 0, missing: 0 });
    expect(stats!.used).toBeGreaterThan(100);
    // @pulumi/pulumi is an optional peer: the CLI never needs it.
    expect(existsSync(join(dir, "node_modules", "@pulumi"))).toBe(false);
    // README (Install): the demo works from the install, on a simulator of its own (no key, no network).
    const demo = npx(dir, "demo");
    expect(demo.code).toBe(0);
    expect(demo.stdout + demo.stderr).toContain("simulator");
  });

  describe("from a git URL (git+file:// of a repository holding this checkout)", () => {
    let url: string;
    beforeAll(() => {
      const repo = join(scratch(), "wavix-sync.git");
      cpSync(copy, repo, { recursive: true, filter: (src) => !/\/(node_modules|dist)(\/|$)/.test(src.slice(copy.length)) });
      git(repo, "init", "-q");
      git(repo, "add", "-A");
      git(repo, "commit", "-q", "-m", "release");
      url = `git+file://${repo}`;
    });

    it("with --ignore-scripts npm skips its build: the CLI says so in one line, with what to do, never a stack", () => {
      const dir = emptyConsumer();
      run("npm", ["install", "--save-dev", "--ignore-scripts", url], dir);
      expect(existsSync(join(dir, "node_modules", "wavix-sync", "dist"))).toBe(false);
      const r = npx(dir, "--version");
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        "wavix-sync: this copy has no build (dist/ is missing): installed from a git URL with --ignore-scripts, npm skips its build. Install the release tarball or the registry package instead (README, Install), or install from git without --ignore-scripts.\n",
      );
    });

    it("with scripts on npm builds it (the prepare script, with the package's dev dependencies), and it runs", () => {
      const dir = emptyConsumer();
      run("npm", ["install", "--save-dev", url], dir);
      expect(existsSync(join(dir, "node_modules", "wavix-sync", "dist", "cli", "main.js"))).toBe(true);
      const r = npx(dir, "--version");
      expect(r.stdout).toBe(DEFAULT_VERSION_TEXT);
      expect(r.code).toBe(0);
      const pkgJson = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
      expect(pkgJson.devDependencies["wavix-sync"]).toBe(url);
    });
  });
});
