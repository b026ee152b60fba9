/**
 * The ready program's `Pulumi.yaml` for installed projects (examples/pulumi-ready/Pulumi.yaml,
 * docs/PULUMI.md "The ready program"): users copy it instead of writing
 * `main: node_modules/wavix-sync/dist/pulumi/program-main.js` themselves. It must stay the root
 * `Pulumi.yaml` but for `main`, its `main` must name the program from a project's folder where the
 * package is installed, and the package must ship it.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/real-pulumi";

const ready = parse(readFileSync(path.join(ROOT, "examples", "pulumi-ready", "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
const root = parse(readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;

describe("the shipped ready Pulumi.yaml", () => {
  it("is the root Pulumi.yaml but for main", () => {
    const { main: readyMain, ...readyRest } = ready;
    const { main: rootMain, ...rootRest } = root;
    expect(readyRest).toEqual(rootRest);
    expect(readyMain).toBe(`node_modules/wavix-sync/${String(rootMain)}`);
  });

  it("names the installed package's program, which the package ships", () => {
    const main = String(ready.main);
    const inPackage = main.replace(/^node_modules\/wavix-sync\//, "");
    expect(existsSync(path.join(ROOT, inPackage))).toBe(true);
    const files = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] }).files;
    expect(files).toContain("examples");
    expect(files).toContain("dist");
  });
});
