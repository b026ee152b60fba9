/**
 * `apply --plan FILE --expect-digest SHA256` (issue #33 item 8; docs/SAVED-PLANS.md, "The digest the
 * reviewer saw"): the attack first — a delete appended to the reviewed plan, for a call webhook made
 * after the review, the plan re-digested as anyone who can write the file can — accepted by `apply
 * --plan` alone (its digest proves integrity, not review); then the same file refused before any
 * request when the apply names the digest the pull-request comment showed. Through
 * the CLI (a child process) against the real simulator over HTTP; writes counted from its own log.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { canonicalKey } from "../../src/kit/change/diff";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "digest-master-key-2Lm6";
const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
call_webhooks:
  post-call: https://hooks.example/post
`;

async function start() {
  const sim = await startSimulator({
    port: 0,
    seed: { subAccounts: [{ id: 2001, name: "Acme Support", api_key: "digest-sub-key-1" }], callWebhooks: [] },
    apiKeys: [{ key: KEY }],
  });
  sims.push(sim);
  return { sim, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url } };
}

const writes = (sim: Simulator, from = 0) =>
  sim.log
    .slice(from)
    .filter((e) => e.method !== "GET")
    .map((e) => `${e.method} ${e.path}`);

type Doc = { digest: string; plan: { changes: Array<Record<string, unknown>>; summary: Record<string, number> } };

/**
 * The review: `plan --prune --save` and the PR comment (`--format md`); after it, an on-call webhook
 * is made in the account, and the reviewed plan gets a delete of it appended, re-digested.
 */
async function reviewedThenTampered() {
  const { sim, env } = await start();
  const dir = scratch();
  const file = writeYaml(dir, "wavix.yaml", FILE);
  const planFile = join(dir, "wavix.plan");
  const comment = join(dir, "plan.md");
  const reviewed = await runCli(["plan", "-f", file, "--prune", "--save", planFile, "--out", comment], env);
  expect(reviewed.code).toBe(0);
  // The digest the reviewer saw: the comment shows the short form, then the full one in parentheses.
  const shown = /\((sha256:[0-9a-f]{64})\)/.exec(readFileSync(comment, "utf8"))?.[1];
  const doc = JSON.parse(readFileSync(planFile, "utf8")) as Doc;
  expect(shown).toBe(doc.digest);
  expect(doc.plan.changes.map((c) => `${c.kind}:${c.action}:${c.key}`)).toEqual(["call_webhook:create:post-call"]);

  // After the review: someone makes an on-call webhook; the plan gets a delete of it, as a plan made now would hold it.
  sim.store.webhooksOf(sim.store.masterId).set("on-call", "https://hooks.example/on-call");
  const later = join(dir, "later.plan");
  expect((await runCli(["plan", "-f", file, "--prune", "--save", later], env)).code).toBe(0);
  const fresh = JSON.parse(readFileSync(later, "utf8")) as Doc;
  const appended = fresh.plan.changes.find((c) => c.key === "on-call" && c.action === "delete")!;
  expect(appended).toBeDefined();
  doc.plan.changes.push(appended);
  doc.plan.summary = fresh.plan.summary;
  doc.digest = `sha256:${createHash("sha256").update(canonicalKey(doc.plan)).digest("hex")}`;
  writeFileSync(planFile, JSON.stringify(doc, null, 2));
  return { sim, env, file, planFile, reviewedDigest: shown! };
}

describe("apply --plan --expect-digest: only the plan the reviewer saw (issue #33 item 8)", () => {
  it("the attack: without --expect-digest the tampered plan deletes a webhook nobody reviewed", async () => {
    const { sim, env, file, planFile } = await reviewedThenTampered();
    const mark = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve"], env);
    expect(run.code).toBe(0);
    expect(writes(sim, mark)).toContain("DELETE /v1/calls/webhooks");
  });

  it("with the reviewed digest: refused before any request, naming both digests; zero writes", async () => {
    const { sim, env, file, planFile, reviewedDigest } = await reviewedThenTampered();
    const mark = sim.log.length;
    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve", "--expect-digest", reviewedDigest], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`this saved plan is not the one reviewed: its digest is sha256:`);
    expect(run.stderr).toContain(`and --expect-digest is ${reviewedDigest}`);
    expect(run.stderr).toContain("nothing was applied");
    expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // Not a write, nor a read: the plan is refused before the client sends anything.
    expect(sim.log.slice(mark)).toEqual([]);
    expect(sim.store.webhooksOf(sim.store.masterId).has("on-call")).toBe(true);
  });

  it("the reviewed plan itself, with its digest (bare hex or upper case too), applies; a short digest or one without --plan is refused", async () => {
    const { sim, env } = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const planFile = join(dir, "wavix.plan");
    expect((await runCli(["plan", "-f", file, "--prune", "--save", planFile], env)).code).toBe(0);
    const digest = (JSON.parse(readFileSync(planFile, "utf8")) as Doc).digest;

    const short = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve", "--expect-digest", digest.slice(7, 19)], env);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("--expect-digest needs the plan's full digest");
    const alone = await runCli(["apply", "-f", file, "--auto-approve", "--expect-digest", digest], env);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain("--expect-digest needs --plan PLANFILE");
    expect(writes(sim)).toEqual([]);

    const run = await runCli(["apply", "--plan", planFile, "-f", file, "--prune", "--auto-approve", "--expect-digest", digest.slice(7).toUpperCase()], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(writes(sim)).toEqual(["POST /v1/calls/webhooks"]);
  });
});
