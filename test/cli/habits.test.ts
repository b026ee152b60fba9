/**
 * An operator's habits from Terraform (issue #36), through the CLI as a child process against the
 * real simulator over HTTP, counting its requests: `--target KIND/NAME`, `apply --lock-file`,
 * `--json-events`, and no colour off a terminal whatever is asked (the terminal side:
 * test/terminal/habits-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "habits-key-3b7e1d";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const FILE = `version: 1
sub_accounts:
  - name: Acme Billing
numbers:
  - number: "15551230002"
    sms_enabled: true
  - number: "15551230003"
    transcription_enabled: false
call_webhooks:
  post-call: https://hooks.acme.example/post-call
`;

async function start(latencyMs = 0) {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }], latencyMs, asyncDelayMs: 20 });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}
const writes = (s: Simulator) => s.log.filter((q) => q.method !== "GET");

describe("--target KIND/NAME", () => {
  it("plans and applies only the items named, says what it left out, and writes nothing else", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const full = JSON.parse((await runCli(["plan", "-f", file, "--json"], env)).stdout);
    expect(full.changes.length).toBeGreaterThanOrEqual(3);
    const plan = await runCli(["plan", "-f", file, "--target", "number/+15551230002", "--target", "sub_account/Acme Billing"], env);
    expect(plan.code).toBe(0);
    const left = full.changes.length - 2;
    expect(plan.stdout.split("\n")[0]).toBe(
      `Warning: --target in effect (number/15551230002, sub_account/Acme Billing): only the changes of these items are planned and applied; ${left} change${left === 1 ? "" : "s"} of other items left out. ` +
        "Use --target for exceptions (a fix that cannot wait), not routinely: run a plan without it afterwards.",
    );
    expect(plan.stdout).toContain('~ number "15551230002"');
    expect(plan.stdout).toContain('+ sub_account "Acme Billing"');
    expect(plan.stdout).not.toContain("call_webhook");
    expect(plan.stdout).toMatch(/^Plan: 1 to create, 1 to update, 0 to delete/m);
    const json = JSON.parse((await runCli(["plan", "-f", file, "--json", "--target", "number/15551230002"], env)).stdout);
    expect(json.changes.map((c: { key: string }) => c.key)).toEqual(["15551230002"]);
    expect(json.targeted).toEqual({ targets: ["number/15551230002"], left_out: full.changes.length - 1, left_out_problems: 0, unmatched: [] });

    const apply = await runCli(["apply", "-f", file, "--auto-approve", "--target", "number/15551230002"], env);
    expect(apply.code).toBe(0);
    expect(writes(sim!).map((q) => `${q.method} ${q.path}`)).toEqual([expect.stringMatching(/^PATCH \/v1\/numbers/)]);
    // The rest still plans.
    const after = JSON.parse((await runCli(["plan", "-f", file, "--json"], env)).stdout);
    expect(after.changes.length).toBe(full.changes.length - 1);
  });

  it("a target that matches nothing is named; a bad one is one line; --plan takes none", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const none = await runCli(["plan", "-f", file, "--target", "number/15559999999"], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("Warning: --target number/15559999999: no change or problem (already as the file says, or not declared in it).");
    expect(none.stdout).toContain("No changes to the targeted items.");
    const bad = await runCli(["plan", "-f", file, "--target", "numbers"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split("\n")[0]).toMatch(/^Error: --target takes KIND\/NAME, KIND one of sub_account, .* got "numbers"$/);
    const sent = sim!.log.length;
    const withPlan = await runCli(["apply", "-f", file, "--plan", "x.plan", "--target", "number/15551230002", "--auto-approve"], env);
    expect(withPlan.code).toBe(1);
    expect(withPlan.stderr).toContain("--target and --plan disagree");
    expect(sim!.log.length).toBe(sent);
  });
});

describe("apply --lock-file", () => {
  it("an apply while another run holds the lock stops before any request, naming the holder, and leaves the lock alone", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const lock = join(dir, "wavix.lock");
    // The holder: a run that is alive (this test's own process).
    const holder = { pid: process.pid, host: hostname(), started_at: "2026-11-27T17:00:00.000Z", command: "wavix-sync apply" };
    writeFileSync(lock, JSON.stringify(holder));
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--lock-file", lock], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: ${lock} is locked by wavix-sync apply (pid ${process.pid} on ${hostname()}, since 2026-11-27T17:00:00.000Z): two applies at once would each send every write. ` +
        `Wait for it to end and run again; if no such run exists any more, remove ${lock}. Nothing was applied.\n`,
    );
    expect(sim!.log).toEqual([]);
    expect(JSON.parse(readFileSync(lock, "utf8"))).toEqual(holder);
  });

  it("two applies started at once: one applies, the other stops; each write is sent once; no lock is left", async () => {
    const env = await start(100);
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const lock = join(dir, "wavix.lock");
    const one = () => runCli(["apply", "-f", file, "--auto-approve", "--lock-file", lock], env);
    const [a, b] = await Promise.all([one(), one()]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    expect([a, b].find((r) => r.code === 1)!.stderr).toMatch(/ is locked by wavix-sync apply \(pid \d+ on /);
    expect(writes(sim!).filter((q) => q.path.startsWith("/v1/calls/webhooks"))).toHaveLength(1);
    expect(writes(sim!).filter((q) => q.method === "POST" && q.path === "/v1/sub-organizations")).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
    // nor the file each run wrote its lock into before linking it in place (src/cli/lock.ts)
    expect(readdirSync(dir).filter((f) => f.startsWith("wavix.lock"))).toEqual([]);
  }, 60_000);

  it("a lock left by a run that is gone is taken over, with a warning", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const lock = join(dir, "wavix.lock");
    // A pid no process has (above the usual pid_max of 4,194,304).
    writeFileSync(lock, JSON.stringify({ pid: 999_999_999, host: hostname(), started_at: "2026-11-27T00:00:00.000Z", command: "wavix-sync apply" }));
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--lock-file", lock], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`Warning: the lock file ${lock} was left by wavix-sync apply (pid 999999999, since 2026-11-27T00:00:00.000Z), which is no longer running: taking it over.\n`);
    expect(existsSync(lock)).toBe(false);
  });
});

describe("--json-events", () => {
  it("apply: one JSON object per line, in order: start, reads, planned changes, plan, progress, results, end", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--json-events"], env);
    expect(r.code).toBe(0);
    const events = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; time: string } & Record<string, unknown>);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("start");
    expect(types.at(-1)).toBe("end");
    expect(events.at(-1)).toMatchObject({ command: "apply", ok: true, exit_code: 0 });
    expect(types).toContain("read");
    const order = ["start", "read", "planned_change", "plan", "apply_progress", "apply_result", "end"];
    const firsts = order.map((t) => types.indexOf(t));
    expect(firsts.every((v, i) => v >= 0 && (i === 0 || v > firsts[i - 1]))).toBe(true);
    const changes = events.filter((e) => e.type === "planned_change");
    const results = events.filter((e) => e.type === "apply_result");
    expect(results).toHaveLength(changes.length);
    expect(results.every((e) => (e.result as { outcome: string }).outcome === "ok")).toBe(true);
    for (const e of events) expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT[0-9:.]+Z$/);
    expect(r.stdout).not.toContain(KEY);
  });

  it("plan with a problem: the problem as a diagnostic, then end with exit code 1; --json with it is refused", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", 'version: 1\nnumbers:\n  - number: "15559999999"\n');
    const r = await runCli(["plan", "-f", file, "--json-events"], env);
    expect(r.code).toBe(1);
    const events = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "diagnostic")).toEqual([
      expect.objectContaining({ severity: "error", kind: "number", key: "15559999999", at: { path: "numbers[0]", file, line: 3, col: 5 } }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: "end", ok: false, exit_code: 1 });
    const both = await runCli(["plan", "-f", file, "--json-events", "--json"], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("--json-events and --json disagree");
  });
});

describe("colour off a terminal", () => {
  it("never an escape code in a pipe, even when nothing says no colour", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["plan", "-f", file], { ...env, NO_COLOR: undefined, TERM: "xterm-256color" });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain("\x1b[");
  });
});
