/** Run the compiled CLI (`bin/wavix-sync.js`) as a child process, as a user or a pipeline would. */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(__dirname, "..", "..");
export const BIN = join(ROOT, "bin", "wavix-sync.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<CliRun> {
  return new Promise((done, fail) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env };
    delete childEnv.WAVIX_API_KEY;
    delete childEnv.WAVIX_BASE_URL;
    for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** A scratch folder for files a test writes. */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), "wavix-sync-test-"));
}

export function writeYaml(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
