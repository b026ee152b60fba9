/**
 * The real OpenTofu for tests: the binary `npm run tofu:cli` builds (scripts/tofu-cli.js, OpenTofu
 * v1.10.6 from its Go module), run as a user runs it — `tofu init` finding `terraform-provider-wavix`
 * in a filesystem mirror that `wavix-sync tofu-install --dir` wrote (src/terraform/install.ts), then
 * plan, apply, import and destroy in a working folder of its own, with a local state file.
 *
 * Faithful to: everything the engine does — the go-plugin handshake and mutual TLS, schema checks,
 * the plan/apply consistency checks ("inconsistent result after apply"), refresh, replacement,
 * import, the state file and its sensitive attributes. Left out: a registry (the mirror stands in
 * for it: `init` verifies and locks the mirrored provider as it would a downloaded one).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installMirror, mirrorConfig } from "../../src/terraform/install";
import { traced } from "./trace";

export const ROOT = path.resolve(__dirname, "..", "..");
export const TOFU = path.join(ROOT, ".tools", "tofu", "bin", "tofu");

/**
 * Why the real OpenTofu cannot run here, or undefined when it can. CI (CI=true, after `.ci/run` ran
 * `npm run tofu:cli`) never skips: a missing binary fails the run there.
 */
export function tofuUnavailable(): string | undefined {
  if (existsSync(TOFU) && existsSync(path.join(ROOT, "dist", "terraform", "plugin", "main.js"))) return undefined;
  const why = "no OpenTofu in .tools/tofu/bin (or no dist/): run `npm run tofu:cli` once (it builds the pinned release from its Go module) and `npm run build`";
  if (process.env.CI === "true") throw new Error(why);
  return why;
}

export interface TofuRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TofuProject {
  readonly dir: string;
  /** Writes main.tf (and any other files). */
  write(files: Record<string, string>): void;
  /** Runs `tofu ARGS` in the folder (asynchronous: the simulator answering the provider runs in this process). */
  run(args: string[], env?: Record<string, string>): Promise<TofuRun>;
  /** Runs and throws, with everything printed, unless the exit code is one of `codes`. */
  must(args: string[], codes?: number[], env?: Record<string, string>): Promise<TofuRun>;
  /** The state file, parsed. */
  state(): TofuState;
  remove(): void;
}

export interface TofuStateResource {
  mode: string;
  type: string;
  name: string;
  instances: { attributes: Record<string, unknown>; sensitive_attributes: unknown[]; private?: string }[];
}

export interface TofuState {
  resources: TofuStateResource[];
}

/** A working folder, with the provider installed in a mirror of its own and a CLI configuration naming it. */
export function tofuProject(env: Record<string, string> = {}): TofuProject {
  const dir = mkdtempSync(path.join(tmpdir(), "wavix-tofu-"));
  const mirror = path.join(dir, ".mirror");
  installMirror(mirror);
  const cliConfig = path.join(dir, ".tofurc");
  writeFileSync(cliConfig, mirrorConfig(mirror));
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    TF_INPUT: "0",
    ...env,
  };
  const run = (args: string[], extra: Record<string, string> = {}): Promise<TofuRun> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const trace = traced(TOFU, [...args], "tofu");
      const child = spawn(trace.cmd, trace.args, { cwd: dir, env: { ...baseEnv, ...extra }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        trace.done(Date.now() - started);
        resolve({ code: code ?? -1, stdout, stderr });
      });
    });
  return {
    dir,
    write(files) {
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    },
    run,
    async must(args, codes = [0], extra = {}) {
      const r = await run(args, extra);
      if (!codes.includes(r.code)) throw new Error(`tofu ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
      return r;
    },
    state() {
      const file = path.join(dir, "terraform.tfstate");
      return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as TofuState) : { resources: [] };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** {@link tofuProject} with its files written and `tofu init` run: where a test starts. */
export async function initialisedTofuProject(env: Record<string, string>, files: Record<string, string>): Promise<TofuProject> {
  const project = tofuProject(env);
  project.write(files);
  await project.must(["init", "-no-color"]);
  return project;
}

/** The provider block and its variables: the key from a sensitive variable (TF_VAR_wavix_api_key). */
export function providerBlock(baseUrl: string, extra = ""): string {
  return `terraform {
  required_providers {
    wavix = { source = "wavix-sync/wavix" }
  }
}

variable "wavix_api_key" {
  type      = string
  sensitive = true
}

provider "wavix" {
  api_key  = var.wavix_api_key
  base_url = ${JSON.stringify(baseUrl)}
${extra}}
`;
}

/**
 * What in OpenTofu's output is Pulumi's words, not Terraform's (src/terraform/plugin/server.ts
 * TERRAFORM_WORDS, TERRAFORM_GATE_NAMES): a Pulumi command, a stack config key, a camelCase
 * resource argument, a stack. Empty when the output speaks Terraform only.
 */
export function pulumiWordsIn(text: string): string[] {
  return [/.{0,40}pulumi.{0,40}/i, /.{0,40}wavix:[a-z].{0,40}/, /.{0,40}\b(onDelete|passwordVersion|subAccountId)\b.{0,40}/, /.{0,40}\bstack\b.{0,40}/]
    .map((re) => re.exec(text)?.[0])
    .filter((x): x is string => x !== undefined);
}
