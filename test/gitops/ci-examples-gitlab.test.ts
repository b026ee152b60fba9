/**
 * The GitLab CI example (examples/ci/gitlab/.gitlab-ci.yml), run as written in a user's own
 * repository that installs the packed package (test/helpers/consumer.ts): whole pipelines, each job
 * in a clone of the pipeline's commit with the artifacts of the jobs it depends on, its
 * `before_script` running the real `npm ci --ignore-scripts`, its `script` lines taken from the YAML
 * and run for real against the simulator, GitLab's API (`curl`) stubbed (test/gitops/ci-runner.ts).
 * The whole path: a merge request is validated, planned with the read key and noted, the merge
 * applies exactly the reviewed plan with the write key, the schedule watches for drift and runs the
 * audit; and the failure paths: an invalid file or a failing plan (the note carries the errors), a
 * stale plan or a file other than the reviewed one (never re-planned with the write key: wavix:replan
 * plans with the read key, and that plan is applied by a pipeline run by hand), no merge request, a
 * bad job id.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PLAN_MARKER } from "../../src/plan";
import { ROOT } from "../helpers/cli";
import type { ConsumerRepo } from "../helpers/consumer";
import { applyWithReadKey, BOT_TOKEN, digestOf, EMPTY, EXAMPLE, JOBS, NOTE_TOKEN, passed, saveAnotherPlan, sha256, useBench } from "./ci-bench";
import {
  gitlabEnvironment,
  gitlabJobsFor,
  gitlabVariables,
  readGitlab,
  runGitlabPipeline,
  type JobRun,
  type PipelineRun,
  type StubCall,
  type StubRule,
} from "./ci-runner";

const GITLAB_FILE = join(ROOT, "examples", "ci", "gitlab", ".gitlab-ci.yml");
const API = "https://gitlab.example/api/v4/projects/4242";
const b = useBench();
const pipeline = () => readGitlab(GITLAB_FILE);

const curlCalls = () => b.calls().filter((c) => c.cmd === "curl");
const method = (c: StubCall) => {
  const i = c.args.indexOf("--request");
  return `${i < 0 ? "GET" : c.args[i + 1]} ${c.args[c.args.length - 1]}`;
};
const me: StubRule = { cmd: "curl", match: "api/v4/user", stdout: JSON.stringify({ id: 77, username: "project_4242_bot" }) };
/** No note of ours yet. */
const noNotes: StubRule[] = [me, { cmd: "curl", match: "&page=1", stdout: "[]" }];

/** Which jobs ran, and how each ended (a failed job's output shown when that was not expected). */
function outcome(run: PipelineRun): Record<string, string> {
  const got = Object.fromEntries([...run.jobs].map(([name, j]) => [name, j.ran ? (j.ok ? "passed" : "failed") : "skipped"]));
  const output = [...run.jobs].filter(([, j]) => j.ran && !j.ok).map(([name, j]) => `${name}:\n${j.steps[0].stdout}\n${j.steps[0].stderr}`);
  return { ...got, ...(output.length > 0 ? { [OUTPUT]: output.join("\n") } : {}) };
}
/** Where `outcome` keeps the failed jobs' output (left out of the comparison by `ran`). */
const OUTPUT = "(output of the failed jobs)";
const ran = (expected: Record<string, string>) => (Object.values(expected).includes("failed") ? { ...expected, [OUTPUT]: expect.any(String) } : expected);
const job = (run: PipelineRun, name: string) => run.jobs.get(name)!;

/**
 * The API answers that lead wavix:reviewed from the merge commit to the plan job `plan` of the merge
 * request's head, and to the plan note the reviewers saw (`note`, by default that job's plan.md, written
 * by the note bot; another user's note with the marker comes first and is not ours).
 */
