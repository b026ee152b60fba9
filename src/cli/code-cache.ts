/**
 * V8's code cache for the CLI's modules: the bytecode of the package's own CommonJS modules and of
 * the CommonJS dependencies they load, saved at build time and handed to V8 when a module is
 * compiled, so a run does not parse and compile some 1 MB of JavaScript again. On this project's
 * machine a `plan` against the simulator went from 0.19 to 0.14 CPU-s (docs/SPEED.md, "Start-up and
 * the file").
 *
 * - `npm run build` records it (scripts/build-code-cache.js): the CLI runs a few commands with
 *   WAVIX_CODE_CACHE_RECORD set, every module compiled is kept with the code V8 made for it by the
 *   end of the run (`Script.createCachedData` after running, so functions compiled lazily are in it
 *   too), and the runs are merged into dist/cli/code-cache-<tag>.bin.
 * - The native Pulumi plugin has a cache of its own (dist/cli/plugin-code-cache-<tag>.bin), recorded
 *   by the same build step from a plugin the engine's calls are sent to; its launcher
 *   (bin/pulumi-resource-wavix) installs it: the engine starts several plugins an operation.
 * - The launcher (bin/wavix-sync.js) calls `installCodeCache` before it loads the CLI. The file's
 *   name carries `v8.cachedDataVersionTag()` (V8's version, its flags, the CPU's features): another
 *   Node.js finds no file and loads the way Node always does.
 * - A module's code is used only when the module's source has the CRC-32 recorded with it (zlib's,
 *   native: loading node:crypto for a SHA-1 was some 2 ms of every start; what this guards against
 *   is an edit, not an adversary, who could edit the module itself). V8's own check compares the
 *   source's length alone: a module edited to the same length would otherwise run its old bytecode
 *   (test/cli/code-cache.test.ts shows both).
 * - Anything this does not handle goes to Node's own `Module.prototype._compile`: ES modules, a
 *   file outside the package and its node_modules, a module the cache does not have, a source V8
 *   cannot compile as a CommonJS wrapper. WAVIX_CODE_CACHE=0 turns it off, for a preload that must
 *   see the package's modules go through its own `_compile` (a coverage tool's instrumentation).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";
import { crc32 } from "node:zlib";

/** One module's code: where it sits (`dist/…` in the package, `node_modules/…` a dependency), the CRC-32 of its source (hex), V8's data. */
export interface CachedModule {
  key: string;
  checksum: string;
  data: Buffer;
}

/** What the hook did in this process (test/cli/code-cache.test.ts reads it). */
export interface CodeCacheStats {
  /** Modules compiled with their cached code, which V8 accepted. */
  used: number;
  /** Modules whose cached code V8 refused. */
  rejected: number;
  /** Modules the cache has with another source (edited since it was recorded). */
  stale: number;
  /** Modules the cache does not have. */
  missing: number;
}

/** Which program's cache: the CLI's (bin/wavix-sync.js) or the native Pulumi plugin's (bin/pulumi-resource-wavix). */
export type CodeCacheOf = "cli" | "plugin";

/** The file holding `of`'s code cache for this process's V8 under the package `root`. */
export function codeCacheFile(root: string, of: CodeCacheOf = "cli"): string {
  return join(root, "dist", "cli", `${of === "plugin" ? "plugin-" : ""}code-cache-${cachedDataVersionTag()}.bin`);
}

/**
 * The format: a 4-byte little-endian length, a JSON header of that length (`[key, checksum, length][]`),
 * then each module's data in the header's order.
 */
export function encodeCodeCache(modules: readonly CachedModule[]): Buffer {
  const header = Buffer.from(JSON.stringify(modules.map((m) => [m.key, m.checksum, m.data.length])));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  return Buffer.concat([size, header, ...modules.map((m) => m.data)]);
}

