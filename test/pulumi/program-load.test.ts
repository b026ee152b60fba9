/**
 * What loading the program side costs inside Pulumi's runner (src/kit/pulumi/sdk.ts). The runner
 * (`@pulumi/pulumi/cmd/run`) has loaded the SDK's runtime modules before it requires the program;
 * the SDK's index (`require("@pulumi/pulumi")`) would add the Automation API and closure
 * serialization, and with them TypeScript (0.55–0.65 s, measured in the runner), before the first
 * resource could be declared. Counted as modules, not timed: a fresh node process loads what the
 * runner loads, then our entry points, and lists what they added.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

/** The modules under node_modules that `entry` adds after what the runner itself loads, by package path. */
function addedBy(entry: string): string[] {
  const script = `
    // What @pulumi/pulumi/cmd/run/run.js requires before it requires the program.
    for (const m of ["errors", "log", "runtime/manifest", "runtime/settings", "runtime/stack", "tsutils"]) require("@pulumi/pulumi/" + m);
    const before = new Set(Object.keys(require.cache));
    require(${JSON.stringify(entry)});
    const added = Object.keys(require.cache).filter((k) => !before.has(k) && k.includes("/node_modules/"));
    process.stdout.write(JSON.stringify(added.map((k) => k.slice(k.lastIndexOf("/node_modules/") + 14))));
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" })) as string[];
}

const HEAVY = /^(@pulumi\/pulumi\/(automation|runtime\/closure)\/|typescript\/)/;

describe("the program side in Pulumi's runner", () => {
  it("the SDK's index would load the Automation API, closure serialization and TypeScript (what this test guards against)", () => {
    expect(addedBy("@pulumi/pulumi").filter((m) => HEAVY.test(m)).length).toBeGreaterThan(0);
  });

  it.each(["dist/pulumi/program.js", "dist/pulumi/index.js"])("%s loads none of them", (entry) => {
    expect(addedBy(path.join(ROOT, entry)).filter((m) => HEAVY.test(m))).toEqual([]);
  });
});
