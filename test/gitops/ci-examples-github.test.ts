/**
 * The GitHub Actions examples (examples/ci/github), run as written in a user's own repository that
 * installs the packed package (test/helpers/consumer.ts): each job in a fresh workspace, the
 * checkout cloning the run's commit, the `Install` step running the real `npm ci --ignore-scripts`,
 * every `run:` step taken from the YAML and run for real against the simulator, the forge's `gh`
 * stubbed (test/gitops/ci-runner.ts). The whole path: a pull request is planned with the read key
 * and commented, a second push replaces the comment, the merge applies exactly the reviewed plan with
 * the write key, the schedule watches for drift and runs the audit; and the failure paths: a fork,
 * an invalid file, a failing plan, a stale plan (re-planned, then applied by hand once reviewed), a
 * file other than the reviewed one, no plan at all.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { APPLY_MARKER, PLAN_MARKER } from "../../src/plan";
import { ROOT } from "../helpers/cli";
import { applyWithReadKey, digestOf, EMPTY, EXAMPLE, JOBS, passed, saveAnotherPlan, sha256, useBench } from "./ci-bench";
import { readWorkflow, runGithubJob, type GhWorkflow, type StubCall, type StubRule } from "./ci-runner";

const GITHUB = join(ROOT, "examples", "ci", "github");
const b = useBench();

const workflows = (): [string, GhWorkflow][] =>
  readdirSync(GITHUB)
    .filter((f) => f.endsWith(".yml"))
    .sort()
    .map((f) => [f, readWorkflow(join(GITHUB, f))]);
const wf = (file: string) => Object.fromEntries(workflows())[file];

/**
 * The gh answers that lead the apply job from the merge commit to pull request 7, the plan run `runId`
 * of its head, and the bot's plan comment the reviewers saw (`comment`, the plan job's plan.md: the
 * jq filter keeps our comment's body).
 */
const reviewedRun = (mergeSha: string, headSha: string, runId: number, comment: string): StubRule[] => [
  { cmd: "gh", match: `commits/${mergeSha}/pulls --jq`, stdout: `7 ${headSha}\n` },
  { cmd: "gh", match: `actions/workflows/wavix-plan.yml/runs?head_sha=${headSha}&status=success`, stdout: `${runId}\n` },
  { cmd: "gh", match: "issues/7/comments --paginate --jq", stdout: `${comment}\n` },
];


const CHECKOUT = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1";
const SETUP_NODE = "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020";
const UPLOAD = "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f";
const DOWNLOAD = "actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c";
const ghCalls = (c: StubCall[]) => c.filter((x) => x.cmd === "gh");

describe("the GitHub Actions examples as files", () => {
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
          // The package ships dist/: the install is the whole set-up, with no install scripts.
          if (step.name === "Install") expect(step.run).toBe("npm ci --ignore-scripts --no-audit --no-fund");
          expect(step.run ?? "", `${file}: ${step.name}`).not.toMatch(/npm run build/);
          const secrets: string[] = Object.values(step.env ?? {}).join(" ").match(/secrets\.\w+/g) ?? [];
          // Only the steps that talk to Wavix hold a key, and only the write key applies.
          if (secrets.length > 0) expect(step.run, `${file}: ${step.name}`).toMatch(/npx wavix-sync (plan|apply|audit)/);
          if (secrets.includes("secrets.WAVIX_WRITE_KEY")) expect([file, name, step.name, job.environment]).toEqual(["wavix-apply.yml", "apply", "Apply", "wavix"]);
        }
      }
    }
    const apply = wf("wavix-apply.yml");
    expect(apply.on).toMatchObject({ push: { branches: ["main"] }, workflow_dispatch: { inputs: { plan_run_id: { required: true }, plan_digest: { required: true } } } });
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
});

