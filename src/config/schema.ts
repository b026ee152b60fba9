/**
 * The JSON Schema of the file (`schemas/wavix.schema.json`, shared with editors through the
 * `# yaml-language-server: $schema=` header). The built package runs the validator that
 * scripts/build-validators.js compiled at build time (ajv standalone code, no compilation at
 * start-up); from the sources (tests) it is compiled on first use with the same options.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";

/**
 * Absolute path of `schemas/wavix.schema.json`. The same relative step works from `src/config`
 * (tests) and `dist/config` (the built package, which ships `schemas/`).
 */
export const DESIRED_STATE_SCHEMA_PATH = join(__dirname, "..", "..", "schemas", "wavix.schema.json");

let compiled: ValidateFunction | undefined;
let origin: "precompiled" | "compiled at run time" | undefined;

/** Where the validator in use came from (the built package should say "precompiled"). */
export function schemaValidatorOrigin(): "precompiled" | "compiled at run time" {
  validator();
  return origin as "precompiled" | "compiled at run time";
}

function validator(): ValidateFunction {
  if (compiled) return compiled;
  try {
    // Written next to this file in dist/ by scripts/build-validators.js.
    compiled = require("./desired-state.validate.js") as ValidateFunction;
    origin = "precompiled";
  } catch {
    compiled = compileDesiredStateSchema();
    origin = "compiled at run time";
  }
  return compiled;
}

/** Options must match scripts/build-validators.js. */
function compileDesiredStateSchema(): ValidateFunction {
  // Loaded only here: the built package never needs the compiler.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Ajv = (require("ajv") as typeof import("ajv")).default;
  const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  // The version a key appeared in: documentation only (docs/FILE-FORMAT.md), never validated.
  ajv.addVocabulary(["x-since"]);
  return ajv.compile(desiredStateSchema());
}

/** The parsed schema document. */
export function desiredStateSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(DESIRED_STATE_SCHEMA_PATH, "utf8")) as Record<string, unknown>;
}

/** Validates plain data against the schema; every error, with the failing data and schema (verbose). */
export function schemaErrors(data: unknown): ErrorObject[] {
  const validate = validator();
  return validate(data) ? [] : [...(validate.errors ?? [])];
}
