/**
 * `wavix-sync simulator` flag and seed errors (issue #14): each refused with one line naming the
 * flag or the seed path, exit 1, never a Node error or a TypeError from inside the store.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli, scratch, writeYaml, type CliRun } from "../helpers/cli";

const clean = (r: CliRun) => {
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|ERR_SOCKET|RangeError|TypeError|is not a function/);
};

describe("simulator flags", () => {
  it("--api-key \"\" is refused, naming the flag", async () => {
    const r = await runCli(["simulator", "--port", "0", "--api-key", ""]);
    clean(r);
    expect(r.stderr).toContain("--api-key must not be empty.");
  });

  it("--port 70000 is refused with its range", async () => {
    const r = await runCli(["simulator", "--port", "70000"]);
    clean(r);
    expect(r.stderr).toContain("--port must be between 0 and 65535 (0 picks a free one).");
  });

  it("a port in use says so and how to pick another", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(["simulator", "--port", String(port)]);
      clean(r);
      expect(r.stderr).toBe(`Error: port ${port} is already in use on 127.0.0.1: pick another with --port, or --port 0 for a free one\n`);
    } finally {
      blocker.close();
    }
  });

  it("help shows each default once, in words", async () => {
    const r = await runCli(["simulator", "--help"]);
    expect(r.code).toBe(0);
    // Long option texts wrap at the terminal's width: compare the words.
    expect(r.stdout.replace(/\s+/g, " ")).toContain("accept this API key (repeatable; default: sim-demo-key)");
    expect(r.stdout).not.toContain("(default: [])");
    expect(r.stdout).toContain("--host <addr>");
  });
});

describe("simulator seed files", () => {
  it("wrong types are named by path in the seed, not `fields.number.replace is not a function`", async () => {
    const dir = scratch();
    const seed = writeYaml(
      dir,
      "seed.yaml",
      "numbers:\n  - { id: 1, number: 15550000001 }\n  - { id: two, number: \"15550000002\", sms_enabled: yes }\nsubAccounts:\n  - { id: 5, name: Acme }\nnumber: []\n",
    );
    const r = await runCli(["simulator", "--port", "0", "--seed", seed]);
    clean(r);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `Error: simulator seed ${seed}: numbers[0].number must be a string of digits (quote it: "15550000001"), got the number 15550000001`,
      `simulator seed ${seed}: numbers[1].id must be an integer, got the string "two"`,
      `simulator seed ${seed}: numbers[1].sms_enabled must be true or false, got the string "yes"`,
      `simulator seed ${seed}: subAccounts[0] is missing "api_key"`,
      `simulator seed ${seed}: unknown key "number" (expected organizationId, rngSeed, numbers, subAccounts, callWebhooks, calls, twoFaServices, brands, messages, trunks, disabledFeatures, senderIds, campaigns, profile, profileCallbacks)`,
    ]);
  });

  it("a missing seed file is one sentence", async () => {
    const r = await runCli(["simulator", "--port", "0", "--seed", "/nonexistent/seed.yaml"]);
    clean(r);
    expect(r.stderr).toBe("Error: cannot read simulator seed /nonexistent/seed.yaml: no such file\n");
  });
});