const reviewedJob = (mergeSha: string, headSha: string, plan: JobRun, note = readFileSync(join(plan.dir, "plan.md"), "utf8")): StubRule[] => [
  { cmd: "curl", match: `commits/${mergeSha}/merge_requests`, stdout: JSON.stringify([{ iid: 7, state: "merged" }]) },
  {
    cmd: "curl",
    match: "merge_requests/7/notes",
    stdout: JSON.stringify([
      { id: 554, body: `${PLAN_MARKER}\nSaved plan \`${"0".repeat(12)}\` (sha256:${"0".repeat(64)}): a person typed this`, author: { id: 5, username: "mallory" } },
      { id: 555, body: note, author: { id: 77, username: "project_4242_bot_3f2a" } },
    ]),
  },
  { cmd: "curl", match: "merge_requests/7/pipelines", stdout: JSON.stringify([{ id: 601, sha: headSha, status: "failed" }, { id: 600, sha: headSha, status: "success" }]) },
  { cmd: "curl", match: "merge_requests/7", stdout: JSON.stringify({ iid: 7, sha: headSha }) },
  { cmd: "curl", match: "pipelines/600/jobs", stdout: JSON.stringify([{ id: plan.runId - 1, name: "wavix:validate" }, { id: plan.runId, name: "wavix:plan" }]) },
  ...savedPlanOf(plan),
];

/** The API serving a job's saved plan (`jobs/:id/artifacts/...`). */
const savedPlanOf = (j: JobRun): StubRule[] => [
  { cmd: "curl", match: `jobs/${j.runId}/artifacts/wavix.plan`, file: join(j.dir, "wavix.plan") },
  { cmd: "curl", match: `jobs/${j.runId}/artifacts/wavix.yaml.sha256`, file: join(j.dir, "wavix.yaml.sha256") },
];

/** A repository whose last commit on main changed wavix.yaml (what a merge does). */
function mergedRepo(): { repo: ConsumerRepo; head: string; merge: string } {
  const repo = b.repo(EMPTY);
  const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
  return { repo, head, merge: repo.merge("declare-account") };
}

