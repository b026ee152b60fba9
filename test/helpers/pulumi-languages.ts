/**
 * Pulumi programs in YAML, Python, Go and TypeScript (through a generated SDK) under the real engine,
 * against a resource provider plugin given by path or on PATH. The folders it makes are run by
 * `RealStack` (test/helpers/real-pulumi.ts) as a user's are: the CLI starts the language host beside
 * it (`npm run pulumi:cli` builds them: docs/PULUMI-TOOLING.md), the host runs the program, the
 * program registers resources through the generated SDK, the engine starts the plugin.
 *
 *   const sdk = generateSdks(SCHEMA, tmpDir);            // or a checked-in SDK folder
 *   const project = languageProject({ language: "python", program, sdkDir: sdk, providerPaths: { wavix: PLUGIN_DIR } });
 *   const stack = new RealStack({ projectDir: project.dir, env: project.env, config: {...}, secretKeys: [...] });
 *
 * Per language, what the folder holds:
 *  - yaml: Pulumi.yaml with `runtime: yaml` and the program's sections (no SDK: Pulumi YAML reads
 *    the package schema from the plugin, GetSchema);
 *  - python: `__main__.py`, and a virtualenv of its own (`runtime.options.virtualenv`) that sees the
 *    shared one's packages (.tools/python/venv: the pinned `pulumi`) and has the generated SDK
 *    installed with pip from a copy of its folder (`pip install --no-deps`);
 *  - go: `main.go`, a go.mod requiring the SDK's module with a `replace` to its folder and the CLI
 *    module's requirements (so the program builds with the modules the CLI was built with); the host
 *    builds the program with `go build`; GOFLAGS=-mod=mod completes go.sum from the module cache;
 *  - typescript: `index.ts` compiled with this repo's tsc against the generated SDK, itself compiled
 *    with its own tsconfig.json and installed in the folder's node_modules (as its package.json names
 *    it); the project runs `bin/index.js` (`typescript: false`: Pulumi's vendored TypeScript 3.8
 *    would type-check the program against today's declaration files).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLI, ROOT, engineUnavailable } from "./real-pulumi";

export type Language = "yaml" | "python" | "go" | "typescript";

/** The folder of the CLI and the language hosts. */
export const TOOLS_BIN = path.dirname(CLI);
/** The shared Python environment (scripts/python-env.js). */
export const PYTHON_DIR = path.join(ROOT, ".tools", "python");
const SHARED_PYTHON = path.join(PYTHON_DIR, "venv", "bin", "python");

const HOSTS: Record<Language, string> = {
  yaml: "pulumi-language-yaml",
  python: "pulumi-language-python",
  go: "pulumi-language-go",
  typescript: "pulumi-language-nodejs",
};

function unavailable(why: string): string {
  if (process.env.CI === "true") throw new Error(why);
  return why;
}

/**
 * Why programs in `language` cannot run here, or undefined when they can. Under CI=true (after
 * `.ci/run` ran `npm run pulumi:cli`) it throws instead: CI never skips these.
 */
export function languageUnavailable(language: Language): string | undefined {
  const engine = engineUnavailable();
  if (engine) return engine;
  if (!existsSync(path.join(TOOLS_BIN, HOSTS[language]))) {
    return unavailable(`no ${HOSTS[language]} beside the Pulumi CLI: run \`npm run pulumi:cli\` once (it builds the language hosts)`);
  }
  if (language === "python" && !existsSync(path.join(PYTHON_DIR, ".stamp"))) {
    const note = path.join(PYTHON_DIR, "unavailable");
    return unavailable(existsSync(note) ? readFileSync(note, "utf8").trim() : "no Python environment in .tools/python: run `npm run pulumi:cli` once (it makes one with pip)");
  }
  if (language === "go" && spawnSync("go", ["version"]).status !== 0) return unavailable("no Go toolchain on PATH: a Go program is built with `go build`");
  return undefined;
}

/** Why the SDK generator cannot run here (no Go), or undefined; CI never skips. */
export function sdkGeneratorUnavailable(): string | undefined {
  return spawnSync("go", ["version"]).status === 0 ? undefined : unavailable("no Go toolchain on PATH: the SDK generator is built from tools/pulumi/gen-sdk");
}

