/**
 * The example pipelines in examples/ci/ (GitHub Actions and GitLab CI) parse, hand each secret only to
 * the steps (GitHub) or jobs (GitLab) that need it, and every shell command of every step runs for
 * real against the simulator, with the forge (gh, curl) and `npm` stubbed on PATH
 * (test/gitops/ci-runner.ts). So the examples cannot rot: a renamed flag or a changed exit code fails
 * here, failure paths included.
 *
 * Saved plans (`plan --save FILE`, `apply --plan FILE`) come from another branch: until this CLI has
 * them, the runs that need a saved plan to succeed are skipped (saying so), and the failure paths
 * are checked as they are today (the plan step fails on the unknown flag, the comment says the plan
 * failed).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WavixClient } from "../../src/client";
import { APPLY_MARKER, PLAN_MARKER } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";
import { SCOPES } from "../../src/simulator/types";
import { ROOT } from "../helpers/cli";
import {
  artifactStore,
  gitlabEnvironment,
  gitlabJobsFor,
  gitlabVariables,
  readGitlab,
  readWorkflow,
  runGithubJob,
  runGitlabJob,
  workspace,
  type ArtifactStore,
  type GhWorkflow,
  type JobRun,
  type RunContext,
  type StubCall,
  type StubRule,
  type Workspace,
} from "./ci-runner";

const GITHUB = join(ROOT, "examples", "ci", "github");
const GITLAB_FILE = join(ROOT, "examples", "ci", "gitlab", ".gitlab-ci.yml");
const READ_KEY = "gitops-read-key-c0ffee01";
const WRITE_KEY = "gitops-write-key-c0ffee02";
const NOTE_TOKEN = "glpat-note-stub-token";
const BOT_TOKEN = "glpat-bot-stub-token";
const EXAMPLE = readFileSync(join(ROOT, "examples", "wavix.yaml"), "utf8");

const help = (cmd: string) => execFileSync(process.execPath, [join(ROOT, "bin", "wavix-sync.js"), cmd, "--help"]).toString();
/** Whether this CLI has saved plans yet (`plan --save`, `apply --plan`). */
const SAVED = /--save\b/.test(help("plan")) && /--plan\b/.test(help("apply"));
const WHY = SAVED ? "" : " (skipped: needs saved plans, plan --save and apply --plan, not in this CLI yet; runs once they are merged)";

let sim: Simulator;
let ws: Workspace;
let store: ArtifactStore;
beforeEach(async () => {
  const readOnly = Object.fromEntries(SCOPES.map((s) => [s, "read" as const]));
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: READ_KEY, restricted: readOnly }, { key: WRITE_KEY }], asyncDelayMs: 20 });
  ws = workspace(EXAMPLE);
  store = artifactStore();
});
afterEach(async () => {
  await sim.close();
});

function ctx(rules: StubRule[] = [], more: Partial<RunContext> = {}): RunContext {
  return {
    ws,
    baseUrl: sim.url,
    secrets: { repository: { WAVIX_READ_KEY: READ_KEY }, environments: { wavix: { WAVIX_WRITE_KEY: WRITE_KEY } } },
    variables: {
      WAVIX_READ_KEY: { value: READ_KEY, environment: "wavix-read" },
      WAVIX_WRITE_KEY: { value: WRITE_KEY, protected: true, environment: "wavix" },
      WAVIX_NOTE_TOKEN: { value: NOTE_TOKEN, environment: "wavix-note" },
      WAVIX_BOT_TOKEN: { value: BOT_TOKEN, protected: true, environment: "wavix-bot" },
    },
    rules,
    pullRequest: 7,
    store,
    ...more,
  };
}

/** A job run that must have passed, with its output shown when it did not. */
function passed(run: JobRun): JobRun {
  const failed = run.steps.filter((s) => s.code !== 0);
  expect(failed.map((s) => `${s.name} (exit ${s.code})\n${s.stdout}\n${s.stderr}`)).toEqual([]);
  return run;
}

/** The calls of the stubs; npm never ran with a secret in its environment. */
function calls(): StubCall[] {
  const all = ws.takeCalls();
  for (const c of all.filter((c) => c.cmd === "npm")) expect(c.secretsSeen, `npm ${c.args.join(" ")}`).toEqual([]);
  return all;
}

/** Someone changes the account outside the pipeline (over the API, as a person would). */
async function drift(): Promise<void> {
  await new WavixClient({ apiKey: WRITE_KEY, baseUrl: sim.url }).upsertCallWebhook("on-call", "https://elsewhere.example/on-call");
}

/** The account brought in line with the file by hand (the CLI, with the write key; asynchronously, the simulator shares the process). */
async function applyNow(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, "bin", "wavix-sync.js"), "apply", "-f", join(ws.dir, "wavix.yaml"), "--auto-approve"], {
    env: { ...process.env, WAVIX_API_KEY: WRITE_KEY, WAVIX_BASE_URL: sim.url },
  });
}