describe("the GitLab CI example as a file", () => {
  it("runs the right jobs per pipeline source, and hands each secret only to the job that uses it", () => {
    const p = pipeline();
    const text = readFileSync(GITLAB_FILE, "utf8");
    expect(p.variables ?? {}).not.toHaveProperty("WAVIX_API_KEY");
    expect(text).not.toMatch(/WAVIX_(READ|WRITE)_KEY\s*[:=]\s*[^"$]|--api-key|npm run build/);
    expect(p.default).toMatchObject({ image: "node:24", timeout: "15 minutes" });
    // The package ships dist/: the install is the whole set-up, with no secret and no install scripts.
    expect(p.default?.before_script).toEqual(["env -u WAVIX_READ_KEY -u WAVIX_WRITE_KEY -u WAVIX_NOTE_TOKEN -u WAVIX_BOT_TOKEN npm ci --ignore-scripts --no-audit --no-fund"]);
    const { repo } = mergedRepo();
    const c = b.ctx(repo);
    expect(gitlabJobsFor(p, "merge_request_event", c)).toEqual(["wavix:validate", "wavix:plan", "wavix:note"]);
    expect(gitlabJobsFor(p, "merge_request_event", { ...c, fork: true })).toEqual(["wavix:fork"]);
    expect(gitlabJobsFor(p, "push", c)).toEqual(["wavix:validate", "wavix:reviewed", "wavix:apply", "wavix:replan"]);
    expect(gitlabJobsFor(p, "web", c)).toEqual(["wavix:reviewed", "wavix:apply", "wavix:replan"]);
    expect(gitlabJobsFor(p, "schedule", c)).toEqual(["wavix:drift", "wavix:audit", "wavix:drift-issue"]);
    expect(p.jobs["wavix:apply"]).toMatchObject({ resource_group: "wavix-account", interruptible: false, needs: ["wavix:reviewed"] });
    expect(p.jobs["wavix:replan"]).toMatchObject({ needs: ["wavix:apply"] });
    expect(p.jobs["wavix:audit"].artifacts).toMatchObject({ when: "always", paths: ["audit-report/"] });
    // Which secret each job gets, as GitLab hands them out (protected: default branch only; scoped: that environment only).
    const secretsOf = (name: string, source: string) =>
      Object.keys(gitlabVariables(source, c, p.jobs[name]))
        .filter((k) => /^WAVIX_/.test(k))
        .sort();
    const got = Object.fromEntries(
      (["merge_request_event", "push", "web", "schedule"] as const).flatMap((source) =>
        gitlabJobsFor(p, source, source === "merge_request_event" ? { ...c, branch: "declare-account" } : c).map((name) => [
          `${source} ${name}`,
          secretsOf(name, source),
        ]),
      ),
    );
    expect(got).toEqual({
      "merge_request_event wavix:validate": [],
      "merge_request_event wavix:plan": ["WAVIX_READ_KEY"],
      "merge_request_event wavix:note": ["WAVIX_NOTE_TOKEN"],
      "push wavix:validate": [],
      "push wavix:reviewed": ["WAVIX_BOT_TOKEN"],
      "push wavix:apply": ["WAVIX_WRITE_KEY"],
      "push wavix:replan": ["WAVIX_READ_KEY"],
      "web wavix:reviewed": ["WAVIX_BOT_TOKEN"],
      "web wavix:apply": ["WAVIX_WRITE_KEY"],
      "web wavix:replan": ["WAVIX_READ_KEY"],
      "schedule wavix:drift": ["WAVIX_READ_KEY"],
      "schedule wavix:audit": ["WAVIX_READ_KEY"],
      "schedule wavix:drift-issue": ["WAVIX_BOT_TOKEN"],
    });
    // Each secret is read where it is used, under its own name; the write key only applies.
    for (const [name, secret] of [["wavix:plan", "WAVIX_READ_KEY"], ["wavix:replan", "WAVIX_READ_KEY"], ["wavix:note", "WAVIX_NOTE_TOKEN"], ["wavix:apply", "WAVIX_WRITE_KEY"]] as const) {
      expect(p.jobs[name].script.join("\n")).toContain(`$${secret}`);
      expect(gitlabEnvironment(p.jobs[name])).toBeDefined();
    }
    expect(p.jobs["wavix:apply"].script.join("\n").match(/WAVIX_API_KEY="\$WAVIX_WRITE_KEY" npx wavix-sync (\w+)/g)).toEqual(['WAVIX_API_KEY="$WAVIX_WRITE_KEY" npx wavix-sync apply']);
  });
});

describe("the GitLab CI example in a consumer repository", JOBS, () => {
  it("merge request → validate, plan (read key), note → merge → apply of the reviewed plan (write key) → drift schedule → audit", async () => {
    const p = pipeline();
    const repo = b.repo(EMPTY);
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
    // 100 notes of others on page 1, ours on page 2 (someone else's note with the marker is not ours).
    const others = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, body: i === 5 ? `${PLAN_MARKER}\nfake` : "Looks good", author: { id: 5 } }));
    const notes: StubRule[] = [
      me,
      { cmd: "curl", match: "&page=1", stdout: JSON.stringify(others) },
      { cmd: "curl", match: "&page=2", stdout: JSON.stringify([{ id: 555, body: `${PLAN_MARKER}\nold plan`, author: { id: 77 } }]) },
    ];
    const mr = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "declare-account", rules: notes }));
    expect(outcome(mr)).toEqual(ran({ "wavix:validate": "passed", "wavix:plan": "passed", "wavix:note": "passed" }));
    const plan = job(mr, "wavix:plan");
    expect(plan.steps[0].stdout).toContain("wavix-sync will perform the following actions:");
    expect(plan.artifacts.filter((a) => a.exists).map((a) => a.path)).toEqual(["plan.md", "plan.err", "plan.exitcode", "wavix.plan", "wavix.yaml.sha256"]);
    const c = curlCalls();
    expect(c.map(method)).toEqual([
      "GET https://gitlab.example/api/v4/user",
      `GET ${API}/merge_requests/7/notes?per_page=100&sort=asc&page=1`,
      `GET ${API}/merge_requests/7/notes?per_page=100&sort=asc&page=2`,
      `PUT ${API}/merge_requests/7/notes/555`,
    ]);
    expect(c[0].args).toContain(`PRIVATE-TOKEN: ${NOTE_TOKEN}`);
    expect(c[3].files["body@plan.md"]).toBe(readFileSync(join(plan.dir, "plan.md"), "utf8"));
    expect(c[3].files["body@plan.md"].startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(b.writes()).toEqual([]);
    // The plan job's key really cannot write.
    expect((await applyWithReadKey(b.sim, plan.dir)).code).toBe(1);
    expect(b.writes()).toEqual([]);

    // The merge: the reviewed plan is found through the API and applied with the write key.
    const merge = repo.merge("declare-account");
    const push = await runGitlabPipeline(p, "push", b.ctx(repo, { rules: reviewedJob(merge, head, plan) }));
    expect(outcome(push)).toEqual(ran({ "wavix:validate": "passed", "wavix:reviewed": "passed", "wavix:apply": "passed", "wavix:replan": "skipped" }));
    expect(curlCalls().map(method)).toEqual([
      `GET ${API}/repository/commits/${merge}/merge_requests`,
      `GET ${API}/merge_requests/7`,
      `GET ${API}/merge_requests/7/pipelines`,
      `GET ${API}/pipelines/600/jobs?scope%5B%5D=success&per_page=100`,
      `GET ${API}/merge_requests/7/notes?per_page=100&sort=asc&page=1`,
      `GET ${API}/jobs/${plan.runId}/artifacts/wavix.plan`,
      `GET ${API}/jobs/${plan.runId}/artifacts/wavix.yaml.sha256`,
    ]);
    const apply = job(push, "wavix:apply");
    expect(apply.steps[0].stdout).toContain(`Applying the plan reviewed in job ${plan.runId} (plan digest ${digestOf(readFileSync(join(plan.dir, "plan.md"), "utf8"))}, wavix.yaml sha256 ${sha256(EXAMPLE)}).`);
    expect(readFileSync(join(apply.dir, "apply.md"), "utf8")).toContain("**Apply complete:** 2 created, 3 updated, 0 deleted.");
    expect(b.writes().length).toBeGreaterThan(0);

    // The schedule: drift (read key) then the issue job (bot token) opens, updates, closes one issue; the audit's reports are kept.
    const none: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: "[]" }];
    const open: StubRule[] = [{ cmd: "curl", match: "labels=wavix-drift", stdout: JSON.stringify([{ iid: 9 }]) }];
    const issues = `${API}/issues`;
    const schedule = async (rules: StubRule[]) => {
      const run = await runGitlabPipeline(p, "schedule", b.ctx(repo, { rules }));
      expect(outcome(run)).toEqual(ran({ "wavix:drift": "passed", "wavix:audit": "passed", "wavix:drift-issue": "passed" }));
      return { run, curl: curlCalls() };
    };
    const clean = await schedule(none);
    expect(clean.curl.map(method)).toEqual([`GET ${issues}?labels=wavix-drift&state=opened`]);
    expect(job(clean.run, "wavix:audit").artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    const auditDir = join(job(clean.run, "wavix:audit").dir, "audit-report");
    const [day] = readdirSync(auditDir);
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(readdirSync(join(auditDir, day))).toContain("audit.html");
    expect((JSON.parse(readFileSync(join(auditDir, day, "audit.json"), "utf8")) as { asked: { window: string } }).asked.window).toBe("last 1d");
    await b.drift();
    let s = await schedule(none);
    // The drift's saved plan is kept (the issue's text points to it when shortened).
    expect(job(s.run, "wavix:drift").artifacts.filter((a) => a.exists).map((a) => a.path)).toEqual(["drift.md", "drift.plan", "drift.exitcode"]);
    expect(s.curl.map(method)).toEqual([`GET ${issues}?labels=wavix-drift&state=opened`, `POST ${issues}`]);
    expect(s.curl[1].files["description@drift.md"]).toContain("https://elsewhere.example/on-call");
    expect(s.curl[1].args).toContain(`PRIVATE-TOKEN: ${BOT_TOKEN}`);
    expect(s.curl[1].secretsSeen).toEqual(["WAVIX_BOT_TOKEN"]);
    s = await schedule(open);
    expect(s.curl.map(method)[1]).toBe(`PUT ${issues}/9`);
    await b.applyByHand(join(job(s.run, "wavix:drift").dir, "wavix.yaml"));
    s = await schedule(open);
    expect(s.curl[1].args).toContain("state_event=close");
  });

  it("merge request with an invalid file, then with a failing plan: the note carries the errors", async () => {
    const p = pipeline();
    const repo = b.repo(EMPTY);
    repo.commit("broken", { "wavix.yaml": EXAMPLE.replace("numbers:", "numbers:\n  - bogus: 1") }, "A typo");
    const invalid = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "broken", rules: noNotes }));
    expect(outcome(invalid)).toEqual(ran({ "wavix:validate": "failed", "wavix:plan": "skipped", "wavix:note": "passed" }));
    let post = curlCalls().find((c) => c.args.includes("POST"))!;
    expect(method(post)).toBe(`POST ${API}/merge_requests/7/notes`);
    let body = post.files["body@plan.md"];
    expect(body.startsWith(`${PLAN_MARKER}\n### wavix-sync plan failed for wavix.yaml\n`)).toBe(true);
    expect(body).toMatch(/^ {4}wavix\.yaml:\d+:\d+: unknown key "bogus"/m);
    expect(body).toContain("https://gitlab.example/acme/wavix-account/-/pipelines/777");
    expect(b.sim.log).toEqual([]);

    repo.commit("broken", { "wavix.yaml": EXAMPLE.replace('"15551230003"', '"15559990000"') }, "A number we do not own");
    const failing = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "broken", rules: noNotes }));
    expect(outcome(failing)).toEqual(ran({ "wavix:validate": "passed", "wavix:plan": "failed", "wavix:note": "passed" }));
    expect(readFileSync(join(job(failing, "wavix:plan").dir, "plan.exitcode"), "utf8").trim()).toBe("1");
    post = curlCalls().find((c) => c.args.includes("POST"))!;
    body = post.files["body@plan.md"];
    expect(body.startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(body).toContain("15559990000");
    expect(b.writes()).toEqual([]);
  });

  it("merge after the account changed: apply refuses the stale plan, wavix:replan plans with the read key, and a pipeline run by hand applies that plan", async () => {
    const p = pipeline();
    const repo = b.repo(EMPTY);
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
    const mr = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "declare-account", rules: noNotes }));
    const plan = job(mr, "wavix:plan");
    expect(plan.ok).toBe(true);
    await b.drift();
    const before = b.writes().length;
    const merge = repo.merge("declare-account");
    const push = await runGitlabPipeline(p, "push", b.ctx(repo, { rules: reviewedJob(merge, head, plan) }));
    expect(outcome(push)).toEqual(ran({ "wavix:validate": "passed", "wavix:reviewed": "passed", "wavix:apply": "failed", "wavix:replan": "passed" }));
    expect(b.writes().length).toBe(before);
    const apply = job(push, "wavix:apply");
    expect(apply.steps[0].stderr).toContain("Not applied: apply refused or failed (exit 1; a plan is refused once the account changed since it was made).");
    const replan = job(push, "wavix:replan");
    // The reason came from the apply job's artifact; the plan from the read key (no write key in its job).
    expect(replan.steps[0].stderr).toContain(
      `Not applied: apply refused or failed (exit 1; a plan is refused once the account changed since it was made). Review the plan above (this job's artifacts: plan.md, wavix.plan); to apply exactly it, run a pipeline on main with the variables WAVIX_PLAN_JOB_ID=${replan.runId} and WAVIX_PLAN_DIGEST=${digestOf(readFileSync(join(replan.dir, "plan.md"), "utf8"))}.`,
    );
    expect(replan.steps[0].stdout).toContain("wavix-sync will perform the following actions:");
    expect(readFileSync(join(replan.dir, "plan.md"), "utf8").startsWith(PLAN_MARKER)).toBe(true);
    b.calls();
    // Reviewed: Run pipeline on main with WAVIX_PLAN_JOB_ID.
    const c = b.ctx(repo, { rules: savedPlanOf(replan) });
    const digest = digestOf(readFileSync(join(replan.dir, "plan.md"), "utf8"));
    const web = await runGitlabPipeline(p, "web", { ...c, variables: { ...c.variables, WAVIX_PLAN_JOB_ID: { value: String(replan.runId) }, WAVIX_PLAN_DIGEST: { value: digest } } });
    expect(outcome(web)).toEqual(ran({ "wavix:reviewed": "passed", "wavix:apply": "passed", "wavix:replan": "skipped" }));
    expect(job(web, "wavix:apply").steps[0].stdout).toContain(`Applying the plan reviewed in job ${replan.runId} (plan digest ${digest}`);
    expect(b.writes().length).toBeGreaterThan(before);
  });

  it("default branch with a plan swapped after the review (same file, another valid digest) or no plan note: refused before any request, nothing applied", async () => {
    const p = pipeline();
    const repo = b.repo(EMPTY);
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
    const mr = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "declare-account", rules: noNotes }));
    const plan = job(mr, "wavix:plan");
    expect(plan.ok).toBe(true);
    const note = readFileSync(join(plan.dir, "plan.md"), "utf8");
    // After the review the account changes, and someone who can write the job's artifacts swaps in a
    // plan of the same file made now: valid, with its own digest, but not what the reviewers saw.
    await b.drift();
    await saveAnotherPlan(b.sim, plan.dir, join(plan.dir, "wavix.plan"));
    const swapped = (JSON.parse(readFileSync(join(plan.dir, "wavix.plan"), "utf8")) as { digest: string }).digest;
    expect(swapped).not.toBe(digestOf(note));
    const merge = repo.merge("declare-account");
    const before = b.sim.log.length;
    const push = await runGitlabPipeline(p, "push", b.ctx(repo, { rules: reviewedJob(merge, head, plan, note) }));
    expect(outcome(push)).toEqual(ran({ "wavix:validate": "passed", "wavix:reviewed": "passed", "wavix:apply": "failed", "wavix:replan": "passed" }));
    const apply = job(push, "wavix:apply").steps[0];
    expect(apply.stdout + apply.stderr).toContain(`this saved plan is not the one reviewed: its digest is ${swapped}, and --expect-digest is ${digestOf(note)}`);
    expect(b.sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
    // No note of ours (only someone else's with the marker): the reviewed plan is unknown.
    const bare = await runGitlabPipeline(p, "push", b.ctx(repo, { rules: reviewedJob(merge, head, plan, "not a plan") }));
    expect(outcome(bare)).toMatchObject({ "wavix:apply": "failed", "wavix:replan": "passed" });
    expect(job(bare, "wavix:apply").steps[0].stderr).toContain("Not applied: no plan digest: the merge request's plan note shows none");
    expect(b.sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
    b.calls();
  });

  it("default branch where the file is not the reviewed one, with no merge request, or run with a bad WAVIX_PLAN_JOB_ID: nothing applied", async () => {
    const p = pipeline();
    const { repo, head, merge } = mergedRepo();
    // The reviewed plan job planned another file (another merge changed wavix.yaml since).
    const fake = await runGitlabPipeline(p, "merge_request_event", b.ctx(repo, { branch: "declare-account", rules: noNotes }));
    const plan = job(fake, "wavix:plan");
    const rules = reviewedJob(merge, head, plan).map((r) => (r.match.endsWith("wavix.yaml.sha256") ? { cmd: r.cmd, match: r.match, stdout: `${sha256("version: 1\n")}  wavix.yaml\n` } : r));
    const push = await runGitlabPipeline(p, "push", b.ctx(repo, { rules }));
    expect(outcome(push)).toEqual(ran({ "wavix:validate": "passed", "wavix:reviewed": "passed", "wavix:apply": "failed", "wavix:replan": "passed" }));
    expect(job(push, "wavix:replan").steps[0].stderr).toContain(`Not applied: the default branch's wavix.yaml is not the file planned in job ${plan.runId} (another change was merged since).`);
    // No merge request for the merge commit.
    const none = await runGitlabPipeline(p, "push", b.ctx(repo, { rules: [{ cmd: "curl", match: "/merge_requests", stdout: "[]" }] }));
    expect(outcome(none)).toMatchObject({ "wavix:apply": "failed", "wavix:replan": "passed" });
    expect(job(none, "wavix:apply").steps[0].stderr).toContain("Not applied: no successful wavix:plan job was found for the merge request merged as this commit.");
    // A job id that is not one: refused before any request; apply and replan do not run.
    const c = b.ctx(repo);
    const bad = await runGitlabPipeline(p, "web", { ...c, variables: { ...c.variables, WAVIX_PLAN_JOB_ID: { value: "1 && curl evil" } } });
    expect(outcome(bad)).toEqual(ran({ "wavix:reviewed": "failed", "wavix:apply": "skipped", "wavix:replan": "skipped" }));
    expect(job(bad, "wavix:reviewed").steps[0].stderr).toContain("WAVIX_PLAN_JOB_ID must be a job id");
    expect(b.writes()).toEqual([]);
    b.calls();
  });
});
