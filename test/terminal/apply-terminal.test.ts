/**
 * A person at a terminal (issue #14): apply driven under a real pseudo-terminal (see
 * test/helpers/pty-driver.py), with Ctrl-C pressed mid-run, asserting what the screen showed and
 * what the account holds afterwards. Skipped, saying why, where python3's pty module is missing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { scratch, writeYaml } from "../helpers/cli";
import { plainText, runOnTerminal, terminalUnavailable } from "../helpers/terminal";

const KEY = "test-key-terminal";
const unavailable = terminalUnavailable();
const CTRL_C = "\u0003";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** 30 sub-accounts to create, slowly (every response takes `latencyMs`), two at a time. */
async function slowCreates(latencyMs: number) {
  sim = await startSimulator({ port: 0, seed: { numbers: [] } satisfies SimSeed, apiKeys: [{ key: KEY }], latencyMs });
  const names = Array.from({ length: 30 }, (_, i) => `Tenant ${String(i + 1).padStart(2, "0")}`);
  const file = writeYaml(scratch(), "wavix.yaml", `version: 1\nsub_accounts:\n${names.map((n) => `  - name: ${n}\n`).join("")}`);
  return { names, file, env: { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url } };
}

const createdNames = (s: Simulator) => [...s.store.subAccounts.values()].map((r) => r.data.name).sort();

/** Every time the progress bar turned line wrapping or the cursor off, it was turned back on later. */
function terminalRestored(transcript: string): void {
  for (const [off, on] of [
    ["\x1b[?7l", "\x1b[?7h"],
    ["\x1b[?25l", "\x1b[?25h"],
  ]) {
    const lastOff = transcript.lastIndexOf(off);
    if (lastOff !== -1) expect(transcript.indexOf(on, lastOff)).toBeGreaterThan(lastOff);
  }
}

describe.skipIf(unavailable !== undefined)(`apply on a terminal${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
  it("first Ctrl-C: in-flight writes finish, nothing new starts, the screen says what was and was not done, exit 130", async () => {
    const { names, file, env } = await slowCreates(150);
    const run = await runOnTerminal(
      ["apply", "-f", file, "--auto-approve", "--concurrency", "2"],
      env,
      [{ when: "Applying \\[[^\\]]*\\] ([4-9]|[1-9][0-9])/30", send: CTRL_C }],
    );
    const screen = plainText(run.transcript);
    expect(run.sent).toBe(1);
    expect(run.status).toBe(130);
    expect(screen).toContain("Interrupted: starting no new writes");
    const m = /Apply interrupted: (\d+) created, 0 updated, 0 deleted, (\d+) not started \(a re-run finishes the rest\)\./.exec(screen);
    expect(m, screen).not.toBeNull();
    const [created, notStarted] = [Number(m![1]), Number(m![2])];
    expect(created + notStarted).toBe(30);
    expect(notStarted).toBeGreaterThan(0);
    expect(screen).toMatch(/Done before the interruption: sub_account "Tenant \d\d" \(create\)/);
    expect(screen).toMatch(/Not started \(interrupted before they were sent; the account was not changed for them\): sub_account "Tenant \d\d" \(create\)/);
    // The account holds exactly what the screen said was created: no write after the report.
    const after = createdNames(sim!);
    expect(after).toHaveLength(created);
    expect(after.every((n) => names.includes(n))).toBe(true);
    terminalRestored(run.transcript);
    expect(screen).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("second Ctrl-C exits at once with 130, restoring the terminal and saying the state is unknown", async () => {
    const { file, env } = await slowCreates(400);
    const run = await runOnTerminal(
      ["apply", "-f", file, "--auto-approve", "--concurrency", "2"],
      env,
      [
        { when: "Applying \\[[^\\]]*\\] [2-9]/30", send: CTRL_C },
        { when: "Interrupted: starting no new writes", send: CTRL_C },
      ],
    );
    const screen = plainText(run.transcript);
    expect(run.sent).toBe(2);
    expect(run.status).toBe(130);
    expect(screen).toContain("Stopped at once: writes that were in flight may or may not have landed; run plan to see");
    expect(screen).not.toContain("Apply interrupted:");
    terminalRestored(run.transcript);
    expect(createdNames(sim!).length).toBeLessThan(30);
  });

  it("Ctrl-C at the confirmation prompt changes nothing and exits 130", async () => {
    const { file, env } = await slowCreates(0);
    const run = await runOnTerminal(["apply", "-f", file], env, [{ when: "Only 'yes' will be accepted", send: CTRL_C }]);
    expect(run.status).toBe(130);
    expect(plainText(run.transcript)).toContain("Apply cancelled: nothing was changed.");
    expect(createdNames(sim!)).toEqual([]);
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("the progress bar counts numbers, also inside bulk updates (not 0/300 then a jump)", async () => {
    const numbers = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, number: `1555${String(i).padStart(7, "0")}`, sms_enabled: false }));
    sim = await startSimulator({ port: 0, seed: { numbers }, apiKeys: [{ key: KEY }], latencyMs: 300 });
    const file = writeYaml(
      scratch(),
      "wavix.yaml",
      `version: 1\nnumbers:\n${numbers.map((n) => `  - number: "${n.number}"\n    sms_enabled: true\n`).join("")}`,
    );
    const run = await runOnTerminal(["apply", "-f", file, "--auto-approve", "--concurrency", "1"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(run.status).toBe(0);
    const shown = [...plainText(run.transcript).matchAll(/Applying \[[^\]]*\] (\d+)\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown.map(([, total]) => total))).toEqual(new Set([300]));
    // Between the start and the end, the bar showed numbers written in bulk (100 per PATCH).
    expect(shown.some(([v]) => v >= 100 && v < 300)).toBe(true);
    expect(plainText(run.transcript)).toContain("Apply complete: 0 created, 300 updated, 0 deleted.");
    expect([...sim.store.numbers.values()].every((n) => n.data.sms_enabled === true)).toBe(true);
    terminalRestored(run.transcript);
  });
});
