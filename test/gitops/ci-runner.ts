/**
 * A stand-in for the GitHub Actions and GitLab CI runners, enough to run the example pipelines in
 * examples/ci/ for real against the simulator.
 *
 * Faithful to: the files as the forges parse them (the `yaml` package); each `run:` step as
 * `bash --noprofile --norc -eo pipefail` in the checkout (GitHub's default shell), a GitLab job's
 * `before_script` + `script` lines as one `bash -eo pipefail` session (variables carry between
 * lines); `env:` merged workflow → job → step; `$GITHUB_OUTPUT` and `$GITHUB_STEP_SUMMARY` files;
 * a failed step skipping the rest except `if: always()`; GitLab `rules:` of the `$A == "x" && ...`
 * form; `artifacts:`/`upload-artifact` paths checked to exist after the job.
 *
 * Leaves out: `uses:` actions (checkout, setup-node, upload-artifact are recorded, not run; the
 * workspace is already checked out with wavix-sync installed), expressions other than the few listed
 * in EXPRESSIONS (any other is an error, so a new one is noticed), containers, caches, matrices.
 * The forge itself is a stub on PATH: `gh`, `curl` and `npm ci` record their arguments (and the
 * files they upload) in a log and answer from a table the test gives.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
fs.appendFileSync(process.env.STUB_LOG, JSON.stringify({ cmd, args, files }) + "\\n");
if (cmd === "npm") {
  if (args[0] === "ci") process.exit(0);
  process.stderr.write("npm stub: only 'npm ci' is expected in the examples, got: npm " + args.join(" ") + "\\n");
  process.exit(97);
}
const rules = JSON.parse(process.env.STUB_RULES || "[]");
const joined = args.join(" ");
const rule = rules.find((r) => r.cmd === cmd && joined.includes(r.match));
if (rule) process.stdout.write(rule.stdout);
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
  steps: StepRun[];
  /** Steps not run (an earlier step failed and they are not `if: always()`). */
  skipped: string[];
  /** The artifact paths the job declares, and whether each existed after the job. */
  artifacts: { path: string; exists: boolean }[];
  ok: boolean;
  /** The GitHub step summary written by the job. */
  summary: string;
}

export interface RunContext {
  ws: Workspace;
  /** The simulator's URL and key (the secret store's `WAVIX_API_KEY`). */
  baseUrl: string;
  apiKey: string;
  rules?: StubRule[];
  /** GitHub: the pull request number; GitLab: the merge request IID. */
  pullRequest?: number;
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

/** The environment every job gets: stubs first on PATH, the simulator as the API, no network for npm. */
function baseEnv(ctx: RunContext, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: `${join(ctx.ws.dir, ".stubs")}:${process.env.PATH}`,
    HOME: process.env.HOME,
    CI: "true",
    WAVIX_BASE_URL: ctx.baseUrl,
    STUB_LOG: ctx.ws.stubLog,
    STUB_RULES: JSON.stringify(ctx.rules ?? []),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    ...extra,
  };
  return env;
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions

interface GhStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

interface GhJob {
  env?: Record<string, string>;
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

/** The only expressions the examples may use; anything else fails the run so it gets looked at. */
function expressions(ctx: RunContext): Record<string, string> {
  return {
    "secrets.WAVIX_API_KEY": ctx.apiKey,
    "github.token": "ghs_stub_token",
    "github.event.pull_request.number": String(ctx.pullRequest ?? ""),
    "always()": "true",
  };
}

function evaluate(text: string, ctx: RunContext): string {
  const table = expressions(ctx);
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in table)) throw new Error(`unsupported expression \${{ ${expr} }} (add it to ci-runner.ts on purpose)`);
    return table[expr];
  });
}

