/**
 * The `required-fields-only` variation (docs/SIMULATOR.md): a success answer keeps only the fields
 * its response schema (schemas/api/*.schema.json, whose `required` lists are the official
 * document's: test/contract/official-consistency.test.ts and test/helpers/strict-server.test.ts
 * hold them to it) requires, at every depth. What a server that answers the document's minimum
 * sends: a trunk without its `host`, `call_limit` or `max_call_cost`, a Sender ID without its
 * `usecase`, a sub-account listing without `pagination`. Nothing stored changes.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../util/package-root";

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

let schemas: Map<string, Json> | undefined;

/** The response schemas by file name (`trunk.schema.json`), read once. */
function load(): Map<string, Json> {
  if (schemas) return schemas;
  const dir = path.join(packageRoot(), "schemas", "api");
  schemas = new Map();
  for (const file of readdirSync(dir)) {
    if (file.endsWith(".schema.json") && !file.endsWith(".request.schema.json")) schemas.set(file, JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Json);
  }
  return schemas;
}

/** A schema with its `$ref` (another file of schemas/api) followed and its `allOf` merged. */
function resolved(s: unknown, depth = 0): Json {
  if (!isRecord(s) || depth > 20) return {};
  let out: Json = s;
  if (typeof s.$ref === "string") {
    const target = load().get(s.$ref.split("#")[0]);
    const { $ref: _ref, ...rest } = s;
    out = { ...resolved(target, depth + 1), ...rest };
  }
  if (Array.isArray(out.allOf)) {
    const { allOf, ...rest } = out;
    const parts = [...(allOf as unknown[]).map((p) => resolved(p, depth + 1)), rest];
    out = Object.assign({}, ...parts) as Json;
    out.properties = Object.assign({}, ...parts.map((p) => (isRecord(p.properties) ? p.properties : {})));
    out.required = [...new Set(parts.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : [])))];
  }
  return out;
}

/**
 * Optional fields whose absence the contract reads as a value (docs/CONTRACT.md part 4: "an unset
 * URL reads as null whether the API sends null, "" or nothing"): a server that holds one must send
 * it, so they are left out only when they hold nothing, as the `optional-fields-absent` variation
 * does. By the `$id` file of the object schema that declares them.
 */
const ABSENT_MEANS_UNSET: Record<string, readonly string[]> = {
  "number.schema.json": ["call_status_url"],
};

function strip(schema: unknown, value: unknown): unknown {
  const s = resolved(schema);
  if (Array.isArray(value)) return s.items === undefined ? value : value.map((v) => strip(s.items, v));
  if (!isRecord(value) || !isRecord(s.properties)) return value;
  const props = s.properties;
  const out: Json = {};
  const keep = new Set([...((s.required ?? []) as string[]), ...(ABSENT_MEANS_UNSET[String(s.$id ?? "").split("/").pop() ?? ""] ?? []).filter((k) => value[k] !== null && value[k] !== undefined)]);
  for (const k of keep) if (k in value) out[k] = strip(props[k], value[k]);
  return out;
}

/** `body` as a server answering only the required fields would send it (`response`: the route's schema name). */
export function requiredFieldsOnly(response: string, body: unknown): unknown {
  const schema = load().get(`${response}.schema.json`);
  return schema === undefined ? body : strip(schema, body);
}