export function decodeCodeCache(buf: Buffer): Map<string, CachedModule> {
  const size = buf.readUInt32LE(0);
  const header = JSON.parse(buf.toString("utf8", 4, 4 + size)) as [string, string, number][];
  const out = new Map<string, CachedModule>();
  let at = 4 + size;
  for (const [key, checksum, length] of header) {
    out.set(key, { key, checksum, data: buf.subarray(at, at + length) });
    at += length;
  }
  return out;
}

/** A module's key: its path from the package root, or a dependency's from the nearest node_modules (which differs between this checkout and a user's install). */
function keyOf(root: string, filename: string): string | undefined {
  const own = relative(root, filename);
  const nm = `node_modules${sep}`;
  if (!own.startsWith("..") && !own.startsWith(nm)) return own.split(sep).join("/");
  const at = filename.lastIndexOf(`${sep}${nm}`);
  return at < 0 ? undefined : `node_modules/${filename.slice(at + nm.length + 1).split(sep).join("/")}`;
}

type Compile = (this: Module, content: string, filename: string, format?: string) => unknown;
interface ModuleInternals {
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: Module): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

/** The `require` Node gives a CommonJS module (lib/internal/modules/helpers.js `makeRequireFunction`). */
function makeRequire(mod: Module): NodeJS.Require {
  const internals = Module as unknown as ModuleInternals;
  const req = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => internals._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => internals._resolveLookupPaths(request, mod);
  req.resolve = resolve;
  req.main = process.mainModule;
  req.extensions = internals._extensions as NodeJS.Require["extensions"];
  req.cache = internals._cache as NodeJS.Require["cache"];
  return req;
}

const stats: CodeCacheStats = { used: 0, rejected: 0, stale: 0, missing: 0 };

export function codeCacheStats(): CodeCacheStats {
  return { ...stats };
}

/**
 * Compile the package's CommonJS modules with the code cache under `root` (when this V8 has one),
 * and, with WAVIX_CODE_CACHE_RECORD=<file>, write the code of every module compiled to that file
 * when the process exits. Returns whether the hook is in place.
 */
export function installCodeCache(root: string, env: NodeJS.ProcessEnv = process.env, of: CodeCacheOf = "cli"): boolean {
  if (env.WAVIX_CODE_CACHE === "0") return false;
  const record = env.WAVIX_CODE_CACHE_RECORD;
  const file = codeCacheFile(root, of);
  let cache = new Map<string, CachedModule>();
  if (!record) {
    if (!existsSync(file)) return false;
    try {
      cache = decodeCodeCache(readFileSync(file));
    } catch {
      return false; // unreadable: load the way Node always does
    }
  }
  const compiled = new Map<string, { checksum: string; script: Script }>();
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  proto._compile = function compile(this: Module, content: string, filename: string, format?: string): unknown {
    const key = format === "module" ? undefined : keyOf(root, filename);
    if (key === undefined) return original.call(this, content, filename, format);
    const entry = cache.get(key);
    if (!record && !entry) {
      stats.missing++;
      return original.call(this, content, filename, format);
    }
    const checksum = crc32(content).toString(16);
    if (!record && entry!.checksum !== checksum) {
      stats.stale++;
      return original.call(this, content, filename, format);
    }
    let script: Script;
    try {
      script = new Script(Module.wrap(content), { filename, cachedData: record ? undefined : entry?.data });
    } catch {
      // Not a CommonJS wrapper's body (an ES module's syntax, a #! line): Node's own loader knows.
      return original.call(this, content, filename, format);
    }
    if (record) compiled.set(key, { checksum, script });
    else if (script.cachedDataRejected) stats.rejected++;
    else stats.used++;
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return Reflect.apply(wrapper, this.exports, [this.exports, makeRequire(this), this, filename, dirname(filename)]);
  };
  if (record) {
    process.on("exit", () => {
      const modules = [...compiled].map(([key, { checksum, script }]) => ({ key, checksum, data: script.createCachedData() }));
      writeFileSync(record, encodeCodeCache(modules));
    });
  }
  return true;
}
