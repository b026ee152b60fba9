/**
 * Each command's --help ends with the environment variables and exit codes that command uses, and
 * only those (`simulator --help` listing WAVIX_API_KEY and exit code 130 sent people looking for a
 * key the simulator never reads). `--version` names the version and the API root.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCli } from "../helpers/cli";

/** The names under "Environment:" and the codes under "Exit codes:" of a help text. */
function footer(help: string): { env: string[]; codes: string[] } {
  const section = (title: string) => {
    const m = new RegExp(`^${title}:\\n((?:  .*\\n?)*)`, "m").exec(help);
    return m ? m[1].split("\n").filter(Boolean).map((l) => l.trim().split(/\s+/)[0]) : [];
  };
  return { env: section("Environment"), codes: section("Exit codes") };
}

const API = ["WAVIX_API_KEY", "WAVIX_BASE_URL", "WAVIX_TIMEOUT", "WAVIX_MAX_PAGES", "WAVIX_SYNC_VERBOSE"];

describe("help footers", () => {
  it.each([
    ["validate", ["WAVIX_API_KEY"], ["0", "1"]],
    ["plan", [...API, "NO_COLOR"], ["0", "1", "2"]],
    ["apply", [...API, "NO_COLOR", "<password_env>"], ["0", "1", "130"]],
    ["audit", API, ["0", "1", "2"]],
    ["export", API, ["0", "1"]],
    ["show", ["NO_COLOR"], ["0", "1"]],
    ["simulator", [], ["0", "1"]],
    ["demo", ["WAVIX_SYNC_VERBOSE", "NO_COLOR"], ["0", "1"]],
    ["completion", [], ["0"]],
  ])("%s --help lists only its own variables and exit codes", async (command, env, codes) => {
    const r = await runCli([command, "--help"]);
    expect(r.code).toBe(0);
    expect(footer(r.stdout)).toEqual({ env, codes });
  });

  it("the top-level --help lists every variable and exit code once", async () => {
    const r = await runCli(["--help"]);
    expect(footer(r.stdout)).toEqual({ env: [...API, "NO_COLOR", "<password_env>"], codes: ["0", "1", "2", "130"] });
  });

  it("--version names the version and the API root (the default, or WAVIX_BASE_URL's, checked)", async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    expect((await runCli(["--version"])).stdout).toBe(`wavix-sync ${version}\nAPI root: https://api.wavix.com (the default; WAVIX_BASE_URL sets another)\n`);
    expect((await runCli(["-V"], { WAVIX_BASE_URL: "http://localhost:8787/" })).stdout).toBe(
      `wavix-sync ${version}\nAPI root: http://127.0.0.1:8787 (from WAVIX_BASE_URL; the default is https://api.wavix.com)\n`,
    );
    // A URL holding credentials is refused as every command refuses it, and never shown whole.
    const bad = await runCli(["--version"], { WAVIX_BASE_URL: "https://user:hunter2@api.example" });
    expect(bad.code).toBe(0);
    expect(bad.stdout).not.toContain("hunter2");
    expect(bad.stdout).toContain("API root: none usable: refusing base URL https://api.example: credentials in the URL are not allowed");
  });
});
