// The native plugin loads a resource's kind by its type alone (src/pulumi/plugin/server.ts
// KIND_MODULES): the table must name every registered kind, where it is, and nothing else.
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds";
import { KIND_MODULES } from "../../src/pulumi/plugin/server";

describe("the native plugin's kind table", () => {
  it("names each registered kind's resource type once, with the folder and export that hold that very kind", async () => {
    expect(Object.keys(KIND_MODULES).sort()).toEqual(KINDS.map((k) => k.pulumi.type).sort());
    for (const kind of KINDS) {
      const [folder, exported] = KIND_MODULES[kind.pulumi.type];
      const mod = (await import(`../../src/kinds/${folder}/index.ts`)) as Record<string, unknown>;
      expect(mod[exported], `${kind.pulumi.type}: src/kinds/${folder} ${exported}`).toBe(kind);
    }
  });
});