const writes = () => sim.log.filter((e) => e.method !== "GET");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const workflows = (): [string, GhWorkflow][] =>
  readdirSync(GITHUB)
    .filter((f) => f.endsWith(".yml"))
    .sort()
    .map((f) => [f, readWorkflow(join(GITHUB, f))]);
const wf = (file: string) => Object.fromEntries(workflows())[file];

// Each job runs several CLI commands through npx; generous on a loaded machine (no timing is asserted).
const JOBS = { timeout: 240_000 };

/** The gh answers that lead the apply job from the merge commit to the plan run `runId`. */
const reviewedRun = (runId: number): StubRule[] => [
  { cmd: "gh", match: "/pulls --jq", stdout: "feedc0de\n" },
  { cmd: "gh", match: "actions/workflows/wavix-plan.yml/runs?head_sha=feedc0de&status=success", stdout: `${runId}\n` },
];

describe("GitHub Actions examples", JOBS, () => {
  it("pin actions by commit, run Node 24 with timeouts and least permissions, and hand each key only to the steps that use it", () => {
    const all = workflows();
    expect(all.map(([f]) => f)).toEqual(["wavix-apply.yml", "wavix-plan.yml", "wavix-scheduled.yml"]);
    for (const [file, w] of all) {
      const text = readFileSync(join(GITHUB, file), "utf8");
      for (const m of text.matchAll(/uses: (\S+)(.*)$/gm)) expect(`${m[1]}${m[2]}`, file).toMatch(/^actions\/[\w-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      expect(text, file).not.toMatch(/--api-key|WAVIX_BASE_URL|WAVIX_API_KEY: \$\{\{ secrets\.WAVIX_API_KEY/);
      expect(w.permissions, file).toEqual({});
      expect(w.env, file).toBeUndefined();
      for (const [name, job] of Object.entries(w.jobs)) {
        expect(job["timeout-minutes"], `${file} ${name}`).toBeGreaterThan(0);
        expect(job.env, `${file} ${name}: no job-wide env (secrets go on steps)`).toBeUndefined();
        for (const step of job.steps) {
          if (step.run) expect(step.run, `${file}: ${step.name}`).not.toContain("${{");
          if (step.uses?.startsWith("actions/setup-node@")) expect(step.with?.["node-version"]).toBe(24);
          if (step.uses?.startsWith("actions/checkout@")) expect(step.with?.["persist-credentials"]).toBe(false);
          if (step.name === "Install") expect(step.run).toBe("npm ci --ignore-scripts --no-audit --no-fund");
          const secrets: string[] = Object.values(step.env ?? {}).join(" ").match(/secrets\.\w+/g) ?? [];
          // Only the steps that talk to Wavix hold a key, and only the write key applies.
          if (secrets.length > 0) expect(step.run, `${file}: ${step.name}`).toMatch(/npx wavix-sync (plan|apply|audit)/);
          if (secrets.includes("secrets.WAVIX_WRITE_KEY")) expect([file, name, step.name, job.environment]).toEqual(["wavix-apply.yml", "apply", "Apply", "wavix"]);
        }
      }
    }
    const apply = wf("wavix-apply.yml");
    expect(apply.on).toMatchObject({ push: { branches: ["main"] }, workflow_dispatch: { inputs: { plan_run_id: { required: true } } } });
    expect(apply.concurrency).toEqual({ group: "wavix-apply", "cancel-in-progress": false });
    expect(apply.jobs.apply.if).toBe("github.ref == 'refs/heads/main'");
    expect(apply.jobs.apply.permissions).toEqual({ contents: "read", actions: "read", "pull-requests": "read" });
    const plan = wf("wavix-plan.yml");
    expect(Object.keys(plan.on)).toEqual(["pull_request"]);
    expect(plan.jobs.plan.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(plan.jobs.fork.permissions).toEqual({});
    const scheduled = wf("wavix-scheduled.yml");
    expect(Object.keys(scheduled.jobs)).toEqual(["drift", "audit"]);
    expect(scheduled.jobs.drift.permissions).toEqual({ contents: "read", issues: "write" });
    expect(scheduled.jobs.audit.permissions).toEqual({ contents: "read" });
  });

  it("pull request from a fork: not planned, and the run says so", async () => {
    const plan = wf("wavix-plan.yml");
    const c = ctx([], { fork: true });
    expect((await runGithubJob(plan, "plan", c)).ran).toBe(false);
    const fork = passed(await runGithubJob(plan, "fork", c));
    expect(fork.summary).toContain("Not planned: this pull request comes from a fork");
    expect(fork.steps[0].stdout).toContain("::notice::Not planned");
    expect((await runGithubJob(plan, "fork", ctx())).ran).toBe(false);
    expect(sim.log).toEqual([]);
  });

  it("pull request with an invalid file: no plan, and the comment is replaced by one saying so, with the error", async () => {
    ws = workspace(EXAMPLE.replace("numbers:", "numbers:\n  - bogus: 1"));
    const run = await runGithubJob(wf("wavix-plan.yml"), "plan", ctx([{ cmd: "gh", match: "issues/7/comments --paginate", stdout: "987654\n" }]));
    expect(run.ok).toBe(false);
    expect(run.steps.find((s) => s.name === "Validate")!.code).toBe(1);
    expect(run.skipped).toEqual(["Plan", "Fail on plan errors"]);
    const patch = calls().find((c) => c.args.includes("PATCH"))!;
    expect(patch.args[3]).toBe("repos/acme/wavix-account/issues/comments/987654");
    const body = patch.files["body=@comment.md"];
    expect(body.startsWith(`${PLAN_MARKER}\n### wavix-sync plan failed for wavix.yaml\n`)).toBe(true);
    expect(body).toMatch(/^ {4}wavix\.yaml:\d+:\d+: /m);
    expect(body).toContain(`https://github.com/acme/wavix-account/actions/runs/${run.runId}`);
    expect(sim.log).toEqual([]);
  });

  it("pull request whose plan fails: the comment still goes up (a failed report, never the old plan), then the job fails", async () => {
    ws = workspace(EXAMPLE.replace('"15551230003"', '"15559990000"'));
    const run = await runGithubJob(wf("wavix-plan.yml"), "plan", ctx());
    expect(run.ok).toBe(false);
    expect(run.steps.map((s) => [s.name, s.code]).slice(-3)).toEqual([
      ["Replace the plan comment", 0],
      ["actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", 0],
      ["Fail on plan errors", 1],
    ]);
    const post = calls().find((c) => c.args.includes("POST"))!;
    const body = post.files["body=@comment.md"];
    expect(body.startsWith(PLAN_MARKER + "\n")).toBe(true);
    // With saved plans the report names the number the account lacks; today the unknown --save is the error.
    expect(body).toContain(SAVED ? "15559990000" : "unknown option '--save'");
    expect(writes()).toEqual([]);
  });

  it.skipIf(!SAVED)(`pull request: plan with the read key, comment, save the plan; the next push replaces the comment${WHY}`, async () => {
    const plan = wf("wavix-plan.yml");
    const first = passed(await runGithubJob(plan, "plan", ctx()));
    const md = readFileSync(join(ws.dir, "plan.md"), "utf8");
    expect(md.startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(first.steps.find((s) => s.name === "Plan")!.stderr + first.steps.find((s) => s.name === "Plan")!.stdout).toContain("wavix-sync will perform the following actions:");
    expect(first.artifacts.filter((a) => a.exists).map((a) => a.path)).toEqual(["plan.md", "wavix.plan", "wavix.yaml.sha256"]);
    let c = calls();
    expect(c.map((x) => [x.cmd, ...x.args.slice(0, 3)])).toEqual([
      ["npm", "ci", "--ignore-scripts", "--no-audit"],
      ["npm", "run", "build", "--if-present"],
      ["gh", "api", "repos/acme/wavix-account/issues/7/comments", "--paginate"],
      ["gh", "api", "--method", "POST"],
    ]);
    expect(c[3].files["body=@comment.md"]).toBe(md);
    passed(await runGithubJob(plan, "plan", ctx([{ cmd: "gh", match: "issues/7/comments --paginate", stdout: "987654\n" }])));
    c = calls();
    expect(c[3].args.slice(0, 4)).toEqual(["api", "--method", "PATCH", "repos/acme/wavix-account/issues/comments/987654"]);
    expect(c[3].files["body=@comment.md"]).toBe(md);
    expect(writes()).toEqual([]);
  });

  it.skipIf(!SAVED)(`merge: apply exactly the reviewed plan with the write key; the next plan is clean${WHY}`, async () => {
    const planRun = passed(await runGithubJob(wf("wavix-plan.yml"), "plan", ctx()));
    calls();
    const run = passed(await runGithubJob(wf("wavix-apply.yml"), "apply", ctx(reviewedRun(planRun.runId))));
    expect(run.skipped).toEqual(["Re-plan (nothing more applied)", "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f"]);
    expect(run.summary).toContain(`Applying the plan reviewed in run ${planRun.runId} (wavix.yaml sha256 ${sha256(EXAMPLE)})`);
    expect(run.summary).toContain(APPLY_MARKER + "\n");
    expect(run.summary).toContain("**Apply complete:** 2 created, 3 updated, 0 deleted.");
    expect(writes().length).toBeGreaterThan(0);
    passed(await runGithubJob(wf("wavix-plan.yml"), "plan", ctx()));
    expect(readFileSync(join(ws.dir, "plan.md"), "utf8")).toContain("**No changes.**");
  });

  it.skipIf(!SAVED)(`merge after the account changed: apply refuses the stale plan, the job re-plans and says so${WHY}`, async () => {
    const planRun = passed(await runGithubJob(wf("wavix-plan.yml"), "plan", ctx()));
    await drift();
    const before = writes().length;
    const run = await runGithubJob(wf("wavix-apply.yml"), "apply", ctx(reviewedRun(planRun.runId)));
    expect(run.ok).toBe(false);
    expect(run.steps.find((s) => s.name === "Apply")!.code).toBe(1);
    expect(writes().length).toBe(before);
    expect(run.summary).toContain("**Not applied: apply refused or failed");
    expect(run.summary).toContain(`with plan_run_id ${run.runId}`);
    expect(run.summary).toContain(PLAN_MARKER);
  });

  it("merge when main's wavix.yaml is not the reviewed one: nothing applied, the job re-plans and says so", async () => {
    // The reviewed run planned another file (another merge changed wavix.yaml since).
    const reviewed = 4242;
    const dir = join(store.root, "reviewed-by-hand");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "wavix.plan"), "{}\n");
    writeFileSync(join(dir, "wavix.yaml.sha256"), `${sha256("version: 1\n")}  wavix.yaml\n`);
    store.runs.set(reviewed, new Map([["wavix-plan", dir]]));
    const run = await runGithubJob(wf("wavix-apply.yml"), "apply", ctx(reviewedRun(reviewed)));
    expect(run.ok).toBe(false);
    expect(run.skipped).toContain("Apply");
    expect(run.summary).toContain(`**Not applied: main's wavix.yaml is not the file planned in run ${reviewed} (another change was merged since).**`);
    expect(run.summary).toContain(SAVED ? PLAN_MARKER : "The re-plan failed too");
    expect(run.steps.find((s) => s.name === "Re-plan (nothing more applied)")!.stdout).toContain("::error::Not applied");
    expect(writes()).toEqual([]);
    // The re-plan is this run's wavix-plan artifact, for a run by hand once reviewed.
    if (SAVED) expect(store.runs.get(run.runId)?.has("wavix-plan")).toBe(true);
    expect(calls().filter((c) => c.cmd === "gh").map((c) => c.args[1])).toEqual([
      "repos/acme/wavix-account/commits/5e1f00d5e1f00d5e1f00d5e1f00d5e1f00d5e1f0/pulls",
      "repos/acme/wavix-account/actions/workflows/wavix-plan.yml/runs?head_sha=feedc0de&status=success&per_page=1",
    ]);
  });

  it("merge with no plan run found, or a run by hand from another branch or with a bad id: nothing applied", async () => {
    const apply = wf("wavix-apply.yml");
    const none = await runGithubJob(apply, "apply", ctx());
    expect(none.ok).toBe(false);
    expect(none.skipped).toEqual(expect.arrayContaining(["actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "Apply"]));
    expect(none.summary).toContain("**Not applied: no successful wavix plan run was found for the pull request merged as this commit.**");
    // A run id without its artifact (expired, or the plan failed before saving).
    const gone = await runGithubJob(apply, "apply", ctx([], { inputs: { plan_run_id: "99" } }));
    expect(gone.steps.find((s) => s.name.startsWith("actions/download-artifact@"))!.code).toBe(1);
    expect(gone.summary).toContain("**Not applied: run 99 has no saved plan.**");
    expect((await runGithubJob(apply, "apply", ctx([], { ref: "refs/heads/feature", inputs: { plan_run_id: "1" } }))).ran).toBe(false);
    const bad = await runGithubJob(apply, "apply", ctx([], { inputs: { plan_run_id: "1; rm -rf ~" } }));
    expect(bad.steps.find((s) => s.name === "Find the reviewed plan")!.stdout).toContain("::error::plan_run_id must be a run id");
    expect(writes()).toEqual([]);
    calls();
  });

  it("schedule: drift (read key) opens one issue, updates it while drift lasts, closes it once the account matches", async () => {
    const scheduled = wf("wavix-scheduled.yml");
    const names = (c: StubCall[]) => c.filter((x) => x.cmd === "gh").map((x) => `${x.args.slice(0, 2).join(" ")}`);
    await applyNow();
    passed(await runGithubJob(scheduled, "drift", ctx()));
    expect(names(calls())).toEqual(["issue list"]);
    await drift();
    passed(await runGithubJob(scheduled, "drift", ctx()));
    let c = calls();
    expect(names(c)).toEqual(["issue list", "label create", "issue create"]);
    const created = c.find((x) => x.args[1] === "create" && x.args[0] === "issue")!;
    const body = created.files["--body-file"];
    expect(body.startsWith(PLAN_MARKER)).toBe(true);
    expect(body).toContain("https://elsewhere.example/on-call");
    // The issue step holds the GitHub token, not the Wavix key.
    expect(created.secretsSeen).toEqual(["GH_TOKEN"]);
    const existing: StubRule[] = [{ cmd: "gh", match: "issue list", stdout: "12\n" }];
    passed(await runGithubJob(scheduled, "drift", ctx(existing)));
    c = calls();
    expect(c.filter((x) => x.cmd === "gh").map((x) => x.args.slice(0, 3).join(" "))).toEqual(["issue list --repo", "issue edit 12"]);
    await applyNow();
    passed(await runGithubJob(scheduled, "drift", ctx(existing)));
    c = calls();
    expect(c.filter((x) => x.cmd === "gh").map((x) => x.args.slice(0, 3).join(" "))).toEqual(["issue list --repo", "issue close 12"]);
  });

  it("schedule: the audit (read key) audits the last full UTC day, keeps its reports by date, and fails the job on an error finding (reports still uploaded)", async () => {
    const scheduled = wf("wavix-scheduled.yml");
    const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = yesterday();
    const ok = passed(await runGithubJob(scheduled, "audit", ctx()));
    const day = readdirSync(join(ws.dir, "audit-report"))[0];
    expect([before, yesterday()]).toContain(day);
    expect(ok.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(store.runs.get(ok.runId)?.has(`wavix-audit-${day}`)).toBe(true);
    expect(readdirSync(join(ws.dir, "audit-report", day)).sort()).toEqual([
      "audit.html",
      "audit.json",
      "audit.md",
      "brands.csv",
      "daily.csv",
      "events.csv",
      "findings.csv",
      "report.csv",
      "services.csv",
      "sessions.csv",
      "vettings.csv",
    ]);
    const report = JSON.parse(readFileSync(join(ws.dir, "audit-report", day, "audit.json"), "utf8")) as { period: unknown; asked: { window: string } };
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(report.period).toEqual({ from: `${day}T00:00:00Z`, to: `${next}T00:00:00Z` });
    expect(report.asked.window).toBe("last 1d");
    // Run by hand with another period.
    const week = passed(await runGithubJob(scheduled, "audit", ctx([], { inputs: { audit_last: "7d" } })));
    expect(week.steps[4].code).toBe(0);
    const weekly = JSON.parse(readFileSync(join(ws.dir, "audit-report", day, "audit.json"), "utf8")) as { period: { from: string }; asked: { window: string } };
    expect(weekly.asked.window).toBe("last 7d");
    expect(weekly.period.from).toBe(`${new Date(Date.parse(`${next}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
    ws = workspace(EXAMPLE.replace("min_vetting_score: 75", "min_vetting_score: 90"));
    const failing = await runGithubJob(scheduled, "audit", ctx());
    expect(failing.steps.map((s) => [s.name, s.code])).toEqual([
      ["actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1", 0],
      ["actions/setup-node@820762786026740c76f36085b0efc47a31fe5020", 0],
      ["Install", 0],
      ["Build", 0],
      ["Audit", 2],
      ["actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", 0],
    ]);
    expect(failing.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(failing.steps[4].stderr).toContain("audit: 1 error finding(s)");
    calls();
  });
});

/** jq, when installed, stands in for `gh --jq` (gh embeds gojq; these filters mean the same in both). */
const JQ = ["/usr/bin/jq", "/usr/local/bin/jq"].find((p) => existsSync(p));

describe("GitHub Actions examples: the gh --jq filters", () => {
  const filters = () =>
    ["wavix-plan.yml", "wavix-apply.yml", "wavix-scheduled.yml"].flatMap((f) => [...readFileSync(join(GITHUB, f), "utf8").matchAll(/--jq '([^']+)'/g)].map((m) => m[1]));
  const jq = (filter: string, input: unknown) => execFileSync(JQ!, ["-r", filter], { input: JSON.stringify(input) }).toString();

  it.skipIf(!JQ)("pick only the bot's own plan comment, the merged pull request's head, its plan run, the open drift issue (needs jq; skipped without it)", () => {
    const [comment, head, run, issue] = filters();
    const comments = [
      { id: 1, user: { login: "alice" }, body: "Looks good" },
      { id: 2, user: { login: "mallory" }, body: `${PLAN_MARKER}\nfake plan` },
      { id: 3, user: { login: "github-actions[bot]" }, body: "<!-- another bot -->" },
      { id: 4, user: { login: "github-actions[bot]" }, body: `${PLAN_MARKER}\nplan` },
    ];
    expect(jq(comment, comments)).toBe("4\n");
    expect(jq(comment, comments.slice(0, 3))).toBe("");
    expect(jq(head, [{ merged_at: null, head: { sha: "open1" } }, { merged_at: "2026-01-01T00:00:00Z", head: { sha: "abc" } }])).toBe("abc\n");
    expect(jq(head, [{ merged_at: null, head: { sha: "open1" } }])).toBe("");
    expect(jq(run, { workflow_runs: [{ id: 77 }] })).toBe("77\n");
    expect(jq(run, { workflow_runs: [] })).toBe("");
    expect(jq(issue, [{ number: 12 }])).toBe("12\n");
    expect(jq(issue, [])).toBe("");
  });
});

describe("GitLab CI example", JOBS, () => {
  const pipeline = () => readGitlab(GITLAB_FILE);
  const API = "https://gitlab.example/api/v4/projects/4242";
  const curlCalls = () => calls().filter((c) => c.cmd === "curl");
  const method = (c: StubCall) => {
    const i = c.args.indexOf("--request");
    return `${i < 0 ? "GET" : c.args[i + 1]} ${c.args[c.args.length - 1]}`;
  };
  const me: StubRule = { cmd: "curl", match: "api/v4/user", stdout: JSON.stringify({ id: 77, username: "project_4242_bot" }) };

  it("runs the right jobs per pipeline source, and hands each secret only to the job that uses it", () => {
    const p = pipeline();
    const text = readFileSync(GITLAB_FILE, "utf8");
    expect(p.variables ?? {}).not.toHaveProperty("WAVIX_API_KEY");
    expect(text).not.toMatch(/WAVIX_(READ|WRITE)_KEY\s*[:=]\s*[^"$]|--api-key/);
    expect(p.default).toMatchObject({ image: "node:24", timeout: "15 minutes" });
    expect(p.default?.before_script?.[0]).toMatch(/^env( -u \w+)+ npm ci --ignore-scripts --no-audit --no-fund$/);
    const c = ctx();
    expect(gitlabJobsFor(p, "merge_request_event", c)).toEqual(["wavix:validate", "wavix:plan", "wavix:note"]);
    expect(gitlabJobsFor(p, "merge_request_event", { ...c, fork: true })).toEqual(["wavix:fork"]);
    expect(gitlabJobsFor(p, "push", c)).toEqual(["wavix:validate", "wavix:reviewed", "wavix:apply"]);
    expect(gitlabJobsFor(p, "web", c)).toEqual(["wavix:reviewed", "wavix:apply"]);
    expect(gitlabJobsFor(p, "schedule", c)).toEqual(["wavix:drift", "wavix:audit", "wavix:drift-issue"]);
    expect(p.jobs["wavix:apply"]).toMatchObject({ resource_group: "wavix-account", interruptible: false, needs: ["wavix:reviewed"] });
    expect(p.jobs["wavix:audit"].artifacts).toMatchObject({ when: "always", paths: ["audit-report/"] });
    // Which secret each job gets, as GitLab hands them out (protected: default branch only; scoped: that environment only).
    const secretsOf = (job: string, source: string) =>
      Object.keys(gitlabVariables(source, c, p.jobs[job]))
        .filter((k) => /^WAVIX_/.test(k))
        .sort();
    const got = Object.fromEntries(
      (["merge_request_event", "push", "web", "schedule"] as const).flatMap((source) => gitlabJobsFor(p, source, c).map((job) => [`${source} ${job}`, secretsOf(job, source)])),
    );
    expect(got).toEqual({
      "merge_request_event wavix:validate": [],
      "merge_request_event wavix:plan": ["WAVIX_READ_KEY"],
      "merge_request_event wavix:note": ["WAVIX_NOTE_TOKEN"],
      "push wavix:validate": [],
      "push wavix:reviewed": ["WAVIX_BOT_TOKEN"],
      "push wavix:apply": ["WAVIX_WRITE_KEY"],
      "web wavix:reviewed": ["WAVIX_BOT_TOKEN"],
      "web wavix:apply": ["WAVIX_WRITE_KEY"],
      "schedule wavix:drift": ["WAVIX_READ_KEY"],
      "schedule wavix:audit": ["WAVIX_READ_KEY"],
      "schedule wavix:drift-issue": ["WAVIX_BOT_TOKEN"],
    });
    // Each secret is read where it is used, under its own name.
    for (const [job, secret] of [["wavix:plan", "WAVIX_READ_KEY"], ["wavix:note", "WAVIX_NOTE_TOKEN"], ["wavix:apply", "WAVIX_WRITE_KEY"]] as const) {
      expect(p.jobs[job].script.join("\n")).toContain(`$${secret}`);
      expect(gitlabEnvironment(p.jobs[job])).toBeDefined();
    }
  });

  it("merge request: the note is found across pages of notes and replaced; when the plan fails it says so", async () => {
    const p = pipeline();
    passed(await runGitlabJob(p, "wavix:validate", "merge_request_event", ctx()));
    const plan = await runGitlabJob(p, "wavix:plan", "merge_request_event", ctx());
    expect(plan.ok).toBe(SAVED);
    expect(plan.artifacts.find((a) => a.path === "plan.exitcode")?.exists).toBe(true);
    // 100 notes of others on page 1, ours on page 2 (someone else's note with the marker is not ours).
    const others = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, body: i === 5 ? `${PLAN_MARKER}\nfake` : "Looks good", author: { id: 5 } }));
    const notes: StubRule[] = [
      me,
      { cmd: "curl", match: "&page=1", stdout: JSON.stringify(others) },
      { cmd: "curl", match: "&page=2", stdout: JSON.stringify([{ id: 555, body: `${PLAN_MARKER}\nold plan`, author: { id: 77 } }]) },
    ];
    passed(await runGitlabJob(p, "wavix:note", "merge_request_event", ctx(notes)));
    const c = curlCalls();
    expect(c.map(method)).toEqual([
      "GET https://gitlab.example/api/v4/user",
      `GET ${API}/merge_requests/7/notes?per_page=100&sort=asc&page=1`,
      `GET ${API}/merge_requests/7/notes?per_page=100&sort=asc&page=2`,
      `PUT ${API}/merge_requests/7/notes/555`,
    ]);
    expect(c[0].args).toContain(`PRIVATE-TOKEN: ${NOTE_TOKEN}`);
    const body = c[3].files["body@plan.md"];
    expect(body.startsWith(PLAN_MARKER + "\n")).toBe(true);
    if (SAVED) expect(body).toBe(readFileSync(join(ws.dir, "plan.md"), "utf8"));
    else expect(body).toContain("### wavix-sync plan failed for wavix.yaml");
    // No note of ours yet: one is added.
    passed(await runGitlabJob(p, "wavix:note", "merge_request_event", ctx([me, { cmd: "curl", match: "&page=1", stdout: "[]" }])));
    expect(curlCalls().map(method)[2]).toBe(`POST ${API}/merge_requests/7/notes`);
    expect(writes()).toEqual([]);
  });

  it("merge request with a plan error: the plan job fails, the note carries the failure", async () => {
    ws = workspace(EXAMPLE.replace('"15551230003"', '"15559990000"'));
    const p = pipeline();
    const plan = await runGitlabJob(p, "wavix:plan", "merge_request_event", ctx());
    expect(plan.ok).toBe(false);
    expect(readFileSync(join(ws.dir, "plan.exitcode"), "utf8").trim()).toBe("1");
    passed(await runGitlabJob(p, "wavix:note", "merge_request_event", ctx([me, { cmd: "curl", match: "&page=1", stdout: "[]" }])));
    const post = curlCalls().find((c) => c.args.includes("POST"))!;
    expect(post.files["body@plan.md"].startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(post.files["body@plan.md"]).toContain(SAVED ? "15559990000" : "unknown option '--save'");
  });

  /** The curl answers that lead from the merge commit to the plan job 9001, whose artifacts are given. */
  const reviewedJob = (plan: string, digest: string): StubRule[] => [
    { cmd: "curl", match: "commits/5e1f00d5e1f00d5e1f00d5e1f00d5e1f00d5e1f0/merge_requests", stdout: JSON.stringify([{ iid: 7, state: "merged" }]) },
    { cmd: "curl", match: "merge_requests/7/pipelines", stdout: JSON.stringify([{ id: 601, sha: "feedc0de", status: "failed" }, { id: 600, sha: "feedc0de", status: "success" }]) },
    { cmd: "curl", match: "merge_requests/7", stdout: JSON.stringify({ iid: 7, sha: "feedc0de" }) },
    { cmd: "curl", match: "pipelines/600/jobs", stdout: JSON.stringify([{ id: 9000, name: "wavix:validate" }, { id: 9001, name: "wavix:plan" }]) },
    { cmd: "curl", match: "jobs/9001/artifacts/wavix.plan", stdout: plan },
    { cmd: "curl", match: "jobs/9001/artifacts/wavix.yaml.sha256", stdout: digest },
  ];

  it("default branch: the reviewed plan is found; main's file differs, so nothing is applied and the job re-plans", async () => {
    const p = pipeline();
    passed(await runGitlabJob(p, "wavix:reviewed", "push", ctx(reviewedJob("{}\n", `${sha256("version: 1\n")}  wavix.yaml\n`))));
    expect(curlCalls().map(method)).toEqual([
      `GET ${API}/repository/commits/5e1f00d5e1f00d5e1f00d5e1f00d5e1f00d5e1f0/merge_requests`,
      `GET ${API}/merge_requests/7`,
      `GET ${API}/merge_requests/7/pipelines`,
      `GET ${API}/pipelines/600/jobs?scope%5B%5D=success&per_page=100`,
      `GET ${API}/jobs/9001/artifacts/wavix.plan`,
      `GET ${API}/jobs/9001/artifacts/wavix.yaml.sha256`,
    ]);
    expect(readFileSync(join(ws.dir, "reviewed", "job-id"), "utf8").trim()).toBe("9001");
    const apply = await runGitlabJob(p, "wavix:apply", "push", ctx());
    expect(apply.ok).toBe(false);
    expect(apply.steps[0].stderr).toContain("Not applied: the default branch's wavix.yaml is not the file planned in job 9001 (another change was merged since).");
    expect(apply.steps[0].stderr).toContain("run a pipeline on main with the variable WAVIX_PLAN_JOB_ID=31337");
    expect(writes()).toEqual([]);
  });

  it("default branch with no merge request found, or a bad WAVIX_PLAN_JOB_ID: nothing applied", async () => {
    const p = pipeline();
    passed(await runGitlabJob(p, "wavix:reviewed", "push", ctx([{ cmd: "curl", match: "/merge_requests", stdout: "[]" }])));
    expect(existsSync(join(ws.dir, "reviewed", "job-id"))).toBe(false);
    const apply = await runGitlabJob(p, "wavix:apply", "push", ctx());
    expect(apply.ok).toBe(false);
    expect(apply.steps[0].stderr).toContain("Not applied: no successful wavix:plan job was found");
    const bad = await runGitlabJob(p, "wavix:reviewed", "web", { ...ctx(), variables: { ...ctx().variables, WAVIX_PLAN_JOB_ID: { value: "1 && curl evil" } } });
    expect(bad.ok).toBe(false);
    expect(bad.steps[0].stderr).toContain("WAVIX_PLAN_JOB_ID must be a job id");
    expect(writes()).toEqual([]);
  });

  it.skipIf(!SAVED)(`merge request then default branch: the reviewed plan is applied with the write key${WHY}`, async () => {
    const p = pipeline();
    passed(await runGitlabJob(p, "wavix:plan", "merge_request_event", ctx()));
    const plan = readFileSync(join(ws.dir, "wavix.plan"), "utf8");
    const digest = readFileSync(join(ws.dir, "wavix.yaml.sha256"), "utf8");
    passed(await runGitlabJob(p, "wavix:reviewed", "push", ctx(reviewedJob(plan, digest))));
    const apply = passed(await runGitlabJob(p, "wavix:apply", "push", ctx()));
    expect(apply.steps[0].stdout).toContain("Applying the plan reviewed in job 9001");
    expect(readFileSync(join(ws.dir, "apply.md"), "utf8")).toContain("**Apply complete:**");
  });

  it("schedule: drift (read key) then the issue job (bot token) opens, updates, closes one issue; audit reports kept", async () => {
    const p = pipeline();
    await applyNow();
    const none: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: "[]" }];
    const open: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: JSON.stringify([{ iid: 9 }]) }];
    const issues = `${API}/issues`;
    const both = async (rules: StubRule[]) => {
      passed(await runGitlabJob(p, "wavix:drift", "schedule", ctx()));
      passed(await runGitlabJob(p, "wavix:drift-issue", "schedule", ctx(rules)));
      return curlCalls();
    };
    expect(await both(none)).toHaveLength(1);
    await drift();
    let c = await both(none);
    expect(c.map(method)).toEqual([`GET ${issues}?labels=wavix-drift&state=opened`, `POST ${issues}`]);
    expect(c[1].files["description@drift.md"]).toContain("https://elsewhere.example/on-call");
    expect(c[1].args).toContain(`PRIVATE-TOKEN: ${BOT_TOKEN}`);
    expect(c[1].secretsSeen).toEqual(["WAVIX_BOT_TOKEN"]);
    c = await both(open);
    expect(c.map(method)[1]).toBe(`PUT ${issues}/9`);
    await applyNow();
    c = await both(open);
    expect(c[1].args).toContain("state_event=close");
    const audit = passed(await runGitlabJob(p, "wavix:audit", "schedule", ctx()));
    expect(audit.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    const [day] = readdirSync(join(ws.dir, "audit-report"));
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(readdirSync(join(ws.dir, "audit-report", day))).toContain("audit.html");
    expect((JSON.parse(readFileSync(join(ws.dir, "audit-report", day, "audit.json"), "utf8")) as { asked: { window: string } }).asked.window).toBe("last 1d");
  });
});
