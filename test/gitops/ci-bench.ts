/**
 * What the example-pipeline tests share: the package as `npm pack` makes it, a consumer repository
 * made from it per test, the forge's stubs, and the simulator standing in for the Wavix API with the
 * two keys the pipelines use, declared as `wavix-sync simulator --api-key` takes them (the read key
 * `KEY:read` can read everything and write nothing).
 */
import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseApiKey } from "../../src/cli/simulator";
import { WavixClient } from "../../src/client";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT } from "../helpers/cli";
import { consumerRepo, NPM_ENV, packPackage, type ConsumerRepo, type PackedPackage } from "../helpers/consumer";
import { artifactStore, forge, removeWorkspaces, type ArtifactStore, type Forge, type JobRun, type RunContext, type StubCall, type StubRule } from "./ci-runner";

/** The keys as a user rehearsing the pipelines gives them to `wavix-sync simulator --api-key`. */
export const READ_SPEC = "gitops-read-key-c0ffee01:read";
export const WRITE_SPEC = "gitops-write-key-c0ffee02";
export const READ_KEY = parseApiKey(READ_SPEC).key;
export const WRITE_KEY = parseApiKey(WRITE_SPEC).key;
export const NOTE_TOKEN = "glpat-note-stub-token";
export const BOT_TOKEN = "glpat-bot-stub-token";

/** The account's file as a first pull request declares it; the repository starts with an empty one. */
export const EXAMPLE = readFileSync(join(ROOT, "examples", "wavix.yaml"), "utf8");
export const EMPTY = "version: 1\n";

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// Each job runs npm ci and several CLI commands; generous on a loaded machine (no timing is asserted).
export const JOBS = { timeout: 600_000 };

export interface Bench {
  pkg: PackedPackage;
  sim: Simulator;
  forge: Forge;
  store: ArtifactStore;
  /** A consumer repository whose main branch holds `wavix.yaml` (the empty file unless given). */
  repo(wavixYaml?: string): ConsumerRepo;
  /** A run's context: the simulator, both forges' secret stores, the stubs' answers. */
  ctx(repo: ConsumerRepo, more?: Partial<RunContext> & { rules?: StubRule[] }): RunContext;
  /** The stubs' calls since the last look; npm never ran with a secret in its environment. */
  calls(): StubCall[];
  /** The requests that changed the account (accepted writes). */
  writes(): { method: string; path: string; status: number }[];
  /** Someone changes the account outside the pipeline (over the API, as a person would). */
  drift(): Promise<void>;
  /** The account brought in line with a file by hand (the CLI, with the write key). */
  applyByHand(file: string): Promise<void>;
}

/** Registers the hooks of a test file and returns what its tests use (valid inside tests). */
export function useBench(): Bench {
  const b = {} as Bench;
  beforeAll(() => {
    b.pkg = packPackage();
  }, 120_000);
  beforeEach(async () => {
    const keys = [READ_SPEC, WRITE_SPEC].map(parseApiKey).map(({ key, restricted }) => ({ key, restricted }));
    b.sim = await startSimulator({ port: 0, seed: "demo", apiKeys: keys, asyncDelayMs: 20 });
    b.forge = forge();
    b.store = artifactStore();
  });
  afterEach(async () => {
    await b.sim.close();
    removeWorkspaces();
  }, 300_000);
  b.repo = (wavixYaml = EMPTY) => consumerRepo(b.pkg, { "wavix.yaml": wavixYaml });
  b.ctx = (repo, more = {}) => ({
    repo,
    forge: b.forge,
    baseUrl: b.sim.url,
    secrets: { repository: { WAVIX_READ_KEY: READ_KEY }, environments: { wavix: { WAVIX_WRITE_KEY: WRITE_KEY } } },
    variables: {
      WAVIX_READ_KEY: { value: READ_KEY, environment: "wavix-read" },
      WAVIX_WRITE_KEY: { value: WRITE_KEY, protected: true, environment: "wavix" },
      WAVIX_NOTE_TOKEN: { value: NOTE_TOKEN, environment: "wavix-note" },
      WAVIX_BOT_TOKEN: { value: BOT_TOKEN, protected: true, environment: "wavix-bot" },
    },
    pullRequest: 7,
    store: b.store,
    ...more,
  });
  b.calls = () => {
    const all = b.forge.takeCalls();
    for (const c of all.filter((c) => c.cmd === "npm")) expect(c.secretsSeen, `npm ${c.args.join(" ")}`).toEqual([]);
    return all;
  };
  b.writes = () => b.sim.log.filter((e) => e.method !== "GET" && e.status < 400);
  b.drift = async () => {
    await new WavixClient({ apiKey: WRITE_KEY, baseUrl: b.sim.url }).upsertCallWebhook("on-call", "https://elsewhere.example/on-call");
  };
  b.applyByHand = async (file) => {
    await promisify(execFile)(process.execPath, [join(ROOT, "bin", "wavix-sync.js"), "apply", "-f", file, "--auto-approve"], {
      env: { ...process.env, WAVIX_API_KEY: WRITE_KEY, WAVIX_BASE_URL: b.sim.url },
    });
  };
  return b;
}

/** A job run that must have passed, with its output shown when it did not. */
export function passed(run: JobRun): JobRun {
  expect(run.ran, "the job ran").toBe(true);
  const failed = run.steps.filter((s) => s.code !== 0);
  expect(failed.map((s) => `${s.name} (exit ${s.code})\n${s.stdout}\n${s.stderr}`)).toEqual([]);
  return run;
}

/** The full digest a plan's Markdown shows (`Saved plan `abc…` (sha256:…)`), the one a reviewer saw. */
export function digestOf(md: string): string {
  const m = /^Saved plan `[0-9a-f]+` \((sha256:[0-9a-f]{64})\)/m.exec(md);
  expect(m, "the plan's Markdown shows its digest").not.toBeNull();
  return m![1];
}

/**
 * A saved plan of `dir`'s wavix.yaml made now with the read key (`plan --save FILE`): what someone who
 * can write an artifact could swap in for the reviewed one (same file, another account state, its own
 * valid digest).
 */
export async function saveAnotherPlan(sim: Simulator, dir: string, file: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    execFile(
      "npx",
      ["wavix-sync", "plan", "-f", "wavix.yaml", "--save", file],
      { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...NPM_ENV, WAVIX_API_KEY: READ_KEY, WAVIX_BASE_URL: sim.url } },
      (err, stdout, stderr) => (err && Number((err as { code?: number }).code) !== 2 ? fail(new Error(`plan --save failed: ${stdout}\n${stderr}`)) : done()),
    );
  });
}

/**
 * The read key cannot write: in a job's workspace (the package installed by its `npm ci`), an apply
 * with the plan job's key is refused by the simulator, and nothing is written. (Asynchronous: the
 * simulator answers from this process.)
 */
export async function applyWithReadKey(sim: Simulator, dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const before = sim.log.length;
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      "npx",
      ["wavix-sync", "apply", "-f", "wavix.yaml", "--auto-approve"],
      { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...NPM_ENV, WAVIX_API_KEY: READ_KEY, WAVIX_BASE_URL: sim.url } },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  const tried = sim.log.slice(before).filter((e) => e.method !== "GET");
  expect(tried.length, `the apply tried to write (exit ${r.code}):\n${r.stdout}\n${r.stderr}`).toBeGreaterThan(0);
  expect(tried.map((e) => e.status)).toEqual(tried.map(() => 403));
  return r;
}
