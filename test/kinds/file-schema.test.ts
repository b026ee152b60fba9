// The file's JSON Schema is assembled from the kinds' fragments (src/kinds/<kind>/schema.ts); the
// published schemas/wavix.schema.json must be exactly that assembly (regenerate: `npm run schema`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assembleFileSchema, fileSchemaText } from "../../src/config/file-schema";
import { KINDS } from "../../src/kinds";

const PUBLISHED = path.join(__dirname, "..", "..", "schemas", "wavix.schema.json");

describe("the file schema", () => {
  it("committed schemas/wavix.schema.json equals the assembly of the kinds' fragments, byte for byte", () => {
    expect(readFileSync(PUBLISHED, "utf8")).toBe(fileSchemaText());
  });

  it("names every registered kind's key, and each kind's definitions", () => {
    const schema = assembleFileSchema() as { properties: Record<string, unknown>; definitions: Record<string, unknown> };
    for (const kind of KINDS) {
      expect(schema.properties[kind.file.key]).toEqual(kind.file.schema);
      for (const name of Object.keys(kind.file.definitions ?? {})) expect(schema.definitions).toHaveProperty(name);
    }
  });

  it("every $ref points at a definition the assembly holds", () => {
    const schema = assembleFileSchema() as { definitions: Record<string, unknown> };
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(schema.definitions).toHaveProperty(r);
  });
});