/** Run one job of a workflow, step by step, as the runner would. */
export async function runGithubJob(wf: GhWorkflow, jobName: string, ctx: RunContext): Promise<JobRun> {
  const job = wf.jobs[jobName];
  const tmp = join(ctx.ws.dir, ".runner");
  mkdirSync(tmp, { recursive: true });
  const summaryFile = join(tmp, `summary-${jobName}`);
  writeFileSync(summaryFile, "");
  const out: JobRun = { steps: [], skipped: [], artifacts: [], ok: true, summary: "" };
  for (const [i, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${i + 1}`;
    const condition = step.if === undefined ? "success()" : evaluate(step.if, ctx).trim();
    if (condition !== "success()" && condition !== "true") throw new Error(`unsupported if: ${step.if}`);
    if (condition === "success()" && !out.ok) {
      out.skipped.push(name);
      continue;
    }
    if (step.uses !== undefined) {
      if (step.uses.startsWith("actions/upload-artifact@")) {
        const path = String(step.with?.path ?? "");
        out.artifacts.push({ path, exists: existsSync(join(ctx.ws.dir, path)) });
      }
      out.steps.push({ name, code: 0, stdout: "", stderr: "" });
      continue;
    }
    if (step.run === undefined) throw new Error(`step "${name}" has neither uses nor run`);
    if (step.run.includes("${{")) throw new Error(`step "${name}": an expression inside run: is a script-injection risk; pass it through env:`);
    const outputFile = join(tmp, `output-${jobName}-${i}`);
    writeFileSync(outputFile, "");
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...wf.env, ...job.env, ...step.env })) env[k] = evaluate(String(v), ctx);
    const r = await shell(
      step.run,
      ctx.ws.dir,
      baseEnv(ctx, {
        ...env,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_REPOSITORY: "acme/wavix-account",
        GITHUB_WORKSPACE: ctx.ws.dir,
      }),
      ["--noprofile", "--norc", "-eo", "pipefail"],
    );
    out.steps.push({ name, ...r });
    if (r.code !== 0) out.ok = false;
  }
  out.summary = readFileSync(summaryFile, "utf8");
  return out;
}

// ---------------------------------------------------------------------------------------------
// GitLab CI

const GITLAB_RESERVED = new Set(["stages", "default", "variables", "workflow", "include", "image", "services", "before_script", "after_script", "cache"]);

export interface GlJob {
  stage: string;
  rules?: { if?: string; changes?: unknown }[];
  script: string[];
  before_script?: string[];
  artifacts?: { paths?: string[]; when?: string };
  resource_group?: string;
  interruptible?: boolean;
  [key: string]: unknown;
}

export interface GlPipeline {
  stages: string[];
  default?: { before_script?: string[] };
  variables?: Record<string, string>;
  jobs: Record<string, GlJob>;
}

export function readGitlab(file: string): GlPipeline {
  const doc = parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const jobs: Record<string, GlJob> = {};
  for (const [k, v] of Object.entries(doc)) if (!GITLAB_RESERVED.has(k) && !k.startsWith(".")) jobs[k] = v as GlJob;
  return { stages: doc.stages as string[], default: doc.default as GlPipeline["default"], variables: doc.variables as Record<string, string>, jobs };
}

/** The predefined variables of a pipeline started by `source` ("merge_request_event", "push", "schedule"). */
export function gitlabVariables(source: string, ctx: RunContext): Record<string, string> {
  const v: Record<string, string> = {
    CI_PIPELINE_SOURCE: source,
    CI_DEFAULT_BRANCH: "main",
    CI_PROJECT_DIR: ctx.ws.dir,
    CI_PROJECT_ID: "4242",
    CI_API_V4_URL: "https://gitlab.example/api/v4",
    WAVIX_API_KEY: ctx.apiKey,
    WAVIX_BOT_TOKEN: "glpat-stub-token",
  };
  if (source === "merge_request_event") v.CI_MERGE_REQUEST_IID = String(ctx.pullRequest ?? 1);
  else v.CI_COMMIT_BRANCH = "main";
  return v;
}

/** `rules: - if:` of the forms `$A == "x"`, `$A == $B`, joined by `&&` (an unset variable is null). */
export function ruleMatches(expr: string, vars: Record<string, string>): boolean {
  return expr.split("&&").every((part) => {
    const m = /^\s*(\S+)\s*(==|!=)\s*(\S+)\s*$/.exec(part);
    if (!m) throw new Error(`unsupported rule: ${expr}`);
    const value = (t: string) => (t.startsWith("$") ? (vars[t.slice(1)] ?? null) : t.replace(/^"(.*)"$/, "$1"));
    return (value(m[1]) === value(m[3])) === (m[2] === "==");
  });
}

/** Jobs a pipeline from `source` runs, in stage order. */
export function gitlabJobsFor(p: GlPipeline, source: string, ctx: RunContext): string[] {
  const vars = gitlabVariables(source, ctx);
  return Object.entries(p.jobs)
    .filter(([, j]) => (j.rules ?? [{}]).some((r) => r.if === undefined || ruleMatches(r.if, vars)))
    .sort(([, a], [, b]) => p.stages.indexOf(a.stage) - p.stages.indexOf(b.stage))
    .map(([name]) => name);
}

export async function runGitlabJob(p: GlPipeline, jobName: string, source: string, ctx: RunContext): Promise<JobRun> {
  const job = p.jobs[jobName];
  const vars = gitlabVariables(source, ctx);
  const expand = (s: string) => s.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, n: string) => vars[n] ?? "");
  const pipelineVars = Object.fromEntries(Object.entries(p.variables ?? {}).map(([k, v]) => [k, expand(String(v))]));
  const lines = [...(job.before_script ?? p.default?.before_script ?? []), ...job.script];
  const r = await shell(lines.join("\n"), ctx.ws.dir, baseEnv(ctx, { ...vars, ...pipelineVars }), ["-eo", "pipefail"]);
  const artifacts = (job.artifacts?.paths ?? []).map((path) => ({ path, exists: existsSync(join(ctx.ws.dir, path)) }));
  return { steps: [{ name: jobName, ...r }], skipped: [], artifacts, ok: r.code === 0, summary: "" };
}
