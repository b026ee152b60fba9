/**
 * A newcomer's first day, as README.md's "First real task" tells it (issue #36): the task's ```sh
 * blocks run as written, in order, in an empty folder beside the release tarball, against the
 * simulator; then the repository they made is CLONED (what a forge's runner sees: only what was
 * committed, on the branch that was made) and the example pipelines the task copied in run from the
 * clone (test/gitops/ci-runner.ts): the first nightly drift check and audit, a pull request planned
 * and merged, its apply, and a re-run of that apply.
 *
 * What this catches that the other tests do not: a tarball installed from outside the repository
 * (the lockfile then names a path the clone lacks, and `npm ci` fails), a repository whose first
 * branch is not the `main` the pipelines run on, an exported file the scheduled audit cannot run
 * on, and a re-run apply that turns red.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseApiKey } from "../../src/cli/simulator";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT, scratch } from "../helpers/cli";
import { git, NPM_ENV, packPackage, repoAt, type ConsumerRepo, type PackedPackage } from "../helpers/consumer";
import { parseDoc } from "../docs/doc-blocks";
import { passed, READ_SPEC, WRITE_SPEC } from "../gitops/ci-bench";
import { artifactStore, forge, readWorkflow, removeWorkspaces, runGithubJob, type RunContext, type StubRule } from "../gitops/ci-runner";

const READ_KEY = parseApiKey(READ_SPEC).key;
const WRITE_KEY = parseApiKey(WRITE_SPEC).key;

/** The ```sh blocks of README.md's "First real task" section, in order, as the reader types them. */
function firstRealTask(): string[] {
  const text = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const start = text.findIndex((l) => l.startsWith("## First real task")) + 1;
  const end = text.findIndex((l, i) => i >= start && l.startsWith("## "));
  expect(start, "README.md has a First real task section").toBeGreaterThan(0);
  return parseDoc(join(ROOT, "README.md"), "README.md")
    .blocks.filter((b) => b.lang === "sh" && b.skip === undefined && b.line > start && b.line < end)
    .map((b) => b.text);
}

