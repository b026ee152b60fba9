/**
 * Colour and progress on a real pseudo-terminal (test/helpers/pty-driver.py), as a person sees them
 * (issue #36): a plan coloured as `terraform plan`, none with NO_COLOR or --no-color; a progress bar
 * while export and plan read a large account, cleared before the output. Off a terminal (a pipe),
 * neither: test/cli/habits.test.ts. Skipped, saying why, where python3's pty module is missing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { runOnTerminal, terminalUnavailable } from "../helpers/terminal";

const KEY = "habits-terminal-key";
const unavailable = terminalUnavailable();
const GREEN_PLUS = "\x1b[32m+\x1b[39m";
const YELLOW_TILDE = "\x1b[33m~\x1b[39m";

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
`;

describe.skipIf(unavailable !== undefined)(`colour and progress on a terminal${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
  it("colours the plan's symbols on a terminal; NO_COLOR and --no-color turn it off", async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
    const coloured = await runOnTerminal(["plan", "-f", file], env);
    expect(coloured.status).toBe(0);
    expect(coloured.transcript).toContain(`  ${GREEN_PLUS} sub_account "Acme Billing"`);
    expect(coloured.transcript).toContain(`  ${YELLOW_TILDE} number "15551230002"`);
    expect(coloured.transcript).toContain("\x1b[1mPlan: 1 to create, 1 to update");
    for (const [args, extra] of [
      [["plan", "-f", file], { NO_COLOR: "1" }],
      [["plan", "-f", file, "--no-color"], {}],
    ] as const) {
      const plain = await runOnTerminal([...args], { ...env, ...extra });
      expect(plain.status).toBe(0);
      expect(plain.transcript).toContain('+ sub_account "Acme Billing"');
      expect(plain.transcript).not.toMatch(/\x1b\[3[0-9]m/);
    }
  });

  it("export and plan of a large account show a bar on the terminal while they read, cleared before the output", async () => {
    sim = await startSimulator({ port: 0, seed: generateAccount({ numbers: 1_500 }), apiKeys: [{ key: KEY }] });
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
    const dir = scratch();
    const out = join(dir, "wavix.yaml");
    const exported = await runOnTerminal(["export", "--out", out], env);
    expect(exported.status).toBe(0);
    expect(exported.transcript).toMatch(/Exporting \[[^\]]*\] \d+\/\d+ pages/);
    expect(readFileSync(out, "utf8")).toContain('number: "15550001500"');
    const plan = await runOnTerminal(["plan", "-f", out], env);
    expect(plan.status).toBe(0);
    expect(plan.transcript).toMatch(/Reading the account \[[^\]]*\] \d+\/1[5-9] pages/);
    expect(plan.transcript).toContain("No changes. The account matches");
    // Off a terminal: no bar.
    const piped = await runCli(["plan", "-f", out], env);
    expect(piped.stderr).toBe("");
  }, 120_000);
});
