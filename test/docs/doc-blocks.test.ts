/**
 * Every command block of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md runs as written,
 * against the simulator, so a doc that lies fails CI (the convention: test/docs/doc-blocks.ts and
 * CONTRIBUTING.md, "Docs are tested").
 *
 * Each file is a session in a new user repository (git, the packed package installed as a dev
 * dependency; README.md starts before the install, which its Install section does, from the tarball
 * `npm pack` made, put where the section says). The account is the simulator's demo account:
 * WAVIX_BASE_URL points at it and WAVIX_API_KEY holds its key, and `<your-api-key>` in a block is that
 * key. The files other than README.md start with examples/wavix.yaml as wavix.yaml. The blocks of a
 * file run in order, each with `bash -e -o pipefail`, exported variables and the working directory
 * carried to the next; processes a block leaves in the background are stopped when the file ends.
 * Port 8787 in a block is replaced by a free port. Every ```yaml block that is a whole file (its first
 * key `version:`) must validate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { loadDesiredState, formatProblem } from "../../src/config";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT, scratch } from "../helpers/cli";
import { git, NPM_ENV, packPackage, run, type PackedPackage } from "../helpers/consumer";
import { parseDoc, type DocBlock } from "./doc-blocks";

const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const KEY = "doc-test-key-4f1e";
const parsed = DOCS.map((f) => parseDoc(join(ROOT, f), f));

let pkg: PackedPackage;
/** A repository with the package installed from the tarball, copied for each file but README.md. */
let installed: string;
beforeAll(() => {
  pkg = packPackage();
  installed = join(scratch(), "installed");
  mkdirSync(installed);
  git(installed, "init", "-q");
  run("npm", ["install", "--save-dev", "--ignore-scripts", pkg.tarball], installed);
}, 180_000);

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** The user's repository for one file. */
function repoFor(file: string): string {
  const dir = join(scratch(), "acme-wavix");
  if (file === "README.md") {
    mkdirSync(dir);
    git(dir, "init", "-q");
    // Where README's Install section takes the release tarball from.
    copyFileSync(pkg.tarball, join(dir, pkg.fileName));
  } else {
    // cp -a: the same copy as fs.cpSync at a third of its CPU (node_modules is some 3,000 files).
    run("cp", ["-a", installed, dir], ROOT);
    copyFileSync(join(ROOT, "examples", "wavix.yaml"), join(dir, "wavix.yaml"));
  }
  return dir;
}

interface BlockRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A session: the blocks of one file, in order, in one repository. */
class Session {
  private readonly state: string;
  private readonly groups: number[] = [];

  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {
    this.state = join(scratch(), "session");
    mkdirSync(this.state);
    writeFileSync(join(this.state, "env.sh"), "");
    writeFileSync(join(this.state, "cwd"), dir);
  }

  /** The block as the reader sees it, with the stand-ins for the reader's own values. */
  text(block: DocBlock): string {
    const unknown = block.text.match(/<your-[\w-]+>/g)?.filter((p) => p !== "<your-api-key>");
    if (unknown && unknown.length > 0) throw new Error(`${block.file}:${block.line}: unknown placeholder ${unknown[0]} (the doc test knows <your-api-key>)`);
    return block.text.replaceAll("<your-api-key>", KEY).replaceAll("8787", String(this.port));
  }

  run(block: DocBlock): Promise<BlockRun> {
    const out = join(this.state, `out-${block.line}`);
    const err = join(this.state, `err-${block.line}`);
    const script = [
      `cd "$(cat '${this.state}/cwd')"`,
      `source '${this.state}/env.sh'`,
      `trap 'export -p > "${this.state}/env.sh"; pwd > "${this.state}/cwd"' EXIT`,
      "set -e -o pipefail",
      this.text(block),
    ].join("\n");
    const fdOut = openSync(out, "w");
    const fdErr = openSync(err, "w");
    return new Promise((done, fail) => {
      // Its own process group: what the block leaves in the background is stopped at the end.
      const child = spawn("bash", ["--noprofile", "--norc", "-c", script], { cwd: this.dir, env: this.env, stdio: ["ignore", fdOut, fdErr], detached: true });
      if (child.pid) this.groups.push(child.pid);
      const timer = setTimeout(() => this.kill(child.pid), 240_000);
      child.on("error", fail);
      // "exit", not "close": a background process may hold the output files open.
      child.on("exit", (code) => {
        clearTimeout(timer);
        closeSync(fdOut);
        closeSync(fdErr);
        done({ code: code ?? -1, stdout: readFileSync(out, "utf8"), stderr: readFileSync(err, "utf8") });
      });
    });
  }

  private kill(pid: number | undefined): void {
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  }

  end(): void {
    for (const g of this.groups) this.kill(g);
  }
}

const tail = (s: string) => (s.length > 3000 ? `…${s.slice(-3000)}` : s);

describe("docs follow the convention", () => {
  it("every fence names its language, shell blocks are sh, markers are known and say why", () => {
    expect(parsed.flatMap((p) => p.problems)).toEqual([]);
  });

  it("every yaml block that is a whole file (first key version:) is valid", () => {
    const dir = scratch();
    const problems: string[] = [];
    let n = 0;
    for (const b of parsed.flatMap((p) => p.blocks)) {
      if (b.lang !== "yaml" || b.skip !== undefined || !/^version:/m.test(b.text.replace(/^(#.*\n|\s*\n)*/, "").split("\n")[0] ?? "")) continue;
      n++;
      const f = join(dir, `block-${n}.yaml`);
      writeFileSync(f, b.text);
      const r = loadDesiredState(f);
      if (!r.ok) problems.push(...r.problems.map((p) => `${b.file}:${b.line}: ${formatProblem(p)}`));
    }
    expect(n).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe("every sh block of the docs runs as written, against the simulator", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  });
  afterAll(async () => {
    await sim.close();
  });

  // A file without a block to run has nothing to test here (its fences are checked above).
  for (const runnable of parsed.map((doc) => doc.blocks.filter((b) => b.lang === "sh" && b.skip === undefined)).filter((r) => r.length > 0)) {
    const file = runnable[0].file;
    it(`${file}: ${runnable.length} block(s)`, { timeout: 900_000 }, async () => {
      // Each file on a fresh demo account, as a reader starting that page would have.
      await sim.close();
      sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
      const dir = repoFor(file);
      const home = join(scratch(), "home");
      mkdirSync(home);
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        LANG: "C.UTF-8",
        TERM: "dumb",
        GIT_AUTHOR_NAME: "Acme Ops",
        GIT_AUTHOR_EMAIL: "ops@acme.example",
        GIT_COMMITTER_NAME: "Acme Ops",
        GIT_COMMITTER_EMAIL: "ops@acme.example",
        GIT_CONFIG_NOSYSTEM: "1",
        WAVIX_BASE_URL: sim.url,
        WAVIX_API_KEY: KEY,
        ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
        ...NPM_ENV,
      };
      const session = new Session(dir, env, await freePort());
      try {
        for (const block of runnable) {
          const r = await session.run(block);
          if (r.code !== block.exit) {
            throw new Error(
              `${block.file}:${block.line}: the block ended with exit ${r.code}, expected ${block.exit}\n--- block\n${session.text(block)}--- stdout\n${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`,
            );
          }
        }
      } finally {
        session.end();
      }
      expect(existsSync(dir)).toBe(true);
    });
  }
});