describe("a newcomer's repository, cloned after README's First real task: its pipelines run green from the clone", { timeout: 900_000 }, () => {
  let sim: Simulator;
  let pkg: PackedPackage;
  let repo: ConsumerRepo;
  let task: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    const keys = [READ_SPEC, WRITE_SPEC].map(parseApiKey).map(({ key, restricted }) => ({ key, restricted }));
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: keys, asyncDelayMs: 20 });
    pkg = packPackage();
    // The folder the newcomer works in, the release tarball beside it (where the task takes it from).
    const home = scratch();
    copyFileSync(pkg.tarball, join(home, pkg.fileName));
    const script = firstRealTask().map((t) => t.replaceAll("<your-api-key>", WRITE_KEY)).join("\n");
    // Asynchronous: the simulator answers from this process.
    const child = spawn("bash", ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LANG: "C.UTF-8",
        TERM: "dumb",
        // No global git configuration: `git init` makes whatever branch git makes by default.
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: "Acme Ops",
        GIT_AUTHOR_EMAIL: "ops@acme.example",
        GIT_COMMITTER_NAME: "Acme Ops",
        GIT_COMMITTER_EMAIL: "ops@acme.example",
        WAVIX_BASE_URL: sim.url,
        ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
        ...NPM_ENV,
      },
    });
    task = { code: -1, stdout: "", stderr: "" };
    child.stdout.on("data", (d: Buffer) => (task.stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (task.stderr += d.toString()));
    task.code = await new Promise<number>((done) => child.on("close", (code) => done(code ?? -1)));
    if (task.code !== 0) return;
    // The forge's copy: a clone holds only what was committed, on the branches that were made.
    const clone = join(scratch(), "acme-wavix");
    git(home, "clone", "-q", "--no-hardlinks", join(home, "acme-wavix"), clone);
    repo = repoAt(clone, pkg);
  }, 600_000);
  afterAll(async () => {
    await sim?.close();
    removeWorkspaces();
  });

  const ctx = (more: Partial<RunContext> = {}): RunContext => ({
    repo,
    forge: f,
    baseUrl: sim.url,
    secrets: { repository: { WAVIX_READ_KEY: READ_KEY }, environments: { wavix: { WAVIX_WRITE_KEY: WRITE_KEY } } },
    pullRequest: 7,
    store,
    ...more,
  });
  const f = forge();
  const store = artifactStore();
  const workflow = (name: string) => readWorkflow(join(repo.dir, ".github", "workflows", name));
  const writes = () => sim.log.filter((e) => e.method !== "GET" && e.status < 400).length;

  it("the First real task runs as written; the clone is on main, holds the tarball its lockfile names, and the pipelines", () => {
    expect(task.code, `${task.stdout}\n${task.stderr}`).toBe(0);
    expect(git(repo.dir, "branch", "--show-current").trim()).toBe("main");
    const lock = JSON.parse(readFileSync(join(repo.dir, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string }> };
    expect(lock.packages["node_modules/wavix-sync"].resolved).toBe(`file:vendor/${pkg.fileName}`);
    expect(readdirSync(join(repo.dir, "vendor"))).toEqual([pkg.fileName]);
    expect(readdirSync(join(repo.dir, ".github", "workflows")).sort()).toEqual(["wavix-apply.yml", "wavix-plan.yml", "wavix-scheduled.yml"]);
    expect(readFileSync(join(repo.dir, "wavix.yaml"), "utf8")).toMatch(/^audit:\n {2}ten_dlc:\n {4}brands: all\n/m);
  });

  it("the first nightly run from the clone: no drift, and the audit of the exported file is green", async () => {
    expect(task.code).toBe(0);
    const scheduled = workflow("wavix-scheduled.yml");
    const drift = passed(await runGithubJob(scheduled, "drift", ctx()));
    expect(readFileSync(join(drift.dir, "drift.exitcode"), "utf8").trim()).toBe("0");
    const audit = passed(await runGithubJob(scheduled, "audit", ctx()));
    const [day] = readdirSync(join(audit.dir, "audit-report"));
    const report = JSON.parse(readFileSync(join(audit.dir, "audit-report", day, "audit.json"), "utf8")) as { findings: { severity: string }[] };
    expect(report.findings.filter((x) => x.severity === "error")).toEqual([]);
    f.takeCalls();
  });

  it("a pull request from the clone is planned, merged and applied; a re-run of the apply says already applied, green", async () => {
    expect(task.code).toBe(0);
    const yaml = readFileSync(join(repo.dir, "wavix.yaml"), "utf8");
    // The task pointed the post-call webhook at hooks.acme.example; the pull request moves it on.
    expect(yaml).toContain("  post-call: https://hooks.acme.example/post-call\n");
    const head = repo.commit("post-call-v2", { "wavix.yaml": yaml.replace("/post-call\n", "/post-call-v2\n") }, "Post-call webhook: v2");
    const plan = passed(await runGithubJob(workflow("wavix-plan.yml"), "plan", ctx({ branch: "post-call-v2" })));
    expect(readFileSync(join(plan.dir, "plan.md"), "utf8")).toContain("post-call-v2");
    const merge = repo.merge("post-call-v2");
    // The forge's answers: pull request 7 merged as this commit, its plan run, and the bot's plan
    // comment the reviewers saw (the apply takes the plan's digest from it).
    const rules: StubRule[] = [
      { cmd: "gh", match: `commits/${merge}/pulls --jq`, stdout: `7 ${head}\n` },
      { cmd: "gh", match: `actions/workflows/wavix-plan.yml/runs?head_sha=${head}&status=success`, stdout: `${plan.runId}\n` },
      { cmd: "gh", match: "issues/7/comments --paginate --jq", stdout: `${readFileSync(join(plan.dir, "plan.md"), "utf8")}\n` },
    ];
    const before = writes();
    const apply = passed(await runGithubJob(workflow("wavix-apply.yml"), "apply", ctx({ rules })));
    expect(apply.summary).toContain("**Apply complete:** 0 created, 1 updated, 0 deleted.");
    const applied = writes();
    expect(applied).toBeGreaterThan(before);
    // The same run again (a re-run in the forge's UI): nothing written, and green.
    const again = passed(await runGithubJob(workflow("wavix-apply.yml"), "apply", ctx({ rules })));
    expect(again.steps.map((s) => s.stdout).join("")).toContain("Already applied");
    expect(writes()).toBe(applied);
    const drift = passed(await runGithubJob(workflow("wavix-scheduled.yml"), "drift", ctx()));
    expect(readFileSync(join(drift.dir, "drift.exitcode"), "utf8").trim()).toBe("0");
  });
});
