// The file loader's part of the registry (src/kinds/file-parts.ts): each kind's schema fragment and
// file form, without its plan handler, export or Pulumi schema. Held to the registry here, and the
// `audit`, which never plans, is held to loading none of the rest.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KINDS, kindsInFileOrder } from "../../src/kinds";
import { filePartsInFileOrder } from "../../src/kinds/file-parts";
import { startSimulator, type Simulator } from "../../src/simulator";
import { modulesLoadedBy, runCli, scratch } from "../helpers/cli";

describe("the kinds' file parts", () => {
  it("are the registry's kinds' own fragments and file forms, in the file's order", () => {
    const parts = filePartsInFileOrder();
    expect(parts.map((p) => p.name)).toEqual(kindsInFileOrder().map((k) => k.name));
    expect(parts).toHaveLength(KINDS.length);
    kindsInFileOrder().forEach((k, i) => {
      expect(parts[i].file, k.name).toBe(k.file);
      expect(parts[i].fileForm, k.name).toBe(k.fileForm);
    });
  });
});

describe("start-up of audit, which never plans", () => {
  let sim: Simulator | undefined;
  afterAll(async () => {
    await sim?.close();
  });

  /** Loading a kind's handler, export, Pulumi schema or the registry itself. */
  const planSide = (modules: string[]) => modules.filter((m) => m === "kinds/index.js" || /^kinds\/[^/]+\/(index|handler|export|pulumi-schema|saved|effects)\.js$/.test(m));

  it("audit loads the kinds' file parts only: no registry, no plan handler, no export, no Pulumi schema, no undici", async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "file-parts-key" }] });
    const dir = scratch();
    const file = join(dir, "wavix.yaml");
    writeFileSync(file, "version: 1\naudit:\n  ten_dlc:\n    brands: all\n");
    const run = await modulesLoadedBy(["audit", "-f", file, "--last", "30d", "--allow-incomplete"], { WAVIX_API_KEY: "file-parts-key", WAVIX_BASE_URL: sim.url });
    expect(run.stderr).not.toMatch(/internal error|Error:/);
    expect(run.modules).toContain("cli/audit.js");
    expect(run.modules).toContain("kinds/file-parts.js");
    expect(planSide(run.modules)).toEqual([]);
    // The client's own fetch reads and writes headers without the global Headers, whose first use
    // loads all of undici (40–80 ms and some 9 MB: docs/SPEED.md, "The audit beside a plain loop").
    expect(run.builtins.filter((m) => /undici/.test(m))).toEqual([]);
  });

  it("audit asks the profile before it loads its computation and renderers, which load while the profile is answered", async () => {
    sim ??= await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "file-parts-key" }] });
    const dir = scratch();
    const file = join(dir, "wavix.yaml");
    writeFileSync(file, "version: 1\naudit:\n  ten_dlc:\n    brands: all\n");
    // The modules loaded when the first request is made, and at the end.
    const probe = join(dir, "first-request.js");
    const out = join(dir, "first-request.json");
    writeFileSync(
      probe,
      `const http = require("node:http"); const request = http.request; const seen = {};
http.request = function (...args) { seen.first ??= { path: String(args[0].pathname ?? args[0].path ?? args[0]), modules: Object.keys(require.cache) }; return request.apply(this, args); };
process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify({ ...seen, last: Object.keys(require.cache) })));\n`,
    );
    const run = await runCli(["audit", "-f", file, "--last", "30d", "--allow-incomplete"], { WAVIX_API_KEY: "file-parts-key", WAVIX_BASE_URL: sim.url, NODE_OPTIONS: `--require ${probe}` }, dir);
    expect(run.code, run.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(out, "utf8")) as { first: { path: string; modules: string[] }; last: string[] };
    const audits = (modules: string[]) => modules.map((m) => m.replace(/\\/g, "/")).flatMap((m) => (/\/dist\/audit\/(compute|collect|data-sources|index|render\/(json|md|html))\.js$/.test(m) ? [m.slice(m.lastIndexOf("/dist/") + 6)] : []));
    expect(seen.first.path).toContain("/v1/profile");
    expect(audits(seen.first.modules)).toEqual([]);
    expect(audits(seen.last).sort()).toEqual(["audit/collect.js", "audit/compute.js", "audit/data-sources.js", "audit/index.js", "audit/render/html.js", "audit/render/json.js", "audit/render/md.js"]);
  });
});
