/**
 * A user's own Pulumi program on the PACKED package (issue #33 items 1 and 2; docs/GUARD-RAILS.md):
 * the tarball `npm pack` makes, installed with npm into a new Node.js project as a user installs it
 * (its peer `@pulumi/pulumi` linked from this checkout, as test/helpers/pulumi-project.ts does), running
 * the program docs/PULUMI.md documents — `declareResources(loadStateOrThrow("wavix.yaml"))` — under
 * the real engine (test/helpers/real-pulumi.ts) against the simulator, writes counted from its log.
 *
 * - The review saw `PUT /v1/sub-organizations/501 {"status":"disabled"}` and `POST /v1/calls/webhooks`
 *   sent into account 2002 although the file pins account 1000, the first `GET /v1/profile` after the
 *   writes: now the pin is checked before anything is declared, and nothing is written.
 * - The review saw 22 PUTs for 22 sub-accounts disabled in one `pulumi up`: now the preview fails
 *   before any write, naming `wavix:maxDestructive` and `wavix:force`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { packPackage, run } from "../helpers/consumer";
import { ROOT, scratch } from "../helpers/cli";
import { EngineError, RealStack, engineUnavailable, must } from "../helpers/real-pulumi";

const KEY = "own-program-key-8Tw2";
const LONG = 600_000;
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`own-program (packed package) tests skipped: ${unavailable}\n`);

const NAMES = Array.from({ length: 22 }, (_, i) => `Tenant ${String(i + 1).padStart(2, "0")}`);
const fileWith = (status: string, head = "") =>
  `version: 1\n${head}sub_accounts:\n${NAMES.map((n) => `  - name: ${n}\n    status: ${status}\n`).join("")}call_webhooks:\n  on-call: https://hooks.example.com/on-call\n`;
const PROGRAM = `const { declareResources, loadStateOrThrow } = require("wavix-sync/pulumi");\ndeclareResources(loadStateOrThrow("wavix.yaml"));\n`;

describe.skipIf(unavailable !== undefined)("a user's own Pulumi program on the packed package (real engine)", () => {
  let sim: Simulator;
  let dir: string;
  const writes = (from = 0): string[] => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      seed: { organizationId: 2002, numbers: [], subAccounts: NAMES.map((name, i) => ({ id: 501 + i, name, api_key: `own-sub-key-${i}-q7W` })) },
      apiKeys: [{ key: KEY }],
    });
    const pkg = packPackage();
    dir = join(scratch(), "acme-infra");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "acme-infra", private: true, dependencies: { "wavix-sync": `file:${pkg.tarball}` } }, null, 2));
    // The package as npm installs it (its own dependencies from the registry or the cache); its peer
    // @pulumi/pulumi is the one this checkout's engine tests use.
    run("npm", ["install", "--ignore-scripts", "--legacy-peer-deps", "--no-audit", "--no-fund"], dir);
    symlinkSync(join(ROOT, "node_modules", "@pulumi"), join(dir, "node_modules", "@pulumi"), "dir");
    writeFileSync(join(dir, "Pulumi.yaml"), "name: acme-wavix\nruntime: nodejs\nmain: index.js\n");
    writeFileSync(join(dir, "index.js"), PROGRAM);
  }, LONG);

  afterAll(async () => {
    await sim?.close();
  });

  // One stack for both tests: the first leaves it empty.
  let shared: RealStack | undefined;
  const stack = () =>
    (shared ??= new RealStack({
      projectDir: dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    }));

  it("the file pins account 1000, the key is account 2002's: nothing declared, nothing written (the review saw a PUT and a POST)", async () => {
    writeFileSync(join(dir, "wavix.yaml"), fileWith("disabled", "account_id: 1000\n"));
    const s = stack();
    const at = sim.log.length;
    const failed = await failure(s.up());
    expect(failed).toBeInstanceOf(EngineError);
    expect(String((failed as Error).message)).toContain("wavix.yaml pins account_id 1000: set the same pin for the providers with `pulumi config set wavix:accountId 1000`; nothing was declared or written");
    expect(String((failed as Error).message)).not.toMatch(/\n\s+at /);
    expect(writes(at)).toEqual([]);
    expect(s.state().filter((r) => r.custom)).toEqual([]);
    // The pin given to the providers as the message says: the write gate compares it with the key's
    // account (2002) before any write, and refuses.
    s.setConfig("wavix:accountId", "1000");
    const pinned = await failure(s.up());
    expect(pinned).toBeInstanceOf(EngineError);
    expect(String((pinned as Error).message)).toMatch(/2002/);
    expect(String((pinned as Error).message)).toMatch(/1000/);
    expect(writes(at)).toEqual([]);
    s.setConfig("wavix:accountId", "2002");
  }, LONG);

  it("22 sub-accounts disabled in one deployment: the preview fails before any write, naming the limit and the override", async () => {
    writeFileSync(join(dir, "wavix.yaml"), fileWith("enabled"));
    const s = stack();
    await must(s.up()); // adopts the 22 as they are, and makes the webhook
    expect(writes().filter((w) => w.startsWith("PUT /v1/sub-organizations/"))).toEqual([]);
    writeFileSync(join(dir, "wavix.yaml"), fileWith("disabled"));
    const at = sim.log.length;
    const previewed = await failure(s.upWithPreview());
    expect(previewed).toBeInstanceOf(EngineError);
    expect(String((previewed as Error).message)).toMatch(/past the limit of 20 \(wavix:maxDestructive\)/);
    expect(String((previewed as Error).message)).toContain("wavix:force");
    expect(writes(at)).toEqual([]);
    expect([...sim.store.subAccounts.values()].filter((r) => r.data.status === "disabled")).toEqual([]);
  }, LONG);
});
