/**
 * A stand-in for the GitHub Actions and GitLab CI runners, enough to run the example pipelines in
 * examples/ci/ for real against the simulator.
 *
 * Faithful to: the files as the forges parse them (the `yaml` package); each `run:` step as
 * `bash --noprofile --norc -eo pipefail` in the checkout (GitHub's default shell), a GitLab job's
 * `before_script` + `script` lines as one `bash -eo pipefail` session (variables carry between
 * lines); `env:` merged workflow → job → step; `$GITHUB_OUTPUT` (step outputs) and
 * `$GITHUB_STEP_SUMMARY` files; `if:` expressions on jobs and steps (==, !=, &&, ||, !, parentheses,
 * always(), success(), failure(), and the contexts in `context()`: any other is an error, so a new one
 * is noticed), a failed step skipping the rest unless its condition says otherwise,
 * `continue-on-error`; secrets as GitHub hands them out (repository secrets, plus the job's
 * environment's; an unknown one is empty); GitLab CI/CD variables as GitLab hands them out (a
 * protected one only to a protected ref, an environment-scoped one only to a job of that
 * environment); GitLab `rules:` of the `$A == "x" && ...` form; artifacts: `upload-artifact` files are
 * kept per run, and `download-artifact` with a `run-id` gets them back (or fails, as GitHub does).
 *
 * Leaves out: other `uses:` actions (checkout, setup-node are recorded, not run; the workspace is
 * already checked out with wavix-sync installed), containers, caches, matrices, timeouts.
 * The forge itself is a stub on PATH: `gh`, `curl` and `npm` record their arguments (the files they
 * upload, and which secrets their environment held) in a log and answer from a table the test gives.
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { ROOT, scratch } from "../helpers/cli";

/** What a stubbed command answers: the first rule whose `match` is in its joined arguments. */
export interface StubRule {
  cmd: "gh" | "curl";
  match: string;
  stdout: string;
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
// Test stub: records the call, answers from STUB_RULES (see test/gitops/ci-runner.ts).
const fs = require("node:fs");
const path = require("node:path");
const cmd = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const files = {};
args.forEach((a, i) => {
  // gh: -F body=@file, --body-file file; curl: --data-urlencode name@file
  let m = /^[\\w-]+=?@(.+)$/.exec(a);
  if (m && !/^https?:/.test(a)) files[a] = fs.readFileSync(m[1], "utf8");
  if (a === "--body-file") files[a] = fs.readFileSync(args[i + 1], "utf8");
});
const secrets = fs.readFileSync(process.env.STUB_SECRETS_FILE, "utf8").split("\\n").filter(Boolean);
const secretsSeen = Object.keys(process.env).filter((k) => secrets.some((v) => process.env[k].includes(v))).sort();
fs.appendFileSync(process.env.STUB_LOG, JSON.stringify({ cmd, args, files, secretsSeen }) + "\\n");
if (cmd === "npm") {
  const line = args.join(" ");
  if (args[0] === "ci" || line === "run build --if-present") process.exit(0);
  process.stderr.write("npm stub: only 'npm ci' and 'npm run build --if-present' are expected in the examples, got: npm " + line + "\\n");
  process.exit(97);
}
const rules = JSON.parse(process.env.STUB_RULES || "[]");
const joined = args.join(" ");
const rule = rules.find((r) => r.cmd === cmd && joined.includes(r.match));
// curl --output FILE: the answer goes to the file (as a download would).
const o = args.indexOf("--output");
if (rule && o >= 0) fs.writeFileSync(args[o + 1], rule.stdout);
else if (rule) process.stdout.write(rule.stdout);
else if (o >= 0) { process.stderr.write("curl: (22) The requested URL returned error: 404\\n"); process.exit(22); }
`;

export interface Workspace {
  dir: string;
  stubLog: string;
  /** The recorded calls of the stubs so far (and clears the log). */
  takeCalls(): StubCall[];
}

/**
 * A checkout of a user's account repository: `wavix.yaml`, a package.json with wavix-sync as a dev
 * dependency, and wavix-sync installed (a link to this repository), so `npx wavix-sync` runs the
 * compiled CLI without the network.
 */
export function workspace(wavixYaml: string): Workspace {
  const dir = scratch();
  writeFileSync(join(dir, "wavix.yaml"), wavixYaml);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "acme-wavix", private: true, devDependencies: { "wavix-sync": "^0.1.0" } }));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "wavix-sync"));
  symlinkSync(join("..", "wavix-sync", "bin", "wavix-sync.js"), join(dir, "node_modules", ".bin", "wavix-sync"));
  const stubs = join(dir, ".stubs");
  mkdirSync(stubs);
  for (const cmd of ["gh", "curl", "npm"]) {
    writeFileSync(join(stubs, cmd), STUB);
    chmodSync(join(stubs, cmd), 0o755);
  }
  const stubLog = join(dir, ".stubs.log");
  writeFileSync(stubLog, "");
  return {
    dir,
    stubLog,
    takeCalls() {
      const calls = readFileSync(stubLog, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as StubCall);
      writeFileSync(stubLog, "");
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
  /** False when the job's own `if:` (GitHub) left it out. */
  ran: boolean;
  steps: StepRun[];
  /** Steps not run (an earlier step failed, or their `if:` was false). */
  skipped: string[];
  /** The artifact paths the job declares, and whether each existed after the job. */
  artifacts: { path: string; exists: boolean }[];
  ok: boolean;
  /** The GitHub step summary written by the job. */
  summary: string;
  /** GitHub: this run's id (what `download-artifact` with `run-id` names). */
  runId: number;
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
  ws: Workspace;
  /** The simulator's URL. */
  baseUrl: string;
  /** GitHub's secret store: repository secrets, and each environment's own. */
  secrets?: { repository: Record<string, string>; environments?: Record<string, Record<string, string>> };
  /** GitLab's CI/CD variables. */
  variables?: Record<string, GlVariable>;
  rules?: StubRule[];
  /** GitHub: the pull request number; GitLab: the merge request IID. */
  pullRequest?: number;
  /** The pull request's head repository (GitHub) or source project id (GitLab) is a fork. */
  fork?: boolean;
  /** GitHub: `github.ref`. @default "refs/heads/main" */
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
    const timer = setTimeout(() => child.kill(), 60_000);
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

/** The environment every job gets: stubs first on PATH, the simulator as the API, no network for npm. */
function baseEnv(ctx: RunContext, extra: Record<string, string>): NodeJS.ProcessEnv {
  const secretsFile = join(ctx.ws.dir, ".stubs.secrets");
  writeFileSync(secretsFile, secretValues(ctx).join("\n") + "\n");
  const env: NodeJS.ProcessEnv = {
    PATH: `${join(ctx.ws.dir, ".stubs")}:${process.env.PATH}`,
    HOME: process.env.HOME,
    CI: "true",
    WAVIX_BASE_URL: ctx.baseUrl,
    STUB_LOG: ctx.ws.stubLog,
    STUB_RULES: JSON.stringify(ctx.rules ?? []),
    STUB_SECRETS_FILE: secretsFile,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    ...extra,
  };
  return env;
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
    "github.ref": ctx.ref ?? "refs/heads/main",
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

/** Run one job of a workflow, step by step, as the runner would. */
export async function runGithubJob(wf: GhWorkflow, jobName: string, ctx: RunContext): Promise<JobRun> {
  const job = wf.jobs[jobName];
  const store = (ctx.store ??= artifactStore());
  const runId = store.nextRunId++;
  const tmp = join(ctx.ws.dir, ".runner");
  mkdirSync(tmp, { recursive: true });
  const summaryFile = join(tmp, `summary-${jobName}`);
  writeFileSync(summaryFile, "");
  const out: JobRun = { ran: true, steps: [], skipped: [], artifacts: [], ok: true, summary: "", runId };
  const steps: Record<string, StepState> = {};
  const read = (path: string) => context(ctx, job, steps, path);
  if (!condition(job.if, read, { failed: false })) return { ...out, ran: false };
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
      if (step.uses.startsWith("actions/upload-artifact@")) {
        const dir = join(store.root, String(runId), w.name);
        for (const path of artifactPaths(step)) {
          const exists = existsSync(join(ctx.ws.dir, path));
          out.artifacts.push({ path, exists });
          if (exists) {
            mkdirSync(dirname(join(dir, path)), { recursive: true });
            cpSync(join(ctx.ws.dir, path), join(dir, path), { recursive: true });
          }
        }
        if (existsSync(dir)) uploads.set(w.name, dir);
      } else if (step.uses.startsWith("actions/download-artifact@")) {
        // Another run's artifact needs its run id and a token (as the action requires).
        const from = w["run-id"] ? Number(w["run-id"]) : runId;
        if (w["run-id"] && !w["github-token"]) throw new Error(`step "${name}": download-artifact from another run needs github-token`);
        const dir = store.runs.get(from)?.get(w.name);
        if (dir === undefined) r = { code: 1, stdout: "", stderr: `Unable to download artifact(s): Artifact not found for name: ${w.name}` };
        else cpSync(dir, join(ctx.ws.dir, w.path ?? "."), { recursive: true });
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
        ctx.ws.dir,
        baseEnv(ctx, {
          ...env,
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          GITHUB_REPOSITORY: "acme/wavix-account",
          GITHUB_WORKSPACE: ctx.ws.dir,
          GITHUB_SERVER_URL: "https://github.com",
          GITHUB_RUN_ID: String(runId),
          GITHUB_SHA: "5e1f00d5e1f00d5e1f00d5e1f00d5e1f00d5e1f0",
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

export interface GlJob {
  stage: string;
  rules?: { if?: string; changes?: unknown; when?: string }[];
  script: string[];
  before_script?: string[];
  artifacts?: { paths?: string[]; when?: string };
  environment?: string | { name: string; action?: string };
  resource_group?: string;
  interruptible?: boolean;
  needs?: (string | { job: string })[];
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
export function gitlabVariables(source: string, ctx: RunContext, job?: GlJob): Record<string, string> {
  const v: Record<string, string> = {
    CI_PIPELINE_SOURCE: source,
    CI_DEFAULT_BRANCH: "main",
    CI_PROJECT_DIR: ctx.ws.dir,
    CI_PROJECT_ID: "4242",
    CI_API_V4_URL: "https://gitlab.example/api/v4",
    CI_COMMIT_SHA: "5e1f00d5e1f00d5e1f00d5e1f00d5e1f00d5e1f0",
    CI_JOB_ID: "31337",
    CI_JOB_URL: "https://gitlab.example/acme/wavix-account/-/jobs/31337",
    CI_PIPELINE_URL: "https://gitlab.example/acme/wavix-account/-/pipelines/777",
  };
  if (source === "merge_request_event") {
    v.CI_MERGE_REQUEST_IID = String(ctx.pullRequest ?? 1);
    v.CI_MERGE_REQUEST_SOURCE_PROJECT_ID = ctx.fork ? "6666" : "4242";
    v.CI_MERGE_REQUEST_PROJECT_ID = "4242";
    v.CI_COMMIT_REF_PROTECTED = "false";
  } else {
    v.CI_COMMIT_BRANCH = "main";
    v.CI_COMMIT_REF_PROTECTED = "true";
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

/** Jobs a pipeline from `source` runs, in stage order. */
export function gitlabJobsFor(p: GlPipeline, source: string, ctx: RunContext): string[] {
  return Object.entries(p.jobs)
    .filter(([, j]) => (j.rules ?? [{}]).some((r) => r.when !== "never" && (r.if === undefined || ruleMatches(r.if, gitlabVariables(source, ctx, j)))))
    .sort(([, a], [, b]) => p.stages.indexOf(a.stage) - p.stages.indexOf(b.stage))
    .map(([name]) => name);
}

export async function runGitlabJob(p: GlPipeline, jobName: string, source: string, ctx: RunContext): Promise<JobRun> {
  const job = p.jobs[jobName];
  const vars = gitlabVariables(source, ctx, job);
  const expand = (s: string) => s.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, n: string) => vars[n] ?? "");
  const pipelineVars = Object.fromEntries(Object.entries(p.variables ?? {}).map(([k, v]) => [k, expand(String(v))]));
  const jobVars = Object.fromEntries(Object.entries((job.variables as Record<string, string>) ?? {}).map(([k, v]) => [k, expand(String(v))]));
  const lines = [...(job.before_script ?? p.default?.before_script ?? []), ...job.script];
  const r = await shell(lines.join("\n"), ctx.ws.dir, baseEnv(ctx, { ...vars, ...pipelineVars, ...jobVars }), ["-eo", "pipefail"]);
  const artifacts = (job.artifacts?.paths ?? []).map((path) => ({ path, exists: existsSync(join(ctx.ws.dir, path)) }));
  return { ran: true, steps: [{ name: jobName, ...r }], skipped: [], artifacts, ok: r.code === 0, summary: "", runId: 0 };
}
