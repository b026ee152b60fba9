/**
 * A stand-in for the GitHub Actions and GitLab CI runners, enough to run the example pipelines in
 * examples/ci/ for real, in a user's own repository (test/helpers/consumer.ts), against the
 * simulator.
 *
 * Faithful to: the files as the forges parse them (the `yaml` package); each job in a workspace of
 * its own: GitHub's starts empty and `actions/checkout` clones the repository at the run's commit,
 * GitLab's starts as a clone at the pipeline's commit plus the artifacts of the jobs it depends on
 * (every earlier stage's, or only its `needs:`), as the forges do; each `run:` step as
 * `bash --noprofile --norc -eo pipefail` (GitHub's default shell), a GitLab job's `before_script` +
 * `script` lines as one `bash -eo pipefail` session (variables carry between lines); `env:` merged
 * workflow → job → step; `$GITHUB_OUTPUT` (step outputs) and `$GITHUB_STEP_SUMMARY` files; `if:`
 * expressions on jobs and steps (==, !=, &&, ||, !, parentheses, always(), success(), failure(), and
 * the contexts in `context()`: any other is an error, so a new one is noticed), a failed step
 * skipping the rest unless its condition says otherwise, `continue-on-error`; secrets as GitHub
 * hands them out (repository secrets, plus the job's environment's; an unknown one is empty); GitLab
 * CI/CD variables as GitLab hands them out (a protected one only to a protected ref, an
 * environment-scoped one only to a job of that environment); GitLab `rules:` of the
 * `$A == "x" && ...` form with `changes:` (the files the pushed commit changed) and `when:`
 * (on_success, on_failure, always), a pipeline's jobs in stage order, `needs:`; artifacts: GitHub's
 * `upload-artifact` files kept per run (`download-artifact` with a `run-id` gets them back, or fails
 * as GitHub does), GitLab's `artifacts: paths` with `when:`.
 *
 * Leaves out: other `uses:` actions (`actions/setup-node` is recorded, not run: the machine's Node
 * stands in for Node 24), containers, caches, matrices, timeouts, resource groups. The forge itself
 * is a stub on PATH: `gh` and `curl` record their arguments (the files they upload, and which
 * secrets their environment held) in a log and answer from a table the test gives; `npm` is the
 * real npm, behind a wrapper that records which secrets its environment held. `npm ci` of a lockfile
 * already installed in this test run copies that install's node_modules instead of running again
 * (a runner's dependency cache; the first install of each lockfile is npm's own).
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { scratch } from "../helpers/cli";
import { runDir } from "../helpers/run-dir";
import { changedFiles, NPM_ENV, which, type ConsumerRepo } from "../helpers/consumer";

/** What a stubbed command answers: the first rule whose `match` is in its joined arguments. */
export interface StubRule {
  cmd: "gh" | "curl";
  match: string;
  /** The answer on stdout (or into `--output FILE`). */
  stdout?: string;
  /** The answer is this file's content (a job's artifact served by the forge's API). */
  file?: string;
}

/** One call of a stubbed command, with the contents of every file it was asked to upload. */
export interface StubCall {
  cmd: string;
  args: string[];
  files: Record<string, string>;
  /** Names of the environment variables that held a secret (a value listed in STUB_SECRETS_FILE). */
  secretsSeen: string[];
}

