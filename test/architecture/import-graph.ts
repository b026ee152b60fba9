/**
 * The import graph of src/ and the rules that keep the house one-way (docs/ARCHITECTURE.md, "The
 * four floors"). Every relative specifier counts, type-only ones too: `import`/`import type`,
 * `export … from`, side-effect `import "…"`, `import("…")` (also in type positions) and
 * `require("…")`. Used by test/architecture/imports.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** File (relative to the root, `/`-separated) → the files it imports, in order of appearance. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Package specifiers a file imports (`@pulumi/pulumi`, `yaml`), by file. */
export type PackageImports = ReadonlyMap<string, readonly string[]>;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["']([^"'\n]+)["']/g;

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.m?ts$/.test(e.name) && !/\.d\.m?ts$/.test(e.name)) out.push(path.relative(root, p).split(path.sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

/** Reads every TypeScript file under `root` (not `.d.ts`) and resolves its relative specifiers to files under `root`. */
export function readImports(root: string): { graph: ImportGraph; packages: PackageImports } {
  const files = sourceFiles(root);
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    const stem = base.replace(/\.(m?js)$/, "");
    for (const c of [base, `${stem}.ts`, `${stem}.mts`, `${stem}/index.ts`]) if (known.has(c)) return c;
    return undefined;
  };
  const graph = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(path.join(root, f), "utf8");
    const deps: string[] = [];
    const pkgs: string[] = [];
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1];
      if (spec.startsWith(".")) {
        const target = resolve(f, spec);
        if (target && !deps.includes(target)) deps.push(target);
      } else if (!spec.startsWith("node:") && !pkgs.includes(spec)) pkgs.push(spec);
    }
    graph.set(f, deps);
    packages.set(f, pkgs);
  }
  return { graph, packages };
}

/**
 * The import cycles of the graph: each strongly connected component of more than one file (or a
 * file that imports itself), its files sorted, the cycles in order of their first file.
 */
export function findCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  // Iterative Tarjan: a recursive walk of a long import chain could overflow the stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const deps = graph.get(top.node) ?? [];
      if (top.next < deps.length) {
        const dep = deps[top.next++];
        if (!graph.has(dep)) continue;
        if (!index.has(dep)) {
          index.set(dep, counter);
          low.set(dep, counter++);
          stack.push(dep);
          onStack.add(dep);
          work.push({ node: dep, next: 0 });
        } else if (onStack.has(dep)) low.set(top.node, Math.min(low.get(top.node)!, index.get(dep)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let x: string;
        do {
          x = stack.pop()!;
          onStack.delete(x);
          component.push(x);
        } while (x !== top.node);
        if (component.length > 1 || deps.includes(top.node)) out.push(component.sort());
      }
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Where a file of src/ sits (docs/ARCHITECTURE.md, "The four floors"). */
export type Floor =
  | { readonly floor: "kit" }
  | { readonly floor: "kind"; readonly kind: string }
  | { readonly floor: "registry" }
  | { readonly floor: "simulator" }
  | { readonly floor: "above" };

/**
 * The floor of a file by its path under src/: the kit is `client/`, `util/` and `kit/`; a kind is
 * `kinds/<kind>/`; the registry is whatever else sits in `kinds/` (`kinds/index.ts`); the
 * simulator (a stand-in for the API) is its own island on the kit; everything else is above.
 */
export function floorOf(file: string): Floor {
  const [top, second, third] = file.split("/");
  if (top === "client" || top === "util" || top === "kit") return { floor: "kit" };
  if (top === "kinds") return third !== undefined ? { floor: "kind", kind: second } : { floor: "registry" };
  if (top === "simulator") return { floor: "simulator" };
  return { floor: "above" };
}

const isPublicFace = (file: string): boolean => /^kinds\/[^/]+\/(index|public)\.ts$/.test(file);

/** Why `from` may not import `to`; undefined when it may. */
export function floorRule(from: string, to: string): string | undefined {
  const a = floorOf(from);
  const b = floorOf(to);
  switch (a.floor) {
    case "kit":
      return b.floor === "kit" ? undefined : "the kit imports only the kit (never a kind, the registry, the simulator or what sits above)";
    case "kind":
      if (b.floor === "kit") return undefined;
      if (b.floor === "kind" && b.kind === a.kind) return undefined;
      if (b.floor === "kind") return isPublicFace(to) ? undefined : `a kind imports another kind only through its public face (kinds/${b.kind}/public.ts or index.ts)`;
      if (b.floor === "registry") return "a kind never imports the registry";
      return "a kind imports only the kit and other kinds' public faces (never the file loader, the plan engine, the Pulumi faces, the CLI, audit or the simulator)";
    case "registry":
      if (b.floor === "kit" || b.floor === "registry") return undefined;
      if (b.floor === "kind") {
        if (isPublicFace(to)) return undefined;
        // The file loader's part of the registry takes each kind's schema fragment and file form alone.
        if (from === "kinds/file-parts.ts" && /^kinds\/[^/]+\/(schema|file)\.ts$/.test(to)) return undefined;
        return "the registry imports each kind through its index.ts (kinds/file-parts.ts: its schema.ts and file.ts)";
      }
      return "the registry imports only the kinds and the kit (what iterates it sits above it)";
    case "simulator":
      return b.floor === "simulator" || b.floor === "kit" ? undefined : "the simulator stands in for the API: it imports only itself and the kit";
    case "above":
      return undefined;
  }
}

/** The packages only a Pulumi face may import: the kit's dynamic-resource base, a kind's pulumi.ts, and what sits above. */
export function packageRule(file: string, pkg: string): string | undefined {
  if (!/^@pulumi\//.test(pkg)) return undefined;
  const f = floorOf(file);
  if (f.floor === "kit" && !file.startsWith("kit/pulumi/")) return "the kit is engine-agnostic: only kit/pulumi/ may import @pulumi/* (the provider kit never does)";
  if (f.floor === "kind" && !file.endsWith("/pulumi.ts")) return "a kind's logic is engine-agnostic: only its pulumi.ts may import @pulumi/*";
  if (f.floor === "registry" || f.floor === "simulator") return "only the Pulumi faces import @pulumi/*";
  return undefined;
}

/** Every import that breaks a floor rule, as `from → to: why`. */
export function floorViolations(graph: ImportGraph, packages: PackageImports = new Map()): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      const why = floorRule(from, to);
      if (why) out.push(`${from} → ${to}: ${why}`);
    }
  }
  for (const [file, pkgs] of packages) {
    for (const pkg of pkgs) {
      const why = packageRule(file, pkg);
      if (why) out.push(`${file} → ${pkg}: ${why}`);
    }
  }
  return out.sort();
}