/** Writes the SDKs of `schema` into `outDir` (nodejs/, python/, go/) with `npm run sdk`; returns `outDir`. */
export function generateSdks(schema: string, outDir: string, version?: string): string {
  const args = [path.join(ROOT, "scripts", "gen-sdk.js"), "--schema", schema, "--out", outDir, ...(version ? ["--version", version] : [])];
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm run sdk failed: ${r.stderr}`);
  return outDir;
}

export interface LanguageProjectOptions {
  language: Language;
  /**
   * The program. yaml: the sections of Pulumi.yaml after name, runtime and plugins (`config:`,
   * `resources:`, `variables:`, `outputs:`); python: `__main__.py`; go: `main.go`; typescript: `index.ts`.
   */
  program: string;
  /** Pulumi.yaml's `name`. @default `wavix-<language>` */
  name?: string;
  /** A folder written by `npm run sdk` (nodejs/, python/, go/); python, go and typescript need it. */
  sdkDir?: string;
  /**
   * Provider plugins by package name → the folder holding `pulumi-resource-<name>`, written into
   * Pulumi.yaml as `plugins.providers[].path`.
   * @default {}
   */
  providerPaths?: Record<string, string>;
  /**
   * Folders put on the CLI's PATH after the CLI's own: the engine finds `pulumi-resource-<name>` there
   * when Pulumi.yaml names no path.
   * @default []
   */
  pathDirs?: string[];
  /** The project folder (made if missing). @default a new temporary folder */
  dir?: string;
}

export interface LanguageProject {
  dir: string;
  /** The environment `RealStack` needs for this project (its `env` option). */
  env: Record<string, string>;
}

function pulumiYaml(name: string, runtime: string, providerPaths: Record<string, string>, extra = ""): string {
  const plugins = Object.entries(providerPaths);
  const lines = [`name: ${name}`, runtime];
  if (plugins.length) {
    lines.push("plugins:", "  providers:");
    for (const [pkg, dir] of plugins) lines.push(`    - name: ${pkg}`, `      path: ${JSON.stringify(dir)}`);
  }
  return `${lines.join("\n")}\n${extra}`;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(" ")} failed:\n${r.stdout}${r.stderr}${r.error?.message ?? ""}`);
}

function needSdk(o: LanguageProjectOptions, lang: string): string {
  const dir = o.sdkDir ? path.join(o.sdkDir, lang) : "";
  if (!dir || !existsSync(dir)) throw new Error(`a ${o.language} program needs sdkDir with ${lang}/ (npm run sdk)`);
  return dir;
}

