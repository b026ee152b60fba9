/**
 * The example pipelines in examples/ci/ (GitHub Actions and GitLab CI) parse, keep the key in the
 * CI's secret store, and every shell command of every step runs for real against the simulator,
 * with the forge (gh, curl) and `npm ci` stubbed on PATH (test/gitops/ci-runner.ts). So the
 * examples cannot rot: a renamed flag or a changed exit code fails here.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WavixClient } from "../../src/client";
import { APPLY_MARKER, PLAN_MARKER } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT } from "../helpers/cli";
import {
  gitlabJobsFor,
  readGitlab,
  readWorkflow,
  runGithubJob,
  runGitlabJob,
  workspace,
  type GhWorkflow,
  type JobRun,
  type RunContext,
  type StubRule,
  type Workspace,
} from "./ci-runner";

const GITHUB = join(ROOT, "examples", "ci", "github");
const GITLAB_FILE = join(ROOT, "examples", "ci", "gitlab", ".gitlab-ci.yml");
const KEY = "gitops-ci-key-c0ffee";
const EXAMPLE = readFileSync(join(ROOT, "examples", "wavix.yaml"), "utf8");

let sim: Simulator;
let ws: Workspace;
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  ws = workspace(EXAMPLE);
});
afterEach(async () => {
  await sim.close();
});

function ctx(rules: StubRule[] = [], pullRequest = 7): RunContext {
  return { ws, baseUrl: sim.url, apiKey: KEY, rules, pullRequest };
}

/** A job run that must have passed, with its output shown when it did not. */
function passed(run: JobRun): JobRun {
  const failed = run.steps.filter((s) => s.code !== 0);
  expect(failed.map((s) => `${s.name} (exit ${s.code})\n${s.stdout}\n${s.stderr}`)).toEqual([]);
  expect(run.skipped).toEqual([]);
  return run;
}

/** Someone changes the account outside the pipeline (over the API, as a person would). */
async function drift(): Promise<void> {
  await new WavixClient({ apiKey: KEY, baseUrl: sim.url }).upsertCallWebhook("on-call", "https://elsewhere.example/on-call");
}

const workflows = (): [string, GhWorkflow][] =>
  readdirSync(GITHUB)
    .filter((f) => f.endsWith(".yml"))
    .sort()
    .map((f) => [f, readWorkflow(join(GITHUB, f))]);

// Each job runs several CLI commands through npx; generous on a loaded machine (no timing is asserted).
const JOBS = { timeout: 240_000 };

