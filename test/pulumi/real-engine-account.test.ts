/**
 * `wavix:index:Account` under the REAL Pulumi engine (issue #38 item 2; docs/PULUMI.md, "One
 * resource for a whole account"): a Pulumi YAML program declaring the whole file as ONE resource
 * of the native plugin (found by `plugins.providers[].path`, this checkout's bin/), against the
 * simulator in this process with 10,000 numbers, writes counted from its own request log. One stack
 * is shared across the assertions, in order:
 *  - `up` adopts the account as the file declares it: zero writes;
 *  - `pulumi preview --expect-no-changes` passes;
 *  - one number edited among the 10,000: the preview's detailed diff is that one property
 *    (`numbers["…"].smsEnabled`), and `up` sends exactly its one PATCH;
 *  - 25 numbers' SMS disabled (past wavix:maxDestructive's 20): `up` with its preview, and without
 *    it, refuse with zero writes;
 *  - `pulumi state delete` + `pulumi import wavix:index:Account account wavix.yaml`: zero writes, and
 *    a no-change preview after;
 *  - a per-number stack (wavix:index:PhoneNumber resources) moved to the Account resource by the
 *    documented steps: zero writes;
 *  - the ready root program with `wavix-sync:granularity account`: one resource, no change after up.
 *
 * Skipped, saying why, only where `npm run pulumi:cli` has not run; never under CI=true.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import { languageProject, languageUnavailable } from "../helpers/pulumi-languages";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";
import { EngineError, RealStack, ROOT, must } from "../helpers/real-pulumi";

const KEY = `account-key-${randomBytes(6).toString("hex")}`;
const PLUGIN_DIR = path.join(ROOT, "bin");
const LONG = 600_000;
const N = 10_000;
const seed = generateAccount({ numbers: N, seed: 11 });
const NUMBERS = seed.numbers!;
const off = NUMBERS.findIndex((n, i) => i > 400 && !n.sms_enabled);
const on = NUMBERS.map((n, i) => (n.sms_enabled ? i : -1)).filter((i) => i >= 0).slice(0, 25);

/** The file declaring every number's SMS setting as the account has it, `flip`ped where asked. */
function fileText(flip: number[] = [], count = N): string {
  const lines = ["version: 1", "numbers:"];
  NUMBERS.slice(0, count).forEach((n, i) => lines.push(`  - number: "${n.number}"`, `    sms_enabled: ${flip.includes(i) ? !n.sms_enabled : n.sms_enabled}`));
  return `${lines.join("\n")}\n`;
}

const ACCOUNT_PROGRAM = `resources:
  account:
    type: wavix:index:Account
    properties:
      file: wavix.yaml
outputs:
  digest: \${account.digest}
`;

let sim: Simulator;
const made: string[] = [];
const projects: TempProject[] = [];
const writes = (from: number): string[] => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
/** The steps of the resources, the stack's own left out. */
const resourceSteps = (r: { steps: Array<{ op: string; urn: string; name: string }> }) => r.steps.filter((s) => !s.urn.includes("::pulumi:pulumi:Stack::"));
const failure = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

const why = languageUnavailable("yaml");

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: KEY }] });
});

afterAll(async () => {
  await sim?.close();
  for (const d of made) rmSync(d, { recursive: true, force: true });
  for (const p of projects) p.remove();
});

function yamlStack(program: string, file: string): { stack: RealStack; dir: string } {
  const project = languageProject({ language: "yaml", program, providerPaths: { wavix: PLUGIN_DIR } });
  made.push(project.dir);
  writeFileSync(path.join(project.dir, "wavix.yaml"), file);
  const stack = new RealStack({
    projectDir: project.dir,
    env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
    secretKeys: ["wavix:apiKey"],
  });
  return { stack, dir: project.dir };
}