const STUB = `#!/usr/bin/env node
// Test stub: records the call, answers from STUB_RULES (see test/gitops/ci-runner.ts); npm is passed on.
const fs = require("node:fs");
const path = require("node:path");
const cmd = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const files = {};
if (cmd !== "npm") args.forEach((a, i) => {
  // gh: -F body=@file, --body-file file; curl: --data-urlencode name@file
  let m = /^[\\w-]+=?@(.+)$/.exec(a);
  if (m && !/^https?:/.test(a)) files[a] = fs.readFileSync(m[1], "utf8");
  if (a === "--body-file") files[a] = fs.readFileSync(args[i + 1], "utf8");
});
const secrets = fs.readFileSync(process.env.STUB_SECRETS_FILE, "utf8").split("\\n").filter(Boolean);
const secretsSeen = Object.keys(process.env).filter((k) => secrets.some((v) => process.env[k].includes(v))).sort();
fs.appendFileSync(process.env.STUB_LOG, JSON.stringify({ cmd, args, files, secretsSeen }) + "\\n");
if (cmd === "npm") {
  const { spawnSync } = require("node:child_process");
  // npm ci: the first install of a lockfile in this test run runs for real and is kept; the same
  // lockfile installed again gets a copy of that node_modules (what a runner's dependency cache gives),
  // its files hard-linked to the kept install (cp -l: new folders, no file's bytes copied; a job
  // that deleted or added a file there would not change the kept one, and none writes into one).
  const cache = args[0] === "ci" && process.env.STUB_NPM_CI_CACHE && fs.existsSync("package-lock.json")
    ? path.join(process.env.STUB_NPM_CI_CACHE, require("node:crypto").createHash("sha256").update(JSON.stringify(args)).update(fs.readFileSync("package.json")).update(fs.readFileSync("package-lock.json")).digest("hex"))
    : undefined;
  if (cache && fs.existsSync(path.join(cache, "node_modules"))) {
    fs.rmSync("node_modules", { recursive: true, force: true });
    const cp = spawnSync("cp", ["-a", "-l", path.join(cache, "node_modules"), "node_modules"], { stdio: "inherit" });
    process.exit(cp.status === null ? 1 : cp.status);
  }
  const r = spawnSync(process.env.STUB_REAL_NPM, args, { stdio: "inherit" });
  if (cache && r.status === 0) {
    const tmp = cache + "." + process.pid;
    fs.mkdirSync(tmp, { recursive: true });
    // Another file of the run may have kept the same install meanwhile: theirs stays.
    if (spawnSync("cp", ["-a", "node_modules", path.join(tmp, "node_modules")]).status === 0) try { fs.renameSync(tmp, cache); } catch {}
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(r.status === null ? 1 : r.status);
}
const rules = JSON.parse(fs.readFileSync(process.env.STUB_RULES_FILE, "utf8"));
const joined = args.join(" ");
const rule = rules.find((r) => r.cmd === cmd && joined.includes(r.match));
const answer = rule && (rule.file !== undefined ? fs.readFileSync(rule.file) : rule.stdout);
// curl --output FILE: the answer goes to the file (as a download would).
const o = args.indexOf("--output");
if (rule && o >= 0) fs.writeFileSync(args[o + 1], answer);
else if (rule) process.stdout.write(answer);
else if (o >= 0) { process.stderr.write("curl: (22) The requested URL returned error: 404\\n"); process.exit(22); }
`;

/** The forge around the runners: the stubs on PATH, their log, the answers they give. */
export interface Forge {
  /** Folder of the stubs (first on every job's PATH; outside every workspace). */
  bin: string;
  /** The recorded calls of the stubs so far (and clears the log). */
  takeCalls(): StubCall[];
  /** The answers of `gh` and `curl` from now on. */
  answer(rules: StubRule[]): void;
  log: string;
  rulesFile: string;
  secretsFile: string;
}

/**
 * The installs `npm ci` made in this test run, by lockfile (the npm stub's cache; STUB_NPM_CI_CACHE):
 * the run's folder (test/helpers/run-dir.ts), shared by the example-pipeline files, else one of this file.
 */
let npmCiCache: string | undefined;

export function forge(): Forge {
  if (npmCiCache === undefined || !existsSync(npmCiCache)) {
    const run = runDir();
    npmCiCache = run === undefined ? scratch() : join(run, "npm-ci");
    mkdirSync(npmCiCache, { recursive: true });
  }
  const dir = scratch();
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const cmd of ["gh", "curl", "npm"]) {
    writeFileSync(join(bin, cmd), STUB);
    chmodSync(join(bin, cmd), 0o755);
  }
  const log = join(dir, "calls.log");
  const rulesFile = join(dir, "rules.json");
  writeFileSync(log, "");
  writeFileSync(rulesFile, "[]");
  return {
    bin,
    log,
    rulesFile,
    secretsFile: join(dir, "secrets"),
    answer: (rules) => writeFileSync(rulesFile, JSON.stringify(rules)),
    takeCalls() {
      const calls = readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as StubCall);
      writeFileSync(log, "");
      return calls;
    },
  };
}