/** A virtualenv of the project's own that sees the shared one's packages, with the SDK installed. */
function pythonVenv(dir: string, sdk: string): string {
  const venv = path.join(dir, "venv");
  run(SHARED_PYTHON, ["-m", "venv", "--without-pip", venv], dir);
  const purelib = (python: string) => execFileSync(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
  writeFileSync(path.join(purelib(path.join(venv, "bin", "python")), "wavix-shared-venv.pth"), `${purelib(SHARED_PYTHON)}\n`);
  // pip builds in the folder it installs from: a copy keeps the SDK's folder as generated.
  const copy = mkdtempSync(path.join(dir, ".sdk-python-"));
  cpSync(sdk, copy, { recursive: true });
  run(SHARED_PYTHON, ["-m", "pip", "--python", path.join(venv, "bin", "python"), "install", "--quiet", "--no-deps", "--no-build-isolation", copy], dir, { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" });
  rmSync(copy, { recursive: true, force: true });
  return venv;
}

/**
 * Installs the generated TypeScript SDK as `node_modules/<its package name>`: its compiled `bin/`
 * when it has one (the checked-in sdk/nodejs: what a user installs), else compiled here first.
 */
function installNodeSdk(dir: string, sdk: string): void {
  if (existsSync(path.join(sdk, "bin", "package.json"))) {
    const pkg = JSON.parse(readFileSync(path.join(sdk, "bin", "package.json"), "utf8")) as { name: string };
    const target = path.join(dir, "node_modules", ...pkg.name.split("/"));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(sdk, "bin"), target, { recursive: true });
    return;
  }
  const build = mkdtempSync(path.join(dir, ".sdk-nodejs-"));
  cpSync(sdk, build, { recursive: true });
  linkNodeModules(build);
  run(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", build], build);
  const pkg = JSON.parse(readFileSync(path.join(build, "package.json"), "utf8")) as { name: string };
  const target = path.join(dir, "node_modules", ...pkg.name.split("/"));
  mkdirSync(path.dirname(target), { recursive: true });
  // As Pulumi's packages are published: the compiled bin/ with package.json in it (utilities.ts reads ./package.json).
  cpSync(path.join(build, "bin"), target, { recursive: true });
  cpSync(path.join(build, "package.json"), path.join(target, "package.json"));
  rmSync(build, { recursive: true, force: true });
}

/** `@pulumi/pulumi` and `@types/node` of this repo, linked into `dir/node_modules`. */
function linkNodeModules(dir: string): void {
  for (const name of ["@pulumi/pulumi", "@types/node"]) {
    const link = path.join(dir, "node_modules", ...name.split("/"));
    if (existsSync(link)) continue;
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(ROOT, "node_modules", ...name.split("/")), link);
  }
}

/** Makes a project folder of `language` running `program`; see the file's head for the layout. */
export function languageProject(o: LanguageProjectOptions): LanguageProject {
  const dir = o.dir ?? mkdtempSync(path.join(tmpdir(), `wavix-${o.language}-`));
  mkdirSync(dir, { recursive: true });
  const name = o.name ?? `wavix-${o.language}`;
  const providers = o.providerPaths ?? {};
  const env: Record<string, string> = {
    PATH: [TOOLS_BIN, ...(o.pathDirs ?? []), process.env.PATH ?? ""].join(path.delimiter),
    // A plugin the engine cannot find fails at once rather than after download attempts off this machine.
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  switch (o.language) {
    case "yaml":
      writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml(name, "runtime: yaml", providers, o.program));
      break;
    case "python": {
      const venv = pythonVenv(dir, needSdk(o, "python"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml(name, `runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: ${JSON.stringify(venv)}`, providers));
      writeFileSync(path.join(dir, "__main__.py"), o.program);
      break;
    }
    case "go": {
      const sdk = needSdk(o, "go");
      const sdkModule = /^module\s+(\S+)/m.exec(readFileSync(path.join(sdk, "go.mod"), "utf8"))?.[1];
      if (!sdkModule) throw new Error(`${sdk}/go.mod names no module`);
      // The CLI module's requirements too: the program then builds with the very module versions the
      // CLI and the Go host were built with — already downloaded and compiled (a program requiring only
      // sdk/v3 would select older versions of some 40 modules: downloads and minutes of compiling).
      // Its go.sum pins them; `go build` (-mod=mod) adds what is missing.
      const tools = readFileSync(path.join(ROOT, "tools", "pulumi", "go.mod"), "utf8");
      const pinned = [...tools.matchAll(/^require \(\n([\s\S]*?)^\)/gm)].flatMap((m) => m[1].split("\n").map((l) => l.replace(/\/\/.*/, "").trim()).filter(Boolean));
      const replaces = tools.split("\n").filter((l) => l.startsWith("replace "));
      writeFileSync(
        path.join(dir, "go.mod"),
        [`module ${name}`, "", "go 1.25", "", "require (", `\t${sdkModule} v0.0.0`, ...pinned.map((l) => `\t${l}`), ")", "", `replace ${sdkModule} => ${sdk}`, ...replaces, ""].join("\n"),
      );
      cpSync(path.join(ROOT, "tools", "pulumi", "go.sum"), path.join(dir, "go.sum"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml(name, "runtime: go", providers));
      writeFileSync(path.join(dir, "main.go"), o.program);
      Object.assign(env, { GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" });
      break;
    }
    case "typescript": {
      linkNodeModules(dir);
      installNodeSdk(dir, needSdk(o, "nodejs"));
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "bin/index.js" }, null, 2));
      writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { target: "ES2022", module: "commonjs", strict: true, outDir: "bin", types: ["node"], skipLibCheck: true, esModuleInterop: true }, files: ["index.ts"] }, null, 2),
      );
      writeFileSync(path.join(dir, "index.ts"), o.program);
      run(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], dir);
      writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml(name, "runtime:\n  name: nodejs\n  options:\n    typescript: false", providers, "main: bin/index.js\n"));
      break;
    }
  }
  return { dir, env };
}
