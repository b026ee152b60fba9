/**
 * The JSON Schema of the file (`schemas/wavix.schema.json`, shared with editors through the
 * `# yaml-language-server: $schema=` header) compiled once with ajv.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/**
 * Absolute path of `schemas/wavix.schema.json`. The same relative step works from `src/config`
 * (tests) and `dist/config` (the built package, which ships `schemas/`).
 */
export const DESIRED_STATE_SCHEMA_PATH = join(__dirname, "..", "..", "schemas", "wavix.schema.json");

let compiled: ValidateFunction | undefined;

/** The parsed schema document. */
export function desiredStateSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(DESIRED_STATE_SCHEMA_PATH, "utf8")) as Record<string, unknown>;
}

/** Validates plain data against the schema; every error, with the failing data and schema (verbose). */
export function schemaErrors(data: unknown): ErrorObject[] {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    compiled = ajv.compile(desiredStateSchema());
  }
  return compiled(data) ? [] : [...(compiled.errors ?? [])];
}
