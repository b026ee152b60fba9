/**
 * The generated reference docs are current: docs/FILE-FORMAT.md (from schemas/wavix.schema.json) and
 * docs/CLI.md (from the CLI's --help) equal what `npm run docs` writes now; and the schema carries
 * what the file-format reference shows for every key: a description, the version it appeared in
 * (`x-since`, never later than this package's version) and examples the schema accepts.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { ROOT } from "../helpers/cli";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const docs = require(join(ROOT, "scripts", "build-docs.js")) as { generated(): Record<string, string> };
// What `npm run docs` writes, generated once for the file (each generation runs the CLI's --help
// of every command: 8 CLI runs), not once for the test list and once in each test.
let written: Record<string, string> | undefined;
const generated = (): Record<string, string> => (written ??= docs.generated());
const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "wavix.schema.json"), "utf8")) as Record<string, unknown>;
const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

type Node = Record<string, unknown>;
const definitions = schema.definitions as Record<string, Node>;
const resolve = (n: Node): Node => (typeof n.$ref === "string" ? { ...resolve(definitions[n.$ref.split("/").pop()!]), ...n } : n);

/** Every key of the file, with its schema node: `numbers[].destinations[].priority`. */
function keys(node: Node, prefix: string, out: [string, Node][] = []): [string, Node][] {
  const n = resolve(node);
  for (const [k, raw] of Object.entries((n.properties as Record<string, Node>) ?? {})) {
    const p = resolve(raw);
    out.push([`${prefix}${k}`, raw]);
    keys(p, `${prefix}${k}.`, out);
    if (p.items) keys(p.items as Node, `${prefix}${k}[].`, out);
  }
  return out;
}

const semver = (v: string) => v.split(".").map(Number);
const notLater = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return true;
};

describe("generated reference docs", () => {
  it.each(Object.keys(generated()))("%s is what `npm run docs` writes (run it after changing the schema or the CLI's help)", (file) => {
    expect(readFileSync(join(ROOT, file), "utf8")).toBe(generated()[file]);
  });

  it("every key of the file has a description, x-since (not later than this version) and examples the schema accepts", () => {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addVocabulary(["x-since"]);
    addFormats(ajv);
    const all = keys(schema, "");
    expect(all.length).toBeGreaterThan(80);
    const problems: string[] = [];
    for (const [path, raw] of all) {
      const n = resolve(raw);
      if (typeof n.description !== "string" || n.description === "") problems.push(`${path}: no description`);
      if (typeof n["x-since"] !== "string" || !/^\d+\.\d+\.\d+$/.test(n["x-since"])) problems.push(`${path}: no x-since`);
      else if (!notLater(n["x-since"], version)) problems.push(`${path}: x-since ${n["x-since"]} is later than this version, ${version}`);
      if (!Array.isArray(n.examples) || n.examples.length === 0) {
        problems.push(`${path}: no examples`);
        continue;
      }
      const validate = ajv.compile({ ...raw, definitions });
      for (const e of n.examples) if (!validate(e)) problems.push(`${path}: the example ${JSON.stringify(e)} breaks the schema: ${ajv.errorsText(validate.errors)}`);
      if (n.default !== undefined && !validate(n.default)) problems.push(`${path}: the default breaks the schema`);
    }
    expect(problems).toEqual([]);
  });
});
