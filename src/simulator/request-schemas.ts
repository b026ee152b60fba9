/**
 * Request checking against `schemas/api/*.request.schema.json`: what a client may send to each
 * operation (query parameters and JSON body), written from the official document's facts. The
 * simulator answers a violation as the real API would (400 with the seed part 7 validation body)
 * and, when asked (`WAVIX_SIM_VIOLATIONS_DIR`), records it so a test run that sent one fails.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { packageRoot } from "../util/package-root";

const ID_BASE = "https://wavix-sync.invalid/schemas/api/";

/** One operation's request schema, compiled. */
interface RequestOperation {
  /** e.g. `PATCH /v1/numbers/{id}` */
  name: string;
  method: string;
  pattern: RegExp;
  query: ValidateFunction;
  body: ValidateFunction;
  /** Query parameters the schema declares as arrays (repeated `ids=`). */
  arrays: Set<string>;
  /** The operation needs a JSON body (official `requestBody.required` with required fields). */
  bodyRequired: boolean;
}

let operations: RequestOperation[] | undefined;

interface RequestSchemaFile {
  $id: string;
  "x-operation": { method: string; path: string };
  required?: string[];
  properties: { query: { properties?: Record<string, { type?: unknown }> } };
}

function load(): RequestOperation[] {
  if (operations) return operations;
  const dir = path.join(packageRoot(), "schemas", "api");
  const files = readdirSync(dir).filter((f) => f.endsWith(".request.schema.json"));
  const schemas = files.map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as RequestSchemaFile);
  // Query values arrive as text: coerce them ("5" → 5, one `ids=` → [ids]); a body never is.
  const queryAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: "array" });
  const bodyAjv = new Ajv({ allErrors: true, strict: false });
  addFormats(queryAjv);
  addFormats(bodyAjv);
  // Official `format: decimal` on a number (a trunk's max_call_cost): a finite JSON number.
  for (const ajv of [queryAjv, bodyAjv]) ajv.addFormat("decimal", { type: "number", validate: (n: number) => Number.isFinite(n) });
  for (const s of schemas) {
    queryAjv.addSchema(s as object);
    bodyAjv.addSchema(s as object);
  }
  operations = schemas.map((s) => {
    const op = s["x-operation"];
    const arrays = new Set(
      Object.entries(s.properties.query.properties ?? {})
        .filter(([, v]) => v.type === "array")
        .map(([k]) => k),
    );
    return {
      name: `${op.method} ${op.path}`,
      method: op.method,
      pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      query: queryAjv.getSchema(`${s.$id}#/properties/query`)!,
      body: bodyAjv.getSchema(`${s.$id}#/properties/body`)!,
      arrays,
      bodyRequired: s.required?.includes("body") ?? false,
    };
  });
  // Literal paths before templated ones (`/v1/calls/webhooks` is not a call id).
  operations.sort((a, b) => Number(a.name.includes("{")) - Number(b.name.includes("{")));
  return operations;
}

/** Seed part 7 field name of an ajv error: `destinations.0.transport`, or the missing/extra key. */
function fieldOf(error: ErrorObject, prefix: string): { field: string; rule: string } {
  const at = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const join = (k: string) => [at, k].filter((p) => p !== "").join(".");
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return { field: join(String(params.missingProperty)), rule: "required" };
  if (error.keyword === "additionalProperties") return { field: join(String(params.additionalProperty)), rule: "is not allowed" };
  if (error.keyword === "format" && params.format === "uri") return { field: at, rule: "must be a valid URI" };
  if (error.keyword === "not" && at === "") return { field: prefix, rule: "is not allowed" };
  return { field: at || prefix, rule: error.message ?? error.keyword };
}

export interface RequestViolation {
  /** The operation, e.g. `PATCH /v1/numbers/{id}`. */
  operation: string;
  /** `{field: rule}` as seed part 7 shows them. */
  errors: Record<string, string>;
}

/**
 * Check one request. `undefined` when it conforms or no schema knows the route (the router
 * answers 404 for those); otherwise the violations. `appid` is left out: deprecated, not invalid.
 */
export function checkRequest(method: string, urlPath: string, query: URLSearchParams, body: unknown): RequestViolation | undefined {
  const op = load().find((o) => o.method === method && o.pattern.test(urlPath));
  if (!op) return undefined;
  const q: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    if (key.toLowerCase() === "appid") continue;
    const name = key.endsWith("[]") ? key.slice(0, -2) : key;
    const values = query.getAll(key);
    q[name] = op.arrays.has(name) ? [...((q[name] as string[] | undefined) ?? []), ...values] : values.length === 1 ? values[0] : values;
  }
  const errors: Record<string, string> = {};
  if (!op.query(q)) {
    for (const e of op.query.errors ?? []) {
      const { field, rule } = fieldOf(e, "query");
      errors[field] ??= rule;
    }
  }
  if (body === undefined) {
    if (op.bodyRequired) errors.body = "required";
  } else if (!op.body(body)) {
    for (const e of op.body.errors ?? []) {
      const { field, rule } = fieldOf(e, "body");
      errors[field] ??= rule;
    }
  }
  return Object.keys(errors).length === 0 ? undefined : { operation: op.name, errors };
}
