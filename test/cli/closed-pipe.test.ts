/**
 * A reader that goes away (`wavix-sync simulator --help | head -2`, `wavix-sync export | head`)
 * ends the CLI quietly: no unhandled EPIPE with Node's stack on the terminal.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { BIN } from "../helpers/cli";

/** Runs the CLI through a shell pipe into `head -c 1`, which exits after one byte. */
function throughHead(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    const quoted = args.map((a) => `'${a}'`).join(" ");
    const child = spawn("bash", ["-c", `set -o pipefail; "${process.execPath}" "${BIN}" ${quoted} | head -c 1 > /dev/null`], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => done({ code: code ?? -1, stderr }));
  });
}

describe("a closed pipe", () => {
  it.each([[["--help"]], [["simulator", "--help"]], [["demo"]]])("wavix-sync %j | head: no stack, exit 0", async (args) => {
    const r = await throughHead(args);
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.code).toBe(0);
  });
});
