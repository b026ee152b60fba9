/**
 * The house reads one way (docs/ARCHITECTURE.md, "The four floors"): no import cycle in src/,
 * counting type-only imports, `export … from`, `import("…")` types and `require("…")`; the kit
 * never imports a kind, the registry or what sits above; a kind imports only the kit and other
 * kinds' public faces; the provider kit and a kind's logic never import @pulumi/*.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findCycles, floorOf, floorViolations, readImports, type ImportGraph } from "./import-graph";

const SRC = path.resolve(__dirname, "../../src");

describe("src/", () => {
  const { graph, packages } = readImports(SRC);

  it("is read whole (the graph sees the kinds, the kit and the faces)", () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get("kinds/index.ts")).toContain("kinds/number/index.ts");
    expect(graph.get("pulumi/provider-load.ts")).toContain("kinds/index.ts");
    // Reached only through `require("./provider") as typeof import("./provider")`: both count.
    expect(graph.get("kinds/number/index.ts")).toContain("kinds/number/provider.ts");
  });

  it("has no import cycle", () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it("keeps every floor: the kit below the kinds, the kinds below the registry, the rest above", () => {
    expect(floorViolations(graph, packages)).toEqual([]);
  });

  it("places the kit, each kind, the registry and the faces where the docs say", () => {
    expect(floorOf("kit/provider/contract.ts")).toEqual({ floor: "kit" });
    expect(floorOf("client/client.ts")).toEqual({ floor: "kit" });
    expect(floorOf("kinds/sip-trunk/provider.ts")).toEqual({ floor: "kind", kind: "sip-trunk" });
    expect(floorOf("kinds/index.ts")).toEqual({ floor: "registry" });
    expect(floorOf("config/load.ts")).toEqual({ floor: "above" });
    expect(floorOf("pulumi/provider-host.ts")).toEqual({ floor: "above" });
  });
});

describe("the checker", () => {
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it("names the files of each cycle, type-only edges included", () => {
    const cycles = findCycles(
      g({
        "config/semantic.ts": ["kinds/index.ts"],
        "kinds/index.ts": ["kinds/number/index.ts"],
        "kinds/number/index.ts": ["kit/contract.ts"],
        "kit/contract.ts": ["config/semantic.ts"],
        "kit/file/problems.ts": [],
        "simulator/a.ts": ["simulator/b.ts"],
        "simulator/b.ts": ["simulator/a.ts"],
        "simulator/self.ts": ["simulator/self.ts"],
      }),
    );
    expect(cycles).toEqual([
      ["config/semantic.ts", "kinds/index.ts", "kinds/number/index.ts", "kit/contract.ts"],
      ["simulator/a.ts", "simulator/b.ts"],
      ["simulator/self.ts"],
    ]);
  });

  it("refuses the kit importing a kind, the registry or what sits above", () => {
    const v = floorViolations(g({ "kit/contract.ts": ["kinds/number/types.ts", "kinds/index.ts", "plan/types.ts", "kit/file/problems.ts"], "client/index.ts": ["config/types.ts"] }));
    expect(v).toEqual([
      "client/index.ts → config/types.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
      "kit/contract.ts → kinds/index.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
      "kit/contract.ts → kinds/number/types.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
      "kit/contract.ts → plan/types.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
    ]);
  });

  it("refuses a kind importing the loader, the engine, a Pulumi face, the registry, or another kind past its public face", () => {
    const v = floorViolations(
      g({
        "kinds/number/provider.ts": ["pulumi/provider-host.ts", "config/index.ts", "kit/provider/props.ts", "kinds/number/handler.ts"],
        "kinds/number/trunks.ts": ["kinds/sip-trunk/handler.ts", "kinds/sip-trunk/public.ts", "kinds/sub-account/index.ts"],
        "kinds/sender-id/index.ts": ["plan/types.ts", "kinds/index.ts"],
      }),
    );
    expect(v).toEqual([
      "kinds/number/provider.ts → config/index.ts: a kind imports only the kit and other kinds' public faces (never the file loader, the plan engine, the Pulumi faces, the CLI, audit or the simulator)",
      "kinds/number/provider.ts → pulumi/provider-host.ts: a kind imports only the kit and other kinds' public faces (never the file loader, the plan engine, the Pulumi faces, the CLI, audit or the simulator)",
      "kinds/number/trunks.ts → kinds/sip-trunk/handler.ts: a kind imports another kind only through its public face (kinds/sip-trunk/public.ts or index.ts)",
      "kinds/sender-id/index.ts → kinds/index.ts: a kind never imports the registry",
      "kinds/sender-id/index.ts → plan/types.ts: a kind imports only the kit and other kinds' public faces (never the file loader, the plan engine, the Pulumi faces, the CLI, audit or the simulator)",
    ]);
  });

  it("refuses the registry importing what iterates it, and @pulumi in the provider kit or a kind's logic", () => {
    const v = floorViolations(
      g({ "kinds/index.ts": ["kinds/number/index.ts", "plan/engine.ts"], "simulator/routes.ts": ["kinds/number/handler.ts", "client/types.ts"] }),
      new Map([
        ["kit/provider/session.ts", ["@pulumi/pulumi"]],
        ["kit/pulumi/shim.ts", ["@pulumi/pulumi"]],
        ["kinds/number/provider.ts", ["@pulumi/pulumi", "p-limit"]],
        ["kinds/number/pulumi.ts", ["@pulumi/pulumi"]],
        ["pulumi/provider-host.ts", ["@pulumi/pulumi"]],
      ]),
    );
    expect(v).toEqual([
      "kinds/index.ts → plan/engine.ts: the registry imports only the kinds and the kit (what iterates it sits above it)",
      "kinds/number/provider.ts → @pulumi/pulumi: a kind's logic is engine-agnostic: only its pulumi.ts may import @pulumi/*",
      "kit/provider/session.ts → @pulumi/pulumi: the kit is engine-agnostic: only kit/pulumi/ may import @pulumi/* (the provider kit never does)",
      "simulator/routes.ts → kinds/number/handler.ts: the simulator stands in for the API: it imports only itself and the kit",
    ]);
  });

  describe("on files", () => {
    const root = mkdtempSync(path.join(tmpdir(), "wavix-imports-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string): void => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };

    it("reads every form of import: type-only, export-from, side effect, import() types and require", () => {
      write("kit/contract.ts", 'import type { DesiredState } from "../config/types";\nexport type K = import("../kinds").RegisteredKind["name"];\n');
      write("kit/change.ts", 'export * from "./contract";\nimport "./side";\n');
      write("kit/side.ts", "export {};\n");
      write("kinds/index.ts", 'import { numberKind } from "./number";\nexport const KINDS = [numberKind];\n');
      write("kinds/number/index.ts", 'import type { K } from "../../kit/contract";\nexport const numberKind = { provider: () => require("./provider") };\n');
      write("kinds/number/provider.ts", 'import { parse } from "../../config/types";\nimport type * as pulumi from "@pulumi/pulumi";\n');
      write("config/types.ts", 'import { KINDS } from "../kinds";\nexport interface DesiredState {}\n');
      write("config/types.d.ts", 'import { nothing } from "../kit/contract";\n');
      const { graph, packages } = readImports(root);
      expect(graph.get("kit/contract.ts")).toEqual(["config/types.ts", "kinds/index.ts"]);
      expect(graph.get("kit/change.ts")).toEqual(["kit/contract.ts", "kit/side.ts"]);
      expect(graph.get("kinds/number/index.ts")).toEqual(["kit/contract.ts", "kinds/number/provider.ts"]);
      expect(graph.has("config/types.d.ts")).toBe(false);
      expect(findCycles(graph)).toEqual([["config/types.ts", "kinds/index.ts", "kinds/number/index.ts", "kinds/number/provider.ts", "kit/contract.ts"]]);
      expect(floorViolations(graph, packages)).toEqual([
        "kinds/number/provider.ts → @pulumi/pulumi: a kind's logic is engine-agnostic: only its pulumi.ts may import @pulumi/*",
        "kinds/number/provider.ts → config/types.ts: a kind imports only the kit and other kinds' public faces (never the file loader, the plan engine, the Pulumi faces, the CLI, audit or the simulator)",
        "kit/contract.ts → config/types.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
        "kit/contract.ts → kinds/index.ts: the kit imports only the kit (never a kind, the registry, the simulator or what sits above)",
      ]);
    });
  });
});
