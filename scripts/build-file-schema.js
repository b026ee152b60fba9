"use strict";
/**
 * Writes the schemas assembled from the kinds, as compiled into dist/ (`npm run schema` builds
 * first): schemas/wavix.schema.json, the file's one published JSON Schema (src/config/file-schema.ts;
 * test/kinds/file-schema.test.ts), and schemas/pulumi/schema.json, the native provider's package
 * schema (src/pulumi/plugin/schema.ts; test/pulumi/schema.test.ts). Each test fails when the
 * committed file differs from the assembly.
 */
const { mkdirSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const { fileSchemaText } = require("../dist/config/file-schema.js");
const { packageSchemaText, SCHEMA_FILE } = require("../dist/pulumi/plugin/schema.js");

const ROOT = join(__dirname, "..");
for (const [rel, text] of [
  ["schemas/wavix.schema.json", fileSchemaText()],
  [SCHEMA_FILE, packageSchemaText()],
]) {
  const file = join(ROOT, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  process.stdout.write(`wrote ${file}\n`);
}
