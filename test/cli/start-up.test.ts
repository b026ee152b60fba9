/**
 * What a CLI run loads before it does anything (issue #34; docs/SPEED.md, "Start-up"): every spawn
 * pays for each module it loads, in a pipeline step as in this suite. `--version`, the top-level
 * help and a typo load no command's module (the commands' heads, src/cli/heads.ts, are all they
 * list); a command loads its own module only; a bar library only on a terminal. Counted as modules,
 * not timed, so a load that grows fails here whatever the machine's speed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { modulesLoadedBy, runCli, scratch } from "../helpers/cli";

/** Each command's module under dist/cli/ (main.ts loads the one named). */
const COMMAND_MODULES = ["validate", "plan-apply", "audit", "export", "show", "simulator", "demo", "tofu-install", "completion"].map((m) => `cli/${m}.js`);

const commandModules = (modules: string[]) => modules.filter((m) => COMMAND_MODULES.includes(m));

/** Measured at 15 (main, output, colour, heads, the base URL's check, commander's 7 files, package.json); 373 before issue #34. */
const TOP_LEVEL_MOST = 20;

describe("start-up: what a run loads", () => {
  it.each([
    [["--version"], /^wavix-sync \d+\.\d+\.\d+\nAPI root: /, 0],
    [["--help"], /^Usage: wavix-sync \[options\] \[command\]/, 0],
    [["plna"], /^$/, 1],
  ])("%j loads no command's module, no client, and at most 20 modules in all", async (args, stdout, code) => {
    const run = await modulesLoadedBy(args);
    expect(run.code).toBe(code);
    expect(run.stdout).toMatch(stdout);
    if (args[0] === "plna") expect(run.stderr).toMatch(/unknown command 'plna'[\s\S]*Did you mean plan\?/);
    expect(run.modules).toContain("cli/main.js");
    expect(commandModules(run.modules)).toEqual([]);
    expect(run.modules).not.toContain("client/client.js");
    expect(run.modules.length, run.modules.join("\n")).toBeLessThanOrEqual(TOP_LEVEL_MOST);
  });

  it("the top-level help lists every command with the description and arguments its own help gives (the heads are the commands' own)", async () => {
    const top = (await runCli(["--help"])).stdout;
    const listed = [...top.matchAll(/^ {2}([a-z-]+) \[options\](?: (<[A-Z]+>))?/gm)].map((m) => [m[1], m[2]]);
    expect(listed.map(([name]) => name)).toEqual(COMMAND_MODULES.flatMap((m) => (m === "cli/plan-apply.js" ? ["plan", "apply"] : [m.slice(4, -3)])));
    for (const [name, arg] of listed) {
      const own = await runCli([name!, "--help"]);
      expect(own.code).toBe(0);
      expect(own.stdout.split("\n")[0], name).toBe(`Usage: wavix-sync ${name} [options]${arg ? ` ${arg}` : ""}`);
    }
  });

  it.each([
    [["help", "plan"], "cli/plan-apply.js"],
    [["show", "--help"], "cli/show.js"],
    [["validate", "--help"], "cli/validate.js"],
  ])("%j loads that command's module only", async (args, own) => {
    const run = await modulesLoadedBy(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: wavix-sync /);
    expect(commandModules(run.modules)).toEqual([own]);
  });

  describe("commands that run", () => {
    let sim: Simulator;
    let file: string;
    beforeAll(async () => {
      sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "start-up-key" }] });
      file = join(scratch(), "wavix.yaml");
      writeFileSync(file, "version: 1\nsub_accounts:\n  - name: Start-up Check\n    status: enabled\n");
    });
    afterAll(async () => {
      await sim?.close();
    });
    const env = () => ({ WAVIX_API_KEY: "start-up-key", WAVIX_BASE_URL: sim.url });

    it("validate loads no simulator, no progress bar and no other command", async () => {
      const run = await modulesLoadedBy(["validate", "-f", file]);
      expect(run.stdout).toMatch(/valid/);
      expect(run.code).toBe(0);
      expect(commandModules(run.modules)).toEqual(["cli/validate.js"]);
      expect(run.modules.filter((m) => m.startsWith("simulator/") || m.startsWith("cli-progress/"))).toEqual([]);
    });

    it.each([["plan"], ["apply", "--auto-approve"]])("%s without a terminal loads no progress bar, simulator, audit or Pulumi", async (...args) => {
      const run = await modulesLoadedBy([...args, "-f", file], env());
      expect(run.stderr).not.toMatch(/Error|internal/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Start-up Check/);
      expect(commandModules(run.modules)).toEqual(["cli/plan-apply.js"]);
      expect(run.modules.filter((m) => /^(cli-progress|string-width|simulator|audit|@pulumi)\//.test(m))).toEqual([]);
    });
  });
});
