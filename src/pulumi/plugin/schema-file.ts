import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../../util/package-root";

/** Where the committed package schema lives, relative to the package root (src/pulumi/plugin/schema.ts writes it). */
export const SCHEMA_FILE = "schemas/pulumi/schema.json";

/** The committed package schema's text, which GetSchema answers (the plugin's launcher and its provider alike). */
export function committedSchemaText(): string {
  return readFileSync(path.join(packageRoot(), SCHEMA_FILE), "utf8");
}
