"use strict";
/**
 * Writes schemas/wavix.schema.json, the file's one published JSON Schema, assembled from the
 * kinds' fragments (src/config/file-schema.ts) as compiled into dist/ (`npm run schema` builds
 * first). test/kinds/file-schema.test.ts fails when the committed file differs from the assembly.
 */
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { fileSchemaText } = require("../dist/config/file-schema.js");

const file = join(__dirname, "..", "schemas", "wavix.schema.json");
writeFileSync(file, fileSchemaText());
process.stdout.write(`wrote ${file}\n`);
