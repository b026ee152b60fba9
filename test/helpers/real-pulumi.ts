/**
 * The real Pulumi engine for tests: the CLI built by `npm run pulumi:cli` (scripts/pulumi-cli.js,
 * Pulumi v3.259.0 from its Go module), a local file backend, a per-project PULUMI_HOME and
 * passphrase, driven through the Automation API (`@pulumi/pulumi/automation`).
 *
 * Faithful to: everything the engine does — step generation, replacements (`--replace`,
 * `state taint`), create-before-delete, the checkpoint, refresh, destroy, the dynamic-provider
 * plugin process (our `pulumi-resource-pulumi-nodejs` beside the CLI runs the program's own
 * `@pulumi/pulumi/cmd/dynamic-provider`, as Pulumi's own script does).
 * Left out: the nodejs language host binary (its Go module is not served here). The program runs
 * as an Automation API inline program: the SDK serves the language runtime in this process
 * (`automation/server.ts`) and the engine talks to it with `--client`. The program is the same
 * `runProgram` a user's `Pulumi.yaml` runs; the project folder is laid out as a user's project
 * that installed wavix-sync (`node_modules/wavix-sync`), which is where the plugin resolves the
 * provider from.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

export const ROOT = path.resolve(__dirname, "..", "..");
export const CLI = path.join(ROOT, ".tools", "pulumi", "bin", "pulumi");

/**
 * Why the real engine cannot run here, or undefined when it can. CI (CI=true, after `.ci/run` ran
 * `npm run pulumi:cli`) never skips: a missing CLI fails the run there.
 */
export function engineUnavailable(): string | undefined {
  if (existsSync(CLI) && existsSync(path.join(path.dirname(CLI), "pulumi-resource-pulumi-nodejs"))) return undefined;
  const why = "no Pulumi CLI in .tools/pulumi/bin: run `npm run pulumi:cli` once (it builds the pinned CLI from its Go module)";
  if (process.env.CI === "true") throw new Error(why);
  return why;
}

export interface Project {
  dir: string;
  env: Record<string, string>;
  stack: Stack;
  /**
   * Runs the CLI itself in the project (for what the Automation API lacks: `state taint`, `cancel`).
   * Asynchronous: the simulator answering the providers runs in this same process.
   */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * A project folder with wavix-sync installed, a file backend and a stack `dev` whose program is
 * `program` (inline), configured with `config` (keys ending in `apiKey` set as secrets).
 */
export async function realProject(program: () => Promise<Record<string, unknown>>, config: Record<string, string>): Promise<Project> {
  const dir = mkdtempSync(path.join(tmpdir(), "wavix-pulumi-"));
  mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
  symlinkSync(ROOT, path.join(dir, "node_modules", "wavix-sync"));
  symlinkSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dir, "node_modules", "@pulumi", "pulumi"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "a-wavix-stack", private: true }));
  mkdirSync(path.join(dir, ".state"));
  const env: Record<string, string> = {
    PATH: `${path.dirname(CLI)}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    WAVIX_API_KEY: "",
    WAVIX_BASE_URL: "",
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(path.dirname(CLI)) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", projectName: "wavix-sync", program },
    { workDir: dir, pulumiCommand, envVars: env, projectSettings: { name: "wavix-sync", runtime: "nodejs" } },
  );
  for (const [k, v] of Object.entries(config)) await stack.setConfig(k, { value: v, secret: /apiKey$/.test(k) });
  return {
    dir,
    env,
    stack,
    cli(args) {
      return new Promise((resolve) => {
        const child = spawn(CLI, [...args, "--stack", "dev", "--non-interactive"], { cwd: dir, env: { ...process.env, ...env } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
    },
  };
}