export interface StepRun {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
}

export interface JobRun {
  /** False when the job's own `if:` (GitHub) or its `when:` (GitLab) left it out. */
  ran: boolean;
  steps: StepRun[];
  /** Steps not run (an earlier step failed, or their `if:` was false). */
  skipped: string[];
  /** The artifact paths the job declares, and whether each existed after the job. */
  artifacts: { path: string; exists: boolean }[];
  ok: boolean;
  /** The GitHub step summary written by the job. */
  summary: string;
  /** GitHub: this run's id (what `download-artifact` with `run-id` names); GitLab: the job's id. */
  runId: number;
  /** The job's workspace, as it was left. */
  dir: string;
}

/** A GitLab CI/CD variable as set in the project's settings. */
export interface GlVariable {
  value: string;
  /** Only for pipelines of protected branches (the default branch). */
  protected?: boolean;
  /** Only for jobs whose `environment` has this name. @default "*" */
  environment?: string;
}

export interface RunContext {
  repo: ConsumerRepo;
  forge: Forge;
  /** The simulator's URL. */
  baseUrl: string;
  /** The branch whose head the run checks out. @default "main" */
  branch?: string;
  /** GitHub's secret store: repository secrets, and each environment's own. */
  secrets?: { repository: Record<string, string>; environments?: Record<string, Record<string, string>> };
  /** GitLab's CI/CD variables (and the variables a pipeline run by hand is given). */
  variables?: Record<string, GlVariable>;
  rules?: StubRule[];
  /** GitHub: the pull request number; GitLab: the merge request IID. */
  pullRequest?: number;
  /** The pull request's head repository (GitHub) or source project id (GitLab) is a fork. */
  fork?: boolean;
  /** GitHub: `github.ref`. @default `refs/heads/<branch>` */
  ref?: string;
  /** GitHub: `inputs.*` of a workflow_dispatch run. */
  inputs?: Record<string, string>;
  /** GitHub: artifacts uploaded so far, per run id (kept across runs by the test). */
  store?: ArtifactStore;
}

/** Artifacts per run: run id → artifact name → a directory holding its files. */
export interface ArtifactStore {
  root: string;
  runs: Map<number, Map<string, string>>;
  nextRunId: number;
}

const workspaces: string[] = [];

/** A job's workspace (a scratch folder, removed by `removeWorkspaces`). */
function workspace(): string {
  const dir = scratch();
  workspaces.push(dir);
  return dir;
}

/**
 * Removes the job workspaces made so far, each with its node_modules, with `rm -rf`: some ten times
 * faster than Node's rmSync on many small files, which took past a hook's timeout after a few dozen jobs.
 */
export function removeWorkspaces(): void {
  const dirs = workspaces.splice(0);
  if (dirs.length > 0) spawnSync("rm", ["-rf", "--", ...dirs]);
}

export function artifactStore(): ArtifactStore {
  return { root: scratch(), runs: new Map(), nextRunId: 1000 };
}

