/** Load a `SimSeed` from a JSON or YAML file (`wavix-sync simulator --seed FILE`). */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { SimSeed } from "./types";

/** Read and parse a seed file; JSON is YAML, so one parser reads both. Throws with the file name on error. */
export function loadSeedFile(file: string): SimSeed {
  const text = readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new Error(`cannot parse simulator seed ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`simulator seed ${file} must be a mapping (an object)`);
  }
  return value as SimSeed;
}