describe("GitHub Actions examples", JOBS, () => {
  it("parse, take the key only from the secret store, and never put an expression inside a script", () => {
    const all = workflows();
    expect(all.map(([f]) => f)).toEqual(["wavix-apply.yml", "wavix-plan.yml", "wavix-scheduled.yml"]);
    for (const [file, wf] of all) {
      const text = readFileSync(join(GITHUB, file), "utf8");
      expect(text.match(/WAVIX_API_KEY:.*$/gm), file).toEqual(
        Object.keys(wf.jobs).map(() => "WAVIX_API_KEY: ${{ secrets.WAVIX_API_KEY }}"),
      );
      expect(text, file).not.toMatch(/--api-key|WAVIX_BASE_URL/);
      for (const job of Object.values(wf.jobs)) {
        for (const step of job.steps) if (step.run) expect(step.run, `${file}: ${step.name}`).not.toContain("${{");
      }
    }
    const [, apply] = all.find(([f]) => f === "wavix-apply.yml")!;
    expect(apply.on).toMatchObject({ push: { branches: ["main"] } });
    // Serialised, and a running apply is never cancelled half-way.
    expect(apply.concurrency).toEqual({ group: "wavix-apply", "cancel-in-progress": false });
    expect(apply.jobs.apply.steps.some((s) => s.run?.includes("apply -f wavix.yaml --auto-approve"))).toBe(true);
    const [, plan] = all.find(([f]) => f === "wavix-plan.yml")!;
    expect(Object.keys(plan.on)).toEqual(["pull_request"]);
    expect(plan.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    const [, scheduled] = all.find(([f]) => f === "wavix-scheduled.yml")!;
    expect(Object.keys(scheduled.on)).toContain("schedule");
    expect(Object.keys(scheduled.jobs)).toEqual(["drift", "audit"]);
  });

  it("pull request: validate, plan, then post the Markdown plan as a comment, and update that comment on the next push", async () => {
    const [, wf] = workflows().find(([f]) => f === "wavix-plan.yml")!;
    const first = passed(await runGithubJob(wf, "plan", ctx()));
    const plan = readFileSync(join(ws.dir, "plan.md"), "utf8");
    expect(plan.startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(plan).toContain("**Plan: 2 to create, 3 to update, 0 to delete, 2 unchanged.**");
    // The log shows the human plan.
    expect(first.steps.find((s) => s.name === "Plan")!.stdout).toContain("wavix-sync will perform the following actions:");
    expect(first.artifacts).toEqual([{ path: "plan.md", exists: true }]);
    let calls = ws.takeCalls();
    expect(calls.map((c) => [c.cmd, ...c.args.slice(0, 3)])).toEqual([
      ["npm", "ci", "--no-audit", "--no-fund"],
      ["gh", "api", "repos/acme/wavix-account/issues/7/comments", "--paginate"],
      ["gh", "api", "--method", "POST"],
    ]);
    expect(calls[2].args[3]).toBe("repos/acme/wavix-account/issues/7/comments");
    expect(calls[2].files["body=@comment.md"]).toBe(plan);

    // Next push: the bot finds its comment by the marker and edits it; same account, same bytes.
    passed(await runGithubJob(wf, "plan", ctx([{ cmd: "gh", match: "issues/7/comments --paginate", stdout: "987654\n" }])));
    calls = ws.takeCalls();
    expect(calls[2].args.slice(0, 4)).toEqual(["api", "--method", "PATCH", "repos/acme/wavix-account/issues/comments/987654"]);
    expect(calls[2].files["body=@comment.md"]).toBe(plan);
    expect(sim.log.every((e) => e.method === "GET")).toBe(true);
  });

  it("pull request with a plan error: the comment still goes up, then the job fails", async () => {
    ws = workspace(EXAMPLE.replace('"15551230003"', '"15559990000"'));
    const [, wf] = workflows().find(([f]) => f === "wavix-plan.yml")!;
    const run = await runGithubJob(wf, "plan", ctx());
    expect(run.ok).toBe(false);
    expect(run.steps.map((s) => [s.name, s.code]).slice(-3)).toEqual([
      ["Post or update the plan comment", 0],
      ["actions/upload-artifact@v4", 0],
      ["Fail on plan errors", 1],
    ]);
    const post = ws.takeCalls().find((c) => c.args.includes("POST"))!;
    expect(post.files["body=@comment.md"]).toContain("15559990000");
  });

  it("merge to main: apply --auto-approve, the result in the job summary; the next plan is clean", async () => {
    const wfs = Object.fromEntries(workflows());
    const run = passed(await runGithubJob(wfs["wavix-apply.yml"], "apply", ctx()));
    expect(run.summary.startsWith(APPLY_MARKER + "\n")).toBe(true);
    expect(run.summary).toContain("**Apply complete:** 2 created, 3 updated, 0 deleted.");
    expect(run.artifacts).toEqual([{ path: "apply.md", exists: true }]);
    passed(await runGithubJob(wfs["wavix-plan.yml"], "plan", ctx()));
    expect(readFileSync(join(ws.dir, "plan.md"), "utf8")).toContain("**No changes.**");
  });

  it("schedule: drift opens one issue, updates it while drift lasts, closes it once the account matches", async () => {
    const wfs = Object.fromEntries(workflows());
    const scheduled = wfs["wavix-scheduled.yml"];
    passed(await runGithubJob(wfs["wavix-apply.yml"], "apply", ctx()));
    ws.takeCalls();

    // No drift, no issue: nothing to do.
    passed(await runGithubJob(scheduled, "drift", ctx()));
    expect(ws.takeCalls().map((c) => `${c.cmd} ${c.args[0]} ${c.args[1]}`)).toEqual(["npm ci --no-audit", "gh issue list"]);

    await drift();
    passed(await runGithubJob(scheduled, "drift", ctx()));
    let calls = ws.takeCalls();
    expect(calls.map((c) => `${c.cmd} ${c.args[0]} ${c.args[1]}`)).toEqual(["npm ci --no-audit", "gh issue list", "gh label create", "gh issue create"]);
    const body = calls[3].files["--body-file"];
    expect(body.startsWith(PLAN_MARKER)).toBe(true);
    expect(body).toContain("https://elsewhere.example/on-call");
    expect(calls[3].args).toEqual(expect.arrayContaining(["--label", "wavix-drift"]));

    // Still drifted, the issue exists: updated, not duplicated.
    const existing: StubRule[] = [{ cmd: "gh", match: "issue list", stdout: "12\n" }];
    passed(await runGithubJob(scheduled, "drift", ctx(existing)));
    calls = ws.takeCalls();
    expect(calls.map((c) => `${c.cmd} ${c.args.slice(0, 3).join(" ")}`)).toEqual(["npm ci --no-audit --no-fund", "gh issue list --repo", "gh issue edit 12"]);
    expect(calls[2].files["--body-file"]).toBe(body);

    // Fixed (apply again): the issue is closed.
    passed(await runGithubJob(wfs["wavix-apply.yml"], "apply", ctx()));
    ws.takeCalls();
    passed(await runGithubJob(scheduled, "drift", ctx(existing)));
    expect(ws.takeCalls().map((c) => `${c.cmd} ${c.args.slice(0, 3).join(" ")}`)).toEqual([
      "npm ci --no-audit --no-fund",
      "gh issue list --repo",
      "gh issue close 12",
    ]);
  });

  it("schedule: the audit uploads its reports, and fails the job on an error finding (reports still uploaded)", async () => {
    const scheduled = Object.fromEntries(workflows())["wavix-scheduled.yml"];
    const ok = passed(await runGithubJob(scheduled, "audit", ctx()));
    expect(ok.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(readdirSync(join(ws.dir, "audit-report")).sort()).toEqual(["audit.html", "audit.json", "audit.md", "two_fa_events.csv", "vettings.csv"]);

    ws = workspace(EXAMPLE.replace("min_vetting_score: 75", "min_vetting_score: 90"));
    const failing = await runGithubJob(scheduled, "audit", ctx());
    expect(failing.steps.map((s) => [s.name, s.code])).toEqual([
      ["actions/checkout@v4", 0],
      ["actions/setup-node@v4", 0],
      ["Install", 0],
      ["Audit", 2],
      ["actions/upload-artifact@v4", 0],
    ]);
    expect(failing.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(failing.steps[3].stderr).toContain("audit: 1 error finding(s)");
  });
});

/** jq, when installed, stands in for `gh --jq` (gh embeds gojq; these filters mean the same in both). */
const JQ = ["/usr/bin/jq", "/usr/local/bin/jq"].find((p) => existsSync(p));

describe("GitHub Actions examples: the gh --jq filters", () => {
  const filters = () => [...readFileSync(join(GITHUB, "wavix-plan.yml"), "utf8").matchAll(/--jq '([^']+)'/g), ...readFileSync(join(GITHUB, "wavix-scheduled.yml"), "utf8").matchAll(/--jq '([^']+)'/g)].map((m) => m[1]);
  const jq = (filter: string, input: unknown) => execFileSync(JQ!, ["-r", filter], { input: JSON.stringify(input) }).toString();

  it.skipIf(!JQ)("pick only the bot's own plan comment, and the open drift issue's number (needs jq; skipped without it)", () => {
    const [comment, issue] = filters();
    const comments = [
      { id: 1, user: { login: "alice" }, body: "Looks good" },
      { id: 2, user: { login: "mallory" }, body: `${PLAN_MARKER}\nfake plan` },
      { id: 3, user: { login: "github-actions[bot]" }, body: "<!-- another bot -->" },
      { id: 4, user: { login: "github-actions[bot]" }, body: `${PLAN_MARKER}\nplan` },
    ];
    expect(jq(comment, comments)).toBe("4\n");
    expect(jq(comment, comments.slice(0, 3))).toBe("");
    expect(jq(issue, [{ number: 12 }])).toBe("12\n");
    expect(jq(issue, [])).toBe("");
  });
});

describe("GitLab CI example", JOBS, () => {
  const pipeline = () => readGitlab(GITLAB_FILE);

  it("parses, runs the right jobs per pipeline source, keeps the key out of the file, serialises apply", () => {
    const p = pipeline();
    const text = readFileSync(GITLAB_FILE, "utf8");
    expect(p.variables ?? {}).not.toHaveProperty("WAVIX_API_KEY");
    expect(text).not.toMatch(/WAVIX_API_KEY\s*[:=]|--api-key/);
    const c = ctx();
    expect(gitlabJobsFor(p, "merge_request_event", c)).toEqual(["wavix:validate", "wavix:plan"]);
    expect(gitlabJobsFor(p, "push", c)).toEqual(["wavix:validate", "wavix:apply"]);
    expect(gitlabJobsFor(p, "schedule", c)).toEqual(["wavix:drift", "wavix:audit"]);
    expect(p.jobs["wavix:apply"]).toMatchObject({ resource_group: "wavix-account", interruptible: false });
    expect(p.jobs["wavix:audit"].artifacts).toMatchObject({ when: "always", paths: ["audit-report/"] });
  });

  it("merge request: validate, plan, and one MR note created then updated in place", async () => {
    const p = pipeline();
    passed(await runGitlabJob(p, "wavix:validate", "merge_request_event", ctx()));
    const me: StubRule = { cmd: "curl", match: "api/v4/user", stdout: JSON.stringify({ id: 77, username: "project_4242_bot" }) };
    const first = passed(await runGitlabJob(p, "wavix:plan", "merge_request_event", ctx([me, { cmd: "curl", match: "notes?per_page", stdout: "[]" }])));
    expect(first.artifacts).toEqual([{ path: "plan.md", exists: true }]);
    const plan = readFileSync(join(ws.dir, "plan.md"), "utf8");
    let calls = ws.takeCalls().filter((c) => c.cmd === "curl" && !c.args.includes("https://gitlab.example/api/v4/user"));
    expect(calls).toHaveLength(2);
    expect(calls[0].args).toContain("https://gitlab.example/api/v4/projects/4242/merge_requests/7/notes?per_page=100&sort=asc");
    expect(calls[0].args).toContain("PRIVATE-TOKEN: glpat-stub-token");
    expect(calls[1].args).toEqual(expect.arrayContaining(["--request", "POST", "https://gitlab.example/api/v4/projects/4242/merge_requests/7/notes"]));
    expect(calls[1].files["body@plan.md"]).toBe(plan);

    // Someone else's note that starts with the marker is not ours to edit.
    const notes = JSON.stringify([
      { id: 3, body: "Looks good", author: { id: 5 } },
      { id: 4, body: `${PLAN_MARKER}\nfake`, author: { id: 5 } },
      { id: 55, body: `${PLAN_MARKER}\nold plan`, author: { id: 77 } },
    ]);
    passed(await runGitlabJob(p, "wavix:plan", "merge_request_event", ctx([me, { cmd: "curl", match: "notes?per_page", stdout: notes }])));
    calls = ws.takeCalls().filter((c) => c.cmd === "curl" && !c.args.includes("https://gitlab.example/api/v4/user"));
    expect(calls[1].args).toEqual(expect.arrayContaining(["--request", "PUT", "https://gitlab.example/api/v4/projects/4242/merge_requests/7/notes/55"]));
    expect(calls[1].files["body@plan.md"]).toBe(plan);
  });

  it("default branch: apply; schedule: drift issue opened, updated, closed; audit reports kept", async () => {
    const p = pipeline();
    const apply = passed(await runGitlabJob(p, "wavix:apply", "push", ctx()));
    expect(apply.artifacts).toEqual([{ path: "apply.md", exists: true }]);
    expect(readFileSync(join(ws.dir, "apply.md"), "utf8")).toContain("**Apply complete:**");
    ws.takeCalls();

    const none: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: "[]" }];
    const open: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: JSON.stringify([{ iid: 9 }]) }];
    const curlCalls = () => ws.takeCalls().filter((c) => c.cmd === "curl");
    const method = (c: { args: string[] }) => {
      const i = c.args.indexOf("--request");
      return `${i < 0 ? "GET" : c.args[i + 1]} ${c.args[c.args.length - 1]}`;
    };
    const issues = "https://gitlab.example/api/v4/projects/4242/issues";

    passed(await runGitlabJob(p, "wavix:drift", "schedule", ctx(none)));
    expect(curlCalls()).toHaveLength(1);

    await drift();
    passed(await runGitlabJob(p, "wavix:drift", "schedule", ctx(none)));
    let calls = curlCalls();
    expect(calls.map(method)).toEqual([`GET ${issues}?labels=wavix-drift&state=opened`, `POST ${issues}`]);
    expect(calls[1].files["description@drift.md"]).toContain("https://elsewhere.example/on-call");
    expect(calls[1].args).toEqual(expect.arrayContaining(["labels=wavix-drift"]));

    passed(await runGitlabJob(p, "wavix:drift", "schedule", ctx(open)));
    calls = curlCalls();
    expect(calls.map(method)[1]).toBe(`PUT ${issues}/9`);
    expect(calls[1].files["description@drift.md"]).toContain(PLAN_MARKER);

    passed(await runGitlabJob(p, "wavix:apply", "push", ctx()));
    passed(await runGitlabJob(p, "wavix:drift", "schedule", ctx(open)));
    calls = curlCalls();
    expect(calls.map(method)[1]).toBe(`PUT ${issues}/9`);
    expect(calls[1].args).toContain("state_event=close");

    const audit = passed(await runGitlabJob(p, "wavix:audit", "schedule", ctx()));
    expect(audit.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(readdirSync(join(ws.dir, "audit-report"))).toContain("audit.html");
  });
});