describe("the GitHub Actions examples in a consumer repository", JOBS, () => {
  it("pull request → plan (read key) and comment → next push replaces it → merge → apply of the reviewed plan (write key) → drift schedule → audit", async () => {
    const repo = b.repo(EMPTY);
    const plan = wf("wavix-plan.yml");
    // The pull request declares the account; its first push.
    repo.commit("declare-account", { "wavix.yaml": EXAMPLE.replace("transcription_threshold: 30", "transcription_threshold: 20") }, "Declare the account");
    const pr = b.ctx(repo, { branch: "declare-account" });
    const first = passed(await runGithubJob(plan, "plan", pr));
    expect(first.steps.map((s) => s.name)).toEqual([CHECKOUT, SETUP_NODE, "Install", "Validate", "Plan", "Replace the plan comment", UPLOAD, "Fail on plan errors"]);
    const planStep = first.steps.find((s) => s.name === "Plan")!;
    expect(planStep.stdout).toContain("wavix-sync will perform the following actions:");
    expect(first.artifacts.filter((a) => a.exists).map((a) => a.path)).toEqual(["plan.md", "wavix.plan", "wavix.yaml.sha256"]);
    expect(existsSync(join(first.dir, "node_modules", "wavix-sync", "dist", "cli", "main.js"))).toBe(true);
    let c = b.calls();
    expect(c.map((x) => [x.cmd, ...x.args.slice(0, 3)])).toEqual([
      ["npm", "ci", "--ignore-scripts", "--no-audit"],
      ["gh", "api", "repos/acme/wavix-account/issues/7/comments", "--paginate"],
      ["gh", "api", "--method", "POST"],
    ]);
    expect(c[2].files["body=@comment.md"]).toBe(readFileSync(join(first.dir, "plan.md"), "utf8"));
    expect(c[2].files["body=@comment.md"].startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(b.writes()).toEqual([]);
    // The plan job's key really cannot write: the simulator refuses every write it attempts.
    const refused = await applyWithReadKey(b.sim, first.dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout, refused.stderr).toContain("which this API key lacks");
    expect(b.writes()).toEqual([]);

    // The next push to the pull request: the comment is found again and replaced.
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Threshold back to 30");
    const second = passed(await runGithubJob(plan, "plan", b.ctx(repo, { branch: "declare-account", rules: [{ cmd: "gh", match: "issues/7/comments --paginate", stdout: "987654\n" }] })));
    c = ghCalls(b.calls());
    expect(c[1].args.slice(0, 4)).toEqual(["api", "--method", "PATCH", "repos/acme/wavix-account/issues/comments/987654"]);
    const reviewed = readFileSync(join(second.dir, "plan.md"), "utf8");
    expect(c[1].files["body=@comment.md"]).toBe(reviewed);
    expect(b.writes()).toEqual([]);

    // The merge: exactly the reviewed plan is applied, with the write key.
    const merge = repo.merge("declare-account");
    const apply = passed(await runGithubJob(wf("wavix-apply.yml"), "apply", b.ctx(repo, { rules: reviewedRun(merge, head, second.runId, reviewed) })));
    expect(apply.skipped).toEqual(["Re-plan (nothing more applied)", UPLOAD]);
    // The apply was bound to the digest the reviewers saw in the comment.
    expect(apply.summary).toContain(`Applying the plan reviewed in run ${second.runId} (plan digest ${digestOf(reviewed)}, wavix.yaml sha256 ${sha256(EXAMPLE)})`);
    expect(apply.summary).toContain(APPLY_MARKER + "\n");
    expect(apply.summary).toContain("**Apply complete:** 2 created, 3 updated, 0 deleted.");
    expect(b.writes().length).toBeGreaterThan(0);
    expect(ghCalls(b.calls()).map((x) => x.args[1])).toEqual([
      `repos/acme/wavix-account/commits/${merge}/pulls`,
      expect.stringContaining(`head_sha=${head}`),
      "repos/acme/wavix-account/issues/7/comments",
    ]);

    // The schedule: no drift, no issue; drift opens one issue, updates it, closes it once the account matches.
    const scheduled = wf("wavix-scheduled.yml");
    const names = (calls: StubCall[]) => ghCalls(calls).map((x) => x.args.slice(0, 2).join(" "));
    const clean = passed(await runGithubJob(scheduled, "drift", b.ctx(repo)));
    expect(readFileSync(join(clean.dir, "drift.exitcode"), "utf8").trim()).toBe("0");
    expect(names(b.calls())).toEqual(["issue list"]);
    await b.drift();
    const drifted = passed(await runGithubJob(scheduled, "drift", b.ctx(repo)));
    // The drift's saved plan is kept (the issue's comment points to it when shortened).
    expect(drifted.artifacts.filter((a) => a.exists).map((a) => a.path)).toEqual(["drift.md", "drift.plan"]);
    c = b.calls();
    expect(names(c)).toEqual(["issue list", "label create", "issue create"]);
    const created = c.find((x) => x.args[0] === "issue" && x.args[1] === "create")!;
    expect(created.files["--body-file"].startsWith(PLAN_MARKER)).toBe(true);
    expect(created.files["--body-file"]).toContain("https://elsewhere.example/on-call");
    // The issue step holds the GitHub token, not the Wavix key.
    expect(created.secretsSeen).toEqual(["GH_TOKEN"]);
    const open: StubRule[] = [{ cmd: "gh", match: "issue list", stdout: "12\n" }];
    const still = passed(await runGithubJob(scheduled, "drift", b.ctx(repo, { rules: open })));
    expect(names(b.calls())).toEqual(["issue list", "issue edit"]);
    await b.applyByHand(join(still.dir, "wavix.yaml"));
    passed(await runGithubJob(scheduled, "drift", b.ctx(repo, { rules: open })));
    expect(ghCalls(b.calls()).map((x) => x.args.slice(0, 3).join(" "))).toEqual(["issue list --repo", "issue close 12"]);

    // The audit (read key): the last full UTC day, its reports kept by date and uploaded.
    const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = yesterday();
    const audit = passed(await runGithubJob(scheduled, "audit", b.ctx(repo)));
    const [day] = readdirSync(join(audit.dir, "audit-report"));
    expect([before, yesterday()]).toContain(day);
    expect(audit.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(b.store.runs.get(audit.runId)?.has(`wavix-audit-${day}`)).toBe(true);
    expect(readdirSync(join(audit.dir, "audit-report", day)).sort()).toEqual([
      "audit.html",
      "audit.json",
      "audit.md",
      "brands.csv",
      "daily.csv",
      // No events.csv: the scheduled audit reads the listings' figures only (no --events).
      "findings.csv",
      "manifest.sha256",
      "report.csv",
      "services.csv",
      "sessions.csv",
      "vettings.csv",
    ]);
    const report = JSON.parse(readFileSync(join(audit.dir, "audit-report", day, "audit.json"), "utf8")) as { period: unknown; asked: { window: string } };
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(report.period).toEqual({ from: `${day}T00:00:00Z`, to: `${next}T00:00:00Z` });
    expect(report.asked.window).toBe("last 1d");
    // Run by hand with another period.
    const week = passed(await runGithubJob(scheduled, "audit", b.ctx(repo, { inputs: { audit_last: "7d" } })));
    const weekly = JSON.parse(readFileSync(join(week.dir, "audit-report", day, "audit.json"), "utf8")) as { period: { from: string }; asked: { window: string } };
    expect(weekly.asked.window).toBe("last 7d");
    expect(weekly.period.from).toBe(`${new Date(Date.parse(`${next}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
    b.calls();
  });

  it("pull request from a fork: not planned, and the run says so", async () => {
    const repo = b.repo(EXAMPLE);
    const plan = wf("wavix-plan.yml");
    const c = b.ctx(repo, { fork: true });
    expect((await runGithubJob(plan, "plan", c)).ran).toBe(false);
    const fork = passed(await runGithubJob(plan, "fork", c));
    expect(fork.summary).toContain("Not planned: this pull request comes from a fork");
    expect(fork.steps[0].stdout).toContain("::notice::Not planned");
    expect((await runGithubJob(plan, "fork", b.ctx(repo))).ran).toBe(false);
    expect(b.sim.log).toEqual([]);
  });

  it("pull request with an invalid file, then one whose plan fails: the comment is replaced by one saying so, with the errors, and the job fails", async () => {
    const repo = b.repo(EMPTY);
    repo.commit("broken", { "wavix.yaml": EXAMPLE.replace("numbers:", "numbers:\n  - bogus: 1") }, "A typo");
    const invalid = await runGithubJob(wf("wavix-plan.yml"), "plan", b.ctx(repo, { branch: "broken", rules: [{ cmd: "gh", match: "issues/7/comments --paginate", stdout: "987654\n" }] }));
    expect(invalid.ok).toBe(false);
    expect(invalid.steps.find((s) => s.name === "Validate")!.code).toBe(1);
    expect(invalid.skipped).toEqual(["Plan", "Fail on plan errors"]);
    const patch = b.calls().find((c) => c.args.includes("PATCH"))!;
    expect(patch.args[3]).toBe("repos/acme/wavix-account/issues/comments/987654");
    const body = patch.files["body=@comment.md"];
    expect(body.startsWith(`${PLAN_MARKER}\n### wavix-sync plan failed for wavix.yaml\n`)).toBe(true);
    expect(body).toMatch(/^ {4}wavix\.yaml:\d+:\d+: unknown key "bogus"/m);
    expect(body).toContain(`https://github.com/acme/wavix-account/actions/runs/${invalid.runId}`);
    expect(b.sim.log).toEqual([]);

    // A number the account does not own: the plan fails, the comment says so (never the old plan), then the job fails.
    repo.commit("broken", { "wavix.yaml": EXAMPLE.replace('"15551230003"', '"15559990000"') }, "A number we do not own");
    const failing = await runGithubJob(wf("wavix-plan.yml"), "plan", b.ctx(repo, { branch: "broken" }));
    expect(failing.ok).toBe(false);
    expect(failing.steps.map((s) => [s.name, s.code]).slice(-3)).toEqual([
      ["Replace the plan comment", 0],
      [UPLOAD, 0],
      ["Fail on plan errors", 1],
    ]);
    const post = b.calls().find((c) => c.args.includes("POST"))!;
    expect(post.files["body=@comment.md"].startsWith(PLAN_MARKER + "\n")).toBe(true);
    expect(post.files["body=@comment.md"]).toContain("15559990000");
    expect(b.writes()).toEqual([]);
  });

  it("merge after the account changed: apply refuses the stale plan, re-plans with the read key; that plan, once reviewed, is applied by hand", async () => {
    const repo = b.repo(EMPTY);
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
    const planRun = passed(await runGithubJob(wf("wavix-plan.yml"), "plan", b.ctx(repo, { branch: "declare-account" })));
    await b.drift();
    const before = b.writes().length;
    const merge = repo.merge("declare-account");
    const apply = wf("wavix-apply.yml");
    const planMd = readFileSync(join(planRun.dir, "plan.md"), "utf8");
    const run = await runGithubJob(apply, "apply", b.ctx(repo, { rules: reviewedRun(merge, head, planRun.runId, planMd) }));
    expect(run.ok).toBe(false);
    expect(run.steps.find((s) => s.name === "Apply")!.code).toBe(1);
    expect(b.writes().length).toBe(before);
    expect(run.summary).toContain("**Not applied: apply refused or failed");
    // Its own paragraph (issue #36): after the apply report's last list item, a blank line first, else
    // GitHub's Markdown reads it as that item's lazy continuation.
    expect(run.summary).toContain("\n\n**Not applied: apply refused or failed");
    expect(run.summary.indexOf(APPLY_MARKER)).toBeLessThan(run.summary.indexOf("**Not applied"));
    const fresh = readFileSync(join(b.store.runs.get(run.runId)!.get("wavix-plan")!, "plan.md"), "utf8");
    expect(run.summary).toContain(`with plan_run_id ${run.runId} and plan_digest ${digestOf(fresh)}`);
    expect(run.summary).toContain(PLAN_MARKER);
    // The re-plan ran with the read key only.
    const replan = run.steps.find((s) => s.name === "Re-plan (nothing more applied)")!;
    expect(replan.stdout).toContain("::error::Not applied");
    expect(b.store.runs.get(run.runId)?.has("wavix-plan")).toBe(true);
    b.calls();
    // Reviewed: Actions → wavix apply → Run workflow on main with that run's id.
    const byHand = passed(await runGithubJob(apply, "apply", b.ctx(repo, { inputs: { plan_run_id: String(run.runId), plan_digest: digestOf(fresh) } })));
    expect(byHand.summary).toContain(`Applying the plan reviewed in run ${run.runId} (plan digest ${digestOf(fresh)}`);
    expect(byHand.summary).toContain("**Apply complete:**");
    expect(b.writes().length).toBeGreaterThan(before);
    expect(ghCalls(b.calls())).toEqual([]);
  });

  it("merge of a plan swapped after the review (same file, another valid digest) or with no plan comment: refused before any request, nothing applied", async () => {
    const repo = b.repo(EMPTY);
    const head = repo.commit("declare-account", { "wavix.yaml": EXAMPLE }, "Declare the account");
    const planRun = passed(await runGithubJob(wf("wavix-plan.yml"), "plan", b.ctx(repo, { branch: "declare-account" })));
    const comment = readFileSync(join(planRun.dir, "plan.md"), "utf8");
    // After the review the account changes, and someone who can write the artifact swaps in a plan of
    // the same file made now: its body and digest are valid, but it is not what the reviewers saw.
    await b.drift();
    const artifact = b.store.runs.get(planRun.runId)!.get("wavix-plan")!;
    await saveAnotherPlan(b.sim, planRun.dir, join(artifact, "wavix.plan"));
    const swapped = JSON.parse(readFileSync(join(artifact, "wavix.plan"), "utf8")) as { digest: string };
    expect(swapped.digest).not.toBe(digestOf(comment));
    const merge = repo.merge("declare-account");
    const apply = wf("wavix-apply.yml");
    const before = b.sim.log.length;
    const run = await runGithubJob(apply, "apply", b.ctx(repo, { rules: reviewedRun(merge, head, planRun.runId, comment) }));
    expect(run.ok).toBe(false);
    const step = run.steps.find((s) => s.name === "Apply")!;
    expect(step.code).toBe(1);
    expect(step.stdout + step.stderr).toContain(`this saved plan is not the one reviewed: its digest is ${swapped.digest}, and --expect-digest is ${digestOf(comment)}`);
    // Refused before any request: the write key's apply sent nothing at all (the re-plan reads).
    expect(b.sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
    expect(run.summary).toContain("**Not applied: apply refused or failed");
    // No plan comment on the pull request (removed, or never posted): the reviewed plan is unknown.
    const bare = await runGithubJob(apply, "apply", b.ctx(repo, { rules: reviewedRun(merge, head, planRun.runId, "a comment of someone else") }));
    expect(bare.ok).toBe(false);
    expect(bare.skipped).toContain("Apply");
    expect(bare.summary).toContain("**Not applied: no plan digest: the pull request's plan comment shows none");
    expect(b.sim.log.slice(before).filter((e) => e.method !== "GET")).toEqual([]);
    b.calls();
  });

  it("merge when main's wavix.yaml is not the reviewed one, with no plan run, or run by hand with a bad id or from another branch: nothing applied", async () => {
    const repo = b.repo(EXAMPLE);
    const apply = wf("wavix-apply.yml");
    // The reviewed run planned another file (another merge changed wavix.yaml since).
    const reviewed = 4242;
    const dir = join(b.store.root, "reviewed-by-hand");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "wavix.plan"), "{}\n");
    writeFileSync(join(dir, "wavix.yaml.sha256"), `${sha256("version: 1\n")}  wavix.yaml\n`);
    b.store.runs.set(reviewed, new Map([["wavix-plan", dir]]));
    const run = await runGithubJob(apply, "apply", b.ctx(repo, { inputs: { plan_run_id: String(reviewed) } }));
    expect(run.ok).toBe(false);
    expect(run.skipped).toContain("Apply");
    expect(run.summary).toContain(`**Not applied: main's wavix.yaml is not the file planned in run ${reviewed} (another change was merged since).**`);
    expect(run.summary).toContain(PLAN_MARKER);
    expect(b.store.runs.get(run.runId)?.has("wavix-plan")).toBe(true);
    // No pull request (or no successful plan run) for the merge commit.
    const none = await runGithubJob(apply, "apply", b.ctx(repo));
    expect(none.ok).toBe(false);
    expect(none.skipped).toEqual(expect.arrayContaining([DOWNLOAD, "Apply"]));
    expect(none.summary).toContain("**Not applied: no successful wavix plan run was found for the pull request merged as this commit.**");
    const gone = await runGithubJob(apply, "apply", b.ctx(repo, { inputs: { plan_run_id: "99" } }));
    expect(gone.steps.find((s) => s.name === DOWNLOAD)!.code).toBe(1);
    expect(gone.summary).toContain("**Not applied: run 99 has no saved plan.**");
    expect((await runGithubJob(apply, "apply", b.ctx(repo, { ref: "refs/heads/feature", inputs: { plan_run_id: "1" } }))).ran).toBe(false);
    const bad = await runGithubJob(apply, "apply", b.ctx(repo, { inputs: { plan_run_id: "1; rm -rf ~" } }));
    expect(bad.steps.find((s) => s.name === "Find the reviewed plan")!.stdout).toContain("::error::plan_run_id must be a run id");
    expect(b.writes()).toEqual([]);
    b.calls();
  });

  it("schedule: the audit fails the job on an error finding, and still uploads its reports", async () => {
    const repo = b.repo(EXAMPLE.replace("min_vetting_score: 75", "min_vetting_score: 90"));
    const failing = await runGithubJob(wf("wavix-scheduled.yml"), "audit", b.ctx(repo));
    expect(failing.steps.map((s) => [s.name, s.code])).toEqual([
      [CHECKOUT, 0],
      [SETUP_NODE, 0],
      ["Install", 0],
      ["Audit", 2],
      [UPLOAD, 0],
    ]);
    expect(failing.artifacts).toEqual([{ path: "audit-report/", exists: true }]);
    expect(failing.steps[3].stderr).toContain("audit: 1 error finding(s)");
    b.calls();
  });
});

/** jq, when installed, stands in for `gh --jq` (gh embeds gojq; these filters mean the same in both). */
const JQ = ["/usr/bin/jq", "/usr/local/bin/jq"].find((p) => existsSync(p));

describe("GitHub Actions examples: the gh --jq filters", () => {
  const filters = () =>
    ["wavix-plan.yml", "wavix-apply.yml", "wavix-scheduled.yml"].flatMap((f) => [...readFileSync(join(GITHUB, f), "utf8").matchAll(/--jq '([^']+)'/g)].map((m) => m[1]));
  const jq = (filter: string, input: unknown) => execFileSync(JQ!, ["-r", filter], { input: JSON.stringify(input) }).toString();

  it.skipIf(!JQ)("pick only the bot's own plan comment, the merged pull request's head, its plan run, the open drift issue (needs jq; skipped without it)", () => {
    const [comment, head, run, body, issue] = filters();
    const comments = [
      { id: 1, user: { login: "alice" }, body: "Looks good" },
      { id: 2, user: { login: "mallory" }, body: `${PLAN_MARKER}\nfake plan` },
      { id: 3, user: { login: "github-actions[bot]" }, body: "<!-- another bot -->" },
      { id: 4, user: { login: "github-actions[bot]" }, body: `${PLAN_MARKER}\nplan` },
    ];
    expect(jq(comment, comments)).toBe("4\n");
    expect(jq(comment, comments.slice(0, 3))).toBe("");
    // The apply job's: the digest the reviewers saw comes from the bot's plan comment only.
    expect(jq(body, comments)).toBe(`${PLAN_MARKER}\nplan\n`);
    expect(jq(body, comments.slice(0, 3))).toBe("");
    expect(jq(head, [{ number: 6, merged_at: null, head: { sha: "open1" } }, { number: 7, merged_at: "2026-01-01T00:00:00Z", head: { sha: "abc" } }])).toBe("7 abc\n");
    expect(jq(head, [{ number: 6, merged_at: null, head: { sha: "open1" } }])).toBe("");
    expect(jq(run, { workflow_runs: [{ id: 77 }] })).toBe("77\n");
    expect(jq(run, { workflow_runs: [] })).toBe("");
    expect(jq(issue, [{ number: 12 }])).toBe("12\n");
    expect(jq(issue, [])).toBe("");
  });
});
