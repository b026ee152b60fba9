/**
 * `wavix-sync validate` as a user runs it: the built CLI in a child process (docs/CONTRACT.md part 5).
 * Exit 0 with a one-line summary, or exit 1 with one problem per line on stderr, never a stack.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const BIN = join(ROOT, "bin", "wavix-sync.js");

function run(args: string[], cwd = ROOT): { code: number | null; stdout: string; stderr: string } {
  // No WAVIX_API_KEY and an unroutable base URL: validate must not need or use either.
  const env = { ...process.env, WAVIX_API_KEY: "", WAVIX_BASE_URL: "http://127.0.0.1:9" };
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/Error:/);
}

describe("wavix-sync validate", () => {
  beforeAll(() => {
    // dist/ is built once by test/global-setup.ts.
    expect(existsSync(join(ROOT, "dist", "cli", "validate.js"))).toBe(true);
  }, 120_000);

  it("prints a summary and exits 0 for the main example", () => {
    const r = run(["validate", "-f", "examples/wavix.yaml"]);
    expect(r).toEqual({ code: 0, stdout: "examples/wavix.yaml: valid (2 sub-accounts, 3 numbers, 2 call webhooks)\n", stderr: "" });
  });

  it("accepts --file and summarises the multi-tenant example", () => {
    const r = run(["validate", "--file", "examples/multi-tenant.yaml"]);
    expect(r).toEqual({ code: 0, stdout: "examples/multi-tenant.yaml: valid (4 sub-accounts, 3 numbers, 1 call webhook)\n", stderr: "" });
  });

  it("reads wavix.yaml in the current directory by default", () => {
    const dir = mkdtempSync(join(tmpdir(), "wavix-validate-"));
    writeFileSync(join(dir, "wavix.yaml"), "version: 1\nnumbers:\n  - number: \"15551230001\"\n");
    const r = run(["validate"], dir);
    expect(r).toEqual({ code: 0, stdout: "wavix.yaml: valid (0 sub-accounts, 1 number, 0 call webhooks)\n", stderr: "" });
  });

  it("prints every problem on its own line to stderr and exits 1", () => {
    const f = "test/config/fixtures/bad/many-problems.yaml";
    const r = run(["validate", "-f", f]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(`${f}:4:13: unknown status "on": expected enabled or disabled (at sub_accounts[0].status)`);
    expect(lines[1]).toBe(`${f}:7:18: expected a boolean, got the string "yes" (at numbers[0].sms_enabled)`);
    for (const l of lines) expect(l).toMatch(new RegExp(`^${f.replace(/\./g, "\\.")}:\\d+:\\d+: `));
    expectNoStack(r.stderr);
  });

  it("refuses a secret in the file without echoing it", () => {
    const r = run(["validate", "-f", "test/config/fixtures/bad/api-key-in-sub-account.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("WAVIX_API_KEY");
    expect(r.stderr).not.toContain("sk-live");
    expectNoStack(r.stderr);
  });

  it("reports a missing file in one line, without a stack", () => {
    const r = run(["validate", "-f", "does-not-exist.yaml"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "does-not-exist.yaml: cannot read file: no such file\n" });
  });

  it("reports YAML syntax errors with their position", () => {
    const f = "test/config/fixtures/bad/syntax-unclosed-flow.yaml";
    const r = run(["validate", "-f", f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^${f}:\\d+:\\d+: YAML: `));
  });

  it("names a duplicate key and still runs every other check (issue #22)", () => {
    const f = "test/config/fixtures/bad/syntax-duplicate-key.yaml";
    const r = run(["validate", "-f", f]);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `${f}:3:1: duplicate key "numbers": first at line 2; a key may appear once in a mapping (YAML would silently keep only the last) (at numbers)\n` +
        `${f}:4:13: invalid number "1555123000x": expected digits, with an optional leading "+" (at numbers[0].number)\n`,
    });
  });

  it("sends no request, even with a key and a reachable API", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const env = { ...process.env, WAVIX_API_KEY: "test-key", WAVIX_BASE_URL: `http://127.0.0.1:${port}` };
      const child = spawn(process.execPath, [BIN, "validate", "-f", "examples/wavix.yaml"], { cwd: ROOT, env });
      let out = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(0);
      expect(out).toContain("valid");
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
