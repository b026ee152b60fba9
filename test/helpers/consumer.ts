/**
 * A user's own repository that consumes wavix-sync as it would be published: the package as
 * `npm pack` makes it, a git repository with `wavix.yaml`, a package.json holding the tarball as a
 * dev dependency and its lockfile (so `npm ci` installs exactly it), and the example pipelines
 * copied from the package (examples/ci) to where the forges read them.
 *
 * Faithful to: what a consumer sees of the package (the tarball's files, nothing of this checkout);
 * npm itself (`npm ci` installs from the registry, or its cache, and the tarball); git (commits,
 * branches, merges). Leaves out: a registry entry for wavix-sync (the tarball stands in for it:
 * `file:vendor/…` resolves the same package).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, scratch } from "./cli";
import { sharedOnce } from "./run-dir";

/** The package as `npm pack` made it, and its files unpacked (what a consumer's node_modules holds). */
export interface PackedPackage {
  /** Absolute path of the tarball. */
  tarball: string;
  /** `wavix-sync-<version>.tgz` */
  fileName: string;
  version: string;
  /** The unpacked tarball (`package/`). */
  dir: string;
  /** Every path in the tarball, relative to `package/`. */
  files: string[];
}

/** npm with what every call here needs: no audit, no fund, no update check, the cache first. */
export const NPM_ENV: Record<string, string> = {
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  npm_config_prefer_offline: "true",
};

function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...NPM_ENV };
  // A test run started by `npm test` passes its own npm settings down; a consumer's npm has none of them.
  for (const k of Object.keys(env)) if (/^npm_(package|lifecycle|config_(?!audit|fund|update_notifier|prefer_offline|cache$|registry$))/i.test(k)) delete env[k];
  delete env.WAVIX_API_KEY;
  delete env.WAVIX_BASE_URL;
  return env;
}

/** Runs a command, failing with its output when it fails. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv()): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** git with an identity and defaults of its own, whatever the machine's configuration. */
export function git(cwd: string, ...args: string[]): string {
  return run(
    "git",
    ["-c", "user.name=Acme CI", "-c", "user.email=ci@acme.example", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "advice.detachedHead=false", ...args],
    cwd,
    { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" },
  );
}

/** The `npm pack --json` report of one tarball. */
interface PackReport {
  filename: string;
  version: string;
  files: { path: string }[];
}

/** `npm pack` of `from` into `out`; its report. */
function npmPack(from: string, out: string, ignoreScripts: boolean): PackReport {
  const json = run("npm", ["pack", ...(ignoreScripts ? ["--ignore-scripts"] : []), "--json", "--pack-destination", out], from);
  // npm prints the scripts' output before the JSON when they run.
  return (JSON.parse(json.slice(json.indexOf("[\n"))) as PackReport[])[0];
}

/**
 * `npm pack` of this checkout, in a scratch folder of the caller's own (the tarball and its files
 * unpacked). With `--ignore-scripts`: dist/ is the one the test run built (test/global-setup.ts),
 * and the prepack build would rebuild it under the other test files; test/install/consumer-repo.test.ts
 * packs with the prepack build in a copy instead. The checkout's own pack is made once per test run
 * (test/helpers/run-dir.ts: the files and dist/ do not change during a run) and each caller gets a
 * copy of that tarball; a copy of the checkout, or scripts on, packs afresh.
 */
export function packPackage(from = ROOT, options: { ignoreScripts?: boolean } = {}): PackedPackage {
  const ignoreScripts = options.ignoreScripts !== false;
  const out = scratch();
  const shared = from === ROOT && ignoreScripts ? sharedOnce("npm-pack", (dir) => writeFileSync(join(dir, "report.json"), JSON.stringify(npmPack(ROOT, dir, true)))) : undefined;
  let report: PackReport;
  if (shared !== undefined) {
    report = JSON.parse(readFileSync(join(shared, "report.json"), "utf8")) as PackReport;
    copyFileSync(join(shared, report.filename), join(out, report.filename));
  } else {
    report = npmPack(from, out, ignoreScripts);
  }
  const { filename, version, files } = report;
  const dir = join(out, "unpacked");
  mkdirSync(dir);
  run("tar", ["-xzf", join(out, filename), "-C", dir], out);
  return { tarball: join(out, filename), fileName: filename, version, dir: join(dir, "package"), files: files.map((f) => f.path) };
}

/** A consumer repository: the origin the forge's runners clone. */
export interface ConsumerRepo {
  /** The repository (non-bare, on `main`). */
  dir: string;
  pkg: PackedPackage;
  /** Commits `files` on `branch` (created from main when new); returns the commit's sha. */
  commit(branch: string, files: Record<string, string>, message: string): string;
  /** Merges `branch` into main with a merge commit, as a forge's merge button does; returns its sha. */
  merge(branch: string): string;
  /** The sha a branch points at. */
  sha(ref: string): string;
  /** A fresh clone checked out at `ref` in `dir` (what a runner's checkout gives a job). */
  checkout(ref: string, dir: string): void;
}

let template: { pkg: PackedPackage; dir: string } | undefined;

/**
 * package.json (the tarball as a dev dependency, as `npm install --save-dev ./vendor/<tgz>` writes
 * it) and its lockfile, made once per tarball (the same bytes give the same lockfile: once per test
 * run for the run's shared pack, test/helpers/run-dir.ts) and copied into each consumer repository.
 */
function consumerTemplate(pkg: PackedPackage): string {
  if (template?.pkg === pkg) return template.dir;
  const make = (dir: string) => {
    mkdirSync(join(dir, "vendor"));
    copyFileSync(pkg.tarball, join(dir, "vendor", pkg.fileName));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "acme-wavix", private: true, devDependencies: { "wavix-sync": `file:vendor/${pkg.fileName}` } }, null, 2) + "\n");
    run("npm", ["install", "--package-lock-only", "--ignore-scripts"], dir);
  };
  const tarballHash = createHash("sha256").update(readFileSync(pkg.tarball)).digest("hex").slice(0, 32);
  let dir = sharedOnce(`consumer-template-${tarballHash}`, make);
  if (dir === undefined) {
    dir = scratch();
    make(dir);
  }
  template = { pkg, dir };
  return dir;
}