function shell(script: string, cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn("bash", [...args, "-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // npm ci on a loaded machine, then the CLI: generous, and no timing is asserted.
    const timer = setTimeout(() => child.kill(), 180_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Every secret value the context knows (the stubs report which variables held one). */
function secretValues(ctx: RunContext): string[] {
  const values = [
    ...Object.values(ctx.secrets?.repository ?? {}),
    ...Object.values(ctx.secrets?.environments ?? {}).flatMap((e) => Object.values(e)),
    ...Object.values(ctx.variables ?? {}).map((v) => v.value),
    "ghs_stub_token",
  ];
  return values.filter((v) => v.length > 0);
}

const REAL_NPM = which("npm");

/**
 * The environment every job gets, as a runner's: a clean one (nothing of this test process), the
 * stubs first on PATH, the simulator as the API (standing in for api.wavix.com), npm reading its
 * cache first.
 */
function baseEnv(ctx: RunContext, extra: Record<string, string>): NodeJS.ProcessEnv {
  if (REAL_NPM === undefined) throw new Error("npm is not on PATH");
  writeFileSync(ctx.forge.secretsFile, secretValues(ctx).join("\n") + "\n");
  ctx.forge.answer(ctx.rules ?? []);
  return {
    PATH: `${ctx.forge.bin}:${process.env.PATH}`,
    HOME: process.env.HOME,
    CI: "true",
    WAVIX_BASE_URL: ctx.baseUrl,
    STUB_LOG: ctx.forge.log,
    STUB_RULES_FILE: ctx.forge.rulesFile,
    STUB_SECRETS_FILE: ctx.forge.secretsFile,
    STUB_REAL_NPM: REAL_NPM,
    ...(npmCiCache ? { STUB_NPM_CI_CACHE: npmCiCache } : {}),
    ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
    ...(process.env.npm_config_registry ? { npm_config_registry: process.env.npm_config_registry } : {}),
    ...NPM_ENV,
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions

interface GhStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  "continue-on-error"?: boolean;
}

export interface GhJob {
  if?: string;
  env?: Record<string, string>;
  environment?: string;
  permissions?: Record<string, string>;
  "timeout-minutes"?: number;
  steps: GhStep[];
  [key: string]: unknown;
}

export interface GhWorkflow {
  name: string;
  on: Record<string, unknown>;
  env?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  permissions?: Record<string, string>;
  jobs: Record<string, GhJob>;
}

export function readWorkflow(file: string): GhWorkflow {
  return parse(readFileSync(file, "utf8")) as GhWorkflow;
}

interface StepState {
  outputs: Record<string, string>;
  outcome: "success" | "failure" | "skipped";
}

/** What an expression can read; a path not listed is an error (added here on purpose). */
function context(ctx: RunContext, job: GhJob, steps: Record<string, StepState>, path: string): string {
  const secrets = { ...ctx.secrets?.repository, ...(job.environment ? ctx.secrets?.environments?.[job.environment] : {}) };
  let m = /^secrets\.(\w+)$/.exec(path);
  if (m) return secrets[m[1]] ?? "";
  m = /^inputs\.(\w+)$/.exec(path);
  if (m) return ctx.inputs?.[m[1]] ?? "";
  m = /^steps\.([\w-]+)\.(outputs\.([\w-]+)|outcome)$/.exec(path);
  if (m) {
    const s = steps[m[1]];
    if (m[3] !== undefined) return s?.outputs[m[3]] ?? "";
    return s?.outcome ?? "";
  }
  const repo = "acme/wavix-account";
  const table: Record<string, string> = {
    "github.token": "ghs_stub_token",
    "github.repository": repo,
    "github.ref": ctx.ref ?? `refs/heads/${ctx.branch ?? "main"}`,
    "github.event.pull_request.number": String(ctx.pullRequest ?? ""),
    "github.event.pull_request.head.repo.full_name": ctx.fork ? "mallory/wavix-account" : repo,
  };
  if (!(path in table)) throw new Error(`unsupported expression context ${path} (add it to ci-runner.ts on purpose)`);
  return table[path];
}

/**
 * Evaluates a GitHub expression (without `${{ }}`): literals 'x', true, false; contexts; ==, !=
 * (strings compared as GitHub does, case-insensitively), !, &&, ||, parentheses; always(), success(),
 * failure(). Values are strings; the empty string is falsy.
 */
function evalExpression(text: string, read: (path: string) => string, status: { failed: boolean }): string {
  const tokens = text.match(/'(?:[^']|'')*'|&&|\|\||==|!=|!|\(|\)|[\w.-]+\(\)|[\w.-]+/g) ?? [];
  if (tokens.join("").replace(/\s/g, "") !== text.replace(/\s/g, "")) throw new Error(`unsupported expression: ${text}`);
  let i = 0;
  const truthy = (v: string) => v !== "" && v !== "false" && v !== "0";
  const primary = (): string => {
    const t = tokens[i++];
    if (t === "(") {
      const v = or();
      if (tokens[i++] !== ")") throw new Error(`unbalanced parentheses: ${text}`);
      return v;
    }
    if (t === "!") return truthy(primary()) ? "false" : "true";
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (t === "true" || t === "false") return t;
    if (t === "always()") return "true";
    if (t === "success()") return status.failed ? "false" : "true";
    if (t === "failure()") return status.failed ? "true" : "false";
    if (t.endsWith("()")) throw new Error(`unsupported function ${t}`);
    return read(t);
  };
  const compare = (): string => {
    let v = primary();
    while (tokens[i] === "==" || tokens[i] === "!=") {
      const op = tokens[i++];
      const w = primary();
      v = (v.toLowerCase() === w.toLowerCase()) === (op === "==") ? "true" : "false";
    }
    return v;
  };
  const and = (): string => {
    let v = compare();
    while (tokens[i] === "&&") {
      i++;
      const w = compare();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const or = (): string => {
    let v = and();
    while (tokens[i] === "||") {
      i++;
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const v = or();
  if (i !== tokens.length) throw new Error(`unsupported expression: ${text}`);
  return v;
}

/** An `if:` as GitHub reads it: `${{ }}` optional; without a status function, `success() &&` is implied. */
function condition(text: string | undefined, read: (path: string) => string, status: { failed: boolean }): boolean {
  if (text === undefined) return !status.failed;
  const bare = text.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, "$1");
  const implied = /\b(always|success|failure|cancelled)\(\)/.test(bare) ? bare : `success() && (${bare})`;
  const v = evalExpression(implied, read, status);
  return v !== "" && v !== "false" && v !== "0";
}

/** `${{ expr }}` inside a value (env:, with:). */
function interpolate(text: string, read: (path: string) => string): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => evalExpression(expr, read, { failed: false }));
}

/** The paths of an upload-artifact `path:` (one a line). */
function artifactPaths(step: GhStep): string[] {
  return String(step.with?.path ?? "")
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Run one job of a workflow, step by step, as the runner would, in a workspace of its own. */
export async function runGithubJob(wf: GhWorkflow, jobName: string, ctx: RunContext): Promise<JobRun> {
  const job = wf.jobs[jobName];
  const store = (ctx.store ??= artifactStore());
  const runId = store.nextRunId++;
  const dir = join(workspace(), "work");
  mkdirSync(dir);
  const tmp = join(workspace(), "runner");
  mkdirSync(tmp, { recursive: true });
  const summaryFile = join(tmp, `summary-${jobName}`);
  writeFileSync(summaryFile, "");
  const out: JobRun = { ran: true, steps: [], skipped: [], artifacts: [], ok: true, summary: "", runId, dir };
  const steps: Record<string, StepState> = {};
  const read = (path: string) => context(ctx, job, steps, path);
  if (!condition(job.if, read, { failed: false })) return { ...out, ran: false };
  const branch = ctx.branch ?? "main";
  const sha = ctx.repo.sha(branch);
  const uploads = new Map<string, string>();
  store.runs.set(runId, uploads);
  for (const [i, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${i + 1}`;
    const state: StepState = { outputs: {}, outcome: "skipped" };
    if (step.id) steps[step.id] = state;
    if (!condition(step.if, read, { failed: !out.ok })) {
      out.skipped.push(name);
      continue;
    }
    let r: { code: number; stdout: string; stderr: string };
    if (step.uses !== undefined) {
      r = { code: 0, stdout: "", stderr: "" };
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), read)]));
      if (step.uses.startsWith("actions/checkout@")) {
        // The workspace is empty until the checkout clones the run's commit into it.
        ctx.repo.checkout(sha, dir);
      } else if (step.uses.startsWith("actions/upload-artifact@")) {
        const into = join(store.root, String(runId), w.name);
        for (const path of artifactPaths(step)) {
          const exists = existsSync(join(dir, path));
          out.artifacts.push({ path, exists });
          if (exists) {
            mkdirSync(dirname(join(into, path)), { recursive: true });
            cpSync(join(dir, path), join(into, path), { recursive: true });
          }
        }
        if (existsSync(into)) uploads.set(w.name, into);
      } else if (step.uses.startsWith("actions/download-artifact@")) {
        // Another run's artifact needs its run id and a token (as the action requires).
        const from = w["run-id"] ? Number(w["run-id"]) : runId;
        if (w["run-id"] && !w["github-token"]) throw new Error(`step "${name}": download-artifact from another run needs github-token`);
        const found = store.runs.get(from)?.get(w.name);
        if (found === undefined) r = { code: 1, stdout: "", stderr: `Unable to download artifact(s): Artifact not found for name: ${w.name}` };
        else cpSync(found, join(dir, w.path ?? "."), { recursive: true });
      } else if (!step.uses.startsWith("actions/setup-node@")) {
        throw new Error(`step "${name}": the runner stand-in does not know ${step.uses}`);
      }
    } else {
      if (step.run === undefined) throw new Error(`step "${name}" has neither uses nor run`);
      if (step.run.includes("${{")) throw new Error(`step "${name}": an expression inside run: is a script-injection risk; pass it through env:`);
      const outputFile = join(tmp, `output-${jobName}-${i}`);
      writeFileSync(outputFile, "");
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...wf.env, ...job.env, ...step.env })) env[k] = interpolate(String(v), read);
      r = await shell(
        step.run,
        dir,
        baseEnv(ctx, {
          ...env,
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          GITHUB_REPOSITORY: "acme/wavix-account",
          GITHUB_WORKSPACE: dir,
          GITHUB_SERVER_URL: "https://github.com",
          GITHUB_RUN_ID: String(runId),
          GITHUB_SHA: sha,
          GITHUB_REF: read("github.ref"),
        }),
        ["--noprofile", "--norc", "-eo", "pipefail"],
      );
      for (const line of readFileSync(outputFile, "utf8").split("\n")) {
        const eq = line.indexOf("=");
        if (eq > 0) state.outputs[line.slice(0, eq)] = line.slice(eq + 1);
      }
    }
    out.steps.push({ name, ...r });
    state.outcome = r.code === 0 ? "success" : "failure";
    if (r.code !== 0 && !step["continue-on-error"]) out.ok = false;
  }
  out.summary = readFileSync(summaryFile, "utf8");
  return out;
}

// ---------------------------------------------------------------------------------------------
// GitLab CI

const GITLAB_RESERVED = new Set(["stages", "default", "variables", "workflow", "include", "image", "services", "before_script", "after_script", "cache"]);

type GlWhen = "on_success" | "on_failure" | "always" | "never";

export interface GlJob {
  stage: string;
  rules?: { if?: string; changes?: string[]; when?: GlWhen }[];
  when?: GlWhen;
  script: string[];
  before_script?: string[];
  artifacts?: { paths?: string[]; when?: GlWhen };
  environment?: string | { name: string; action?: string };
  resource_group?: string;
  interruptible?: boolean;
  needs?: string[];
  timeout?: string;
  [key: string]: unknown;
}

export interface GlPipeline {
  stages: string[];
  default?: { before_script?: string[]; timeout?: string; image?: string };
  variables?: Record<string, string>;
  jobs: Record<string, GlJob>;
}

export function readGitlab(file: string): GlPipeline {
  const doc = parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const jobs: Record<string, GlJob> = {};
  for (const [k, v] of Object.entries(doc)) if (!GITLAB_RESERVED.has(k) && !k.startsWith(".")) jobs[k] = v as GlJob;
  return { stages: doc.stages as string[], default: doc.default as GlPipeline["default"], variables: doc.variables as Record<string, string>, jobs };
}

/** The environment a job deploys to or uses (what scoped variables are matched against). */
export function gitlabEnvironment(job: GlJob | undefined): string | undefined {
  if (job?.environment === undefined) return undefined;
  return typeof job.environment === "string" ? job.environment : job.environment.name;
}

/**
 * The variables of a job in a pipeline started by `source` ("merge_request_event", "push",
 * "schedule", "web"): the predefined ones, and the project's CI/CD variables that GitLab hands this
 * job (a protected one only on the default branch, a scoped one only in its environment).
 */
export function gitlabVariables(source: string, ctx: RunContext, job?: GlJob, jobId = 31337): Record<string, string> {
  const branch = ctx.branch ?? "main";
  const v: Record<string, string> = {
    CI_PIPELINE_SOURCE: source,
    CI_DEFAULT_BRANCH: "main",
    CI_PROJECT_ID: "4242",
    CI_API_V4_URL: "https://gitlab.example/api/v4",
    CI_COMMIT_SHA: ctx.repo.sha(branch),
    CI_JOB_ID: String(jobId),
    CI_JOB_URL: `https://gitlab.example/acme/wavix-account/-/jobs/${jobId}`,
    CI_PIPELINE_URL: "https://gitlab.example/acme/wavix-account/-/pipelines/777",
  };
  if (source === "merge_request_event") {
    v.CI_MERGE_REQUEST_IID = String(ctx.pullRequest ?? 1);
    v.CI_MERGE_REQUEST_SOURCE_PROJECT_ID = ctx.fork ? "6666" : "4242";
    v.CI_MERGE_REQUEST_PROJECT_ID = "4242";
    v.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME = branch;
    v.CI_COMMIT_REF_PROTECTED = "false";
  } else {
    v.CI_COMMIT_BRANCH = branch;
    v.CI_COMMIT_REF_PROTECTED = branch === "main" ? "true" : "false";
  }
  const env = gitlabEnvironment(job);
  for (const [key, def] of Object.entries(ctx.variables ?? {})) {
    if (def.protected && v.CI_COMMIT_REF_PROTECTED !== "true") continue;
    const scope = def.environment ?? "*";
    if (scope !== "*" && scope !== env) continue;
    v[key] = def.value;
  }
  return v;
}

/** `rules: - if:` of the forms `$A == "x"`, `$A == $B`, joined by `&&` (an unset variable is null). */
export function ruleMatches(expr: string, vars: Record<string, string>): boolean {
  return expr.split("&&").every((part) => {
    const m = /^\s*(\S+)\s*(==|!=)\s*(\S+)\s*$/.exec(part);
    if (!m) throw new Error(`unsupported rule: ${expr}`);
    const value = (t: string) => (t === "null" ? null : t.startsWith("$") ? (vars[t.slice(1)] ?? null) : t.replace(/^"(.*)"$/, "$1"));
    return (value(m[1]) === value(m[3])) === (m[2] === "==");
  });
}

/**
 * The `when` of a job in a pipeline from `source` (its first matching rule's, else the job's, else
 * on_success), or undefined when no rule matches. `changes:` matches when the pushed commit changed
 * one of the files (push pipelines; always true otherwise, as GitLab does for schedules and runs by hand).
 */
function gitlabWhen(job: GlJob, source: string, ctx: RunContext): GlWhen | undefined {
  if (job.rules === undefined) return job.when ?? "on_success";
  for (const rule of job.rules) {
    if (rule.if !== undefined && !ruleMatches(rule.if, gitlabVariables(source, ctx, job))) continue;
    if (rule.changes !== undefined && source === "push") {
      const changed = changedFiles(ctx.repo, ctx.branch ?? "main");
      if (!rule.changes.some((f) => changed.includes(f))) continue;
    }
    return rule.when ?? job.when ?? "on_success";
  }
  return undefined;
}

/** Jobs a pipeline from `source` holds, in stage order (the order GitLab lists them). */
export function gitlabJobsFor(p: GlPipeline, source: string, ctx: RunContext): string[] {
  return Object.entries(p.jobs)
    .filter(([, j]) => {
      const when = gitlabWhen(j, source, ctx);
      return when !== undefined && when !== "never";
    })
    .sort(([, a], [, b]) => p.stages.indexOf(a.stage) - p.stages.indexOf(b.stage))
    .map(([name]) => name);
}

export interface PipelineRun {
  /** Each job of the pipeline, in stage order; `ran: false` for one its `when:` left out. */
  jobs: Map<string, JobRun>;
  ok: boolean;
}

let nextGitlabJobId = 9000;

/**
 * A pipeline as GitLab runs it: its jobs in stage order; a job runs when its `when:` says so given
 * how the jobs it depends on ended (every earlier stage's, or only its `needs:`), in a clone of the
 * pipeline's commit holding those jobs' artifacts.
 */
export async function runGitlabPipeline(p: GlPipeline, source: string, ctx: RunContext): Promise<PipelineRun> {
  const names = gitlabJobsFor(p, source, ctx);
  const jobs = new Map<string, JobRun>();
  const artifactsOf = new Map<string, string>();
  const sha = ctx.repo.sha(ctx.branch ?? "main");
  for (const name of names) {
    const job = p.jobs[name];
    const when = gitlabWhen(job, source, ctx)!;
    const deps = job.needs ?? names.filter((n) => p.stages.indexOf(p.jobs[n].stage) < p.stages.indexOf(job.stage));
    const ran = deps.map((d) => jobs.get(d)).filter((j): j is JobRun => j !== undefined);
    const failed = ran.some((j) => j.ran && !j.ok);
    const blocked = ran.some((j) => !j.ran);
    const go = when === "always" || (when === "on_failure" ? failed : !failed && !blocked);
    const id = nextGitlabJobId++;
    const dir = join(workspace(), "build");
    if (!go) {
      jobs.set(name, { ran: false, steps: [], skipped: [], artifacts: [], ok: true, summary: "", runId: id, dir });
      continue;
    }
    ctx.repo.checkout(sha, dir);
    for (const d of deps) {
      const from = artifactsOf.get(d);
      if (from) cpSync(from, dir, { recursive: true });
    }
    const vars = gitlabVariables(source, ctx, job, id);
    const expand = (s: string) => s.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, n: string) => vars[n] ?? "");
    const pipelineVars = Object.fromEntries(Object.entries(p.variables ?? {}).map(([k, v]) => [k, expand(String(v))]));
    const jobVars = Object.fromEntries(Object.entries((job.variables as Record<string, string>) ?? {}).map(([k, v]) => [k, expand(String(v))]));
    const lines = [...(job.before_script ?? p.default?.before_script ?? []), ...job.script];
    const r = await shell(lines.join("\n"), dir, baseEnv(ctx, { ...vars, CI_PROJECT_DIR: dir, ...pipelineVars, ...jobVars }), ["-eo", "pipefail"]);
    const ok = r.code === 0;
    const paths = job.artifacts?.paths ?? [];
    const keep = job.artifacts?.when ?? "on_success";
    if (paths.length > 0 && (keep === "always" || (keep === "on_success") === ok)) {
      const into = join(scratch(), `artifacts-${id}`);
      mkdirSync(into);
      for (const path of paths) if (existsSync(join(dir, path))) cpSync(join(dir, path), join(into, path), { recursive: true });
      artifactsOf.set(name, into);
    }
    const artifacts = paths.map((path) => ({ path, exists: existsSync(join(dir, path)) }));
    jobs.set(name, { ran: true, steps: [{ name, ...r }], skipped: [], artifacts, ok, summary: "", runId: id, dir });
  }
  return { jobs, ok: [...jobs.values()].every((j) => !j.ran || j.ok) };
}

/** Where a GitLab job's kept artifacts are, for the forge's API to serve (`jobs/:id/artifacts/:path`). */
export function gitlabArtifact(run: JobRun, path: string): string {
  return join(run.dir, path);
}