describe.skipIf(why !== undefined)(`one Account resource for 10,000 numbers under the real engine${why ? ` — skipped: ${why}` : ""}`, () => {
  let stack: RealStack;
  let dir: string;

  beforeAll(() => {
    ({ stack, dir } = yamlStack(ACCOUNT_PROGRAM, fileText()));
  });

  it("up adopts the account as declared: one resource, zero writes", { timeout: LONG }, async () => {
    const mark = sim.log.length;
    const up = await must(stack.up());
    expect(resourceSteps(up).map((s) => [s.op, s.name])).toEqual([["create", "account"]]);
    expect(writes(mark)).toEqual([]);
    const r = stack.resource("account")!;
    expect(r.type).toBe("wavix:index:Account");
    expect(r.id).toBe("1000");
    expect(r.outputs).toMatchObject({ file: "wavix.yaml", accountId: 1000, declared: { numbers: N }, lastApply: { unchanged: N } });
    // The state holds the file's path and digest, not its 10,000 entries (the account was as declared).
    expect(Object.keys(r.inputs).sort()).toEqual(["file", "fileSha256"]);
    expect(stack.checkpointText()).not.toContain(NUMBERS[0].number);
    expect(stack.checkpointText()).not.toContain(KEY);
  });

  it("a no-change preview names nothing (--expect-no-changes passes) and reads listing pages, not a number at a time", { timeout: LONG }, async () => {
    const mark = sim.log.length;
    const preview = await must(stack.preview({ expectNoChanges: true }));
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writes(mark)).toEqual([]);
    // 10,000 numbers in pages of 100 (and the profile): no GET of a single number.
    expect(sim.log.slice(mark).filter((e) => /^\/v1\/numbers\/\d+$/.test(e.path))).toEqual([]);
    expect(sim.log.length - mark).toBeLessThanOrEqual(N / 100 + 5);
  });

  it("one number edited among 10,000 is previewed as that one property; up writes exactly it", { timeout: LONG }, async () => {
    writeFileSync(path.join(dir, "wavix.yaml"), fileText([off]));
    const mark = sim.log.length;
    const shown = await stack.cli(["preview", "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    const steps = (JSON.parse(shown.stdout) as { steps: Array<{ op: string; urn: string; detailedDiff?: Record<string, { kind: string }> }> }).steps.filter((s) => s.urn.endsWith("::account"));
    expect(steps.map((s) => s.op)).toEqual(["update"]);
    expect(steps[0].detailedDiff).toEqual({ [`numbers["${NUMBERS[off].number}"].smsEnabled`]: expect.objectContaining({ kind: "update" }) });
    // What a person sees: the one number, the one property and its new value; no other number.
    const text = await stack.cli(["preview", "--diff"]);
    expect(text.stdout).toMatch(new RegExp(`numbers[\\s\\S]*${NUMBERS[off].number}[\\s\\S]*smsEnabled[^\\n]*true`));
    expect(NUMBERS.filter((n, i) => i !== off && text.stdout.includes(n.number))).toEqual([]);
    expect(writes(mark)).toEqual([]);

    const up = await must(stack.up());
    expect(resourceSteps(up).map((s) => s.op)).toEqual(["update"]);
    expect(writes(mark)).toEqual([expect.stringMatching(new RegExp(`^PATCH /v1/numbers(/${NUMBERS[off].id})?$`))]);
    expect(stack.resource("account")!.outputs).toMatchObject({ lastApply: { update: 1, unchanged: N - 1 } });
    await must(stack.preview({ expectNoChanges: true }));
  });

  it("25 numbers' SMS disabled (past wavix:maxDestructive's 20): up with and without its preview refuse, zero writes", { timeout: LONG }, async () => {
    writeFileSync(path.join(dir, "wavix.yaml"), fileText([off, ...on]));
    const mark = sim.log.length;
    const previewed = await failure(stack.upWithPreview());
    expect(previewed).toBeInstanceOf(EngineError);
    expect(String((previewed as Error).message)).toMatch(/25 destructive changes in all pass wavix:maxDestructive 20/);
    expect(String((previewed as Error).message)).toContain("wavix:force");
    const skipped = await failure(stack.up());
    expect(skipped).toBeInstanceOf(EngineError);
    expect(writes(mark)).toEqual([]);
    expect(on.every((i) => sim.store.numbers.get(NUMBERS[i].id!)!.data.sms_enabled)).toBe(true);
    writeFileSync(path.join(dir, "wavix.yaml"), fileText([off]));
  });

  it("pulumi import wavix:index:Account by the file's path: zero writes, and a no-change preview after", { timeout: LONG }, async () => {
    const urn = stack.resource("account")!.urn;
    const removed = await stack.cli(["state", "delete", urn, "--yes"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(stack.resource("account")).toBeUndefined();
    const mark = sim.log.length;
    const out = path.join(dir, "imported.yaml");
    const r = await stack.cli(["import", "wavix:index:Account", "account", "wavix.yaml", "--yes", "--out", out]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/type: wavix:Account[\s\S]*file: wavix\.yaml/);
    const imported = stack.resource("account")!;
    expect(imported.id).toBe("1000");
    expect(imported.inputs.file).toBe("wavix.yaml");
    const preview = await must(stack.preview({ expectNoChanges: true }));
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writes(mark)).toEqual([]);
  });
});

describe.skipIf(why !== undefined)(`a per-number stack moved to one Account resource${why ? ` — skipped: ${why}` : ""}`, () => {
  it("state delete of the PhoneNumbers, import of the Account: zero writes, no change after", { timeout: LONG }, async () => {
    const M = 20;
    const perNumber = `resources:\n${NUMBERS
      .slice(0, M)
      .map((n) => `  n${n.number}:\n    type: wavix:index:PhoneNumber\n    properties:\n      number: "${n.number}"\n      smsEnabled: ${n.sms_enabled}\n`)
      .join("")}`;
    const { stack, dir } = yamlStack(perNumber, fileText([], M));
    await must(stack.up());
    expect(stack.state().filter((r) => r.type === "wavix:index:PhoneNumber")).toHaveLength(M);

    const mark = sim.log.length;
    // The documented steps (docs/PULUMI.md, "Moving a per-number stack to one Account resource").
    const urns = stack.state().filter((r) => r.type === "wavix:index:PhoneNumber").map((r) => r.urn);
    const removed = await stack.cli(["state", "delete", ...urns, "--yes"]);
    expect(removed.code, removed.stderr).toBe(0);
    writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace(perNumber, ACCOUNT_PROGRAM));
    const r = await stack.cli(["import", "wavix:index:Account", "account", "wavix.yaml", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    await must(stack.preview({ expectNoChanges: true }));
    const up = await must(stack.up());
    expect(up.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(stack.state().map((s) => s.type)).toEqual(["pulumi:pulumi:Stack", "wavix:index:Account"]);
    expect(writes(mark)).toEqual([]);
  });
});

describe.skipIf(why !== undefined)(`the ready root program with wavix-sync:granularity account${why ? ` — skipped: ${why}` : ""}`, () => {
  it("declares the file as one wavix:index:Account; a second up changes nothing", { timeout: LONG }, async () => {
    const project = checkoutProject({ "wavix.yaml": fileText([], 50) });
    projects.push(project);
    project.write("Pulumi.yaml", `${project.read("Pulumi.yaml")}plugins:\n  providers:\n    - name: wavix\n      path: ${PLUGIN_DIR}\n`);
    const stack = new RealStack({
      projectDir: project.dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url, "wavix-sync:granularity": "account" },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
    const mark = sim.log.length;
    const up = await must(stack.up());
    expect(resourceSteps(up).map((s) => [s.op, s.name])).toEqual([["create", "account"]]);
    expect(stack.resource("account")!.type).toBe("wavix:index:Account");
    expect(up.outputs.declared).toEqual({ numbers: 50 });
    await must(stack.preview({ expectNoChanges: true }));
    expect(writes(mark)).toEqual([]);
  });
});