/**
 * A consumer repository with `wavix.yaml` (and any other `files`), the example pipelines where
 * GitHub (`.github/workflows/`) and GitLab (`.gitlab-ci.yml`) read them, taken from the package.
 */
export function consumerRepo(pkg: PackedPackage, files: Record<string, string>): ConsumerRepo {
  const dir = join(scratch(), "acme-wavix");
  mkdirSync(dir);
  cpSync(consumerTemplate(pkg), dir, { recursive: true });
  const workflows = join(pkg.dir, "examples", "ci", "github");
  mkdirSync(join(dir, ".github", "workflows"), { recursive: true });
  for (const f of readdirSync(workflows)) copyFileSync(join(workflows, f), join(dir, ".github", "workflows", f));
  copyFileSync(join(pkg.dir, "examples", "ci", "gitlab", ".gitlab-ci.yml"), join(dir, ".gitlab-ci.yml"));
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "wavix-sync account repository");
  return repoAt(dir, pkg);
}

/** A ConsumerRepo over an existing repository `dir` (on `main`), e.g. a clone of one a user made by hand. */
export function repoAt(dir: string, pkg: PackedPackage): ConsumerRepo {
  const repo: ConsumerRepo = {
    dir,
    pkg,
    commit(branch, changed, message) {
      const exists = git(dir, "branch", "--list", branch).trim() !== "";
      git(dir, "checkout", "-q", ...(exists ? [branch] : ["-b", branch, "main"]));
      for (const [name, text] of Object.entries(changed)) writeFileSync(join(dir, name), text);
      git(dir, "add", "-A");
      git(dir, "commit", "-q", "--allow-empty", "-m", message);
      const sha = repo.sha("HEAD");
      git(dir, "checkout", "-q", "main");
      return sha;
    },
    merge(branch) {
      git(dir, "checkout", "-q", "main");
      git(dir, "merge", "-q", "--no-ff", "-m", `Merge branch '${branch}'`, branch);
      return repo.sha("main");
    },
    sha: (ref) => git(dir, "rev-parse", ref).trim(),
    checkout(ref, into) {
      git(ROOT, "clone", "-q", "--no-hardlinks", dir, into);
      git(into, "checkout", "-q", "--detach", repo.sha(ref));
    },
  };
  return repo;
}

/** The files of the repository at `ref` that its last commit changed (GitLab `rules: changes:` of a push). */
export function changedFiles(repo: ConsumerRepo, ref: string): string[] {
  return git(repo.dir, "diff", "--name-only", `${ref}~1`, ref).split("\n").filter(Boolean);
}

/** The version in this checkout's package.json. */
export function checkoutVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** Whether this checkout is a git repository (a clone of it can be installed from a git URL). */
export function checkoutIsGit(): boolean {
  return existsSync(join(ROOT, ".git"));
}

/** Path of a program on PATH, as the shell finds it. */
export function which(cmd: string): string | undefined {
  try {
    return execFileSync("bash", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
