/**
 * `@pulumi/pulumi` is an optional peer dependency (issue #15): a CLI-only install does not have it,
 * and no CLI command may load it. Each command runs with `@pulumi/*` made unloadable
 * (test/fixtures/block-pulumi.js) against the simulator.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT, runCli, scratch } from "../helpers/cli";

const KEY = "no-pulumi-key";
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
});
afterAll(async () => {
  await sim.close();
});

describe("the CLI without @pulumi/pulumi", () => {
  const example = join(ROOT, "examples", "wavix.yaml");
  const block = { NODE_OPTIONS: `--require ${join(ROOT, "test", "fixtures", "block-pulumi.js")}` };

  it("the blocker really blocks (so the runs below prove something)", async () => {
    const run = await runCli(["--help"], { ...block, NODE_OPTIONS: `${block.NODE_OPTIONS} --require @pulumi/pulumi` });
    expect(run.code).not.toBe(0);
  });

  it.each([
    ["--help", ["--help"]],
    ["validate", ["validate", "-f", example]],
    ["plan", ["plan", "-f", example, "--json"]],
    ["audit", ["audit", "-f", example, "--format", "json"]],
    ["export", ["export", "--out", join(scratch(), "exported.yaml")]],
  ])("%s runs", async (_name, args) => {
    const run = await runCli(args as string[], { ...block, WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(run.stderr).not.toContain("@pulumi");
    expect([0, 2], run.stderr).toContain(run.code);
  });
});
