/**
 * Response validation against `schemas/api/*.schema.json` (derived from seed part 2). Validation
 * never throws: a mismatch is contract drift, reported through `onWarning` so a run still finishes
 * while someone learns that the API changed (e.g. a property on Number, which seed 2.1 says may
 * not appear). The built package uses the validators scripts/build-validators.js compiled at build
 * time (dist/client/response.validate.js); from the sources they are compiled once, on first use.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { packageRoot } from "../util/package-root";

export type ResponseSchemaName =
  | "number"
  | "number-list"
  | "number-bulk-update"
  | "sub-account"
  | "sub-account-list"
  | "call"
  | "call-list"
  | "call-webhook"
  | "call-webhook-list"
  | "two-fa-event-list"
  | "two-fa-session-list"
  | "brand-vetting-list"
  | "brand-list"
  | "sender-id"
  | "sender-id-list"
  | "campaign-number-list"
  | "campaign-list"
  | "trunk"
  | "trunk-list"
  | "profile";

const ID_BASE = "https://wavix-sync.invalid/schemas/api/";

interface Compiled {
  validators: Map<string, ValidateFunction>;
  loadError?: string;
}

let compiled: Compiled | undefined;

function compile(): Compiled {
  if (compiled) return compiled;
  const validators = new Map<string, ValidateFunction>();
  try {
    // Precompiled at build time (one export per schema file name); options as below.
    const built = require("./response.validate.js") as Record<string, ValidateFunction>;
    for (const [name, validate] of Object.entries(built)) if (name !== "default") validators.set(name, validate);
    compiled = { validators };
    return compiled;
  } catch {
    validators.clear();
  }
  try {
    const dir = path.join(packageRoot(), "schemas", "api");
    const Ajv = (require("ajv") as typeof import("ajv")).default;
    const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    // Official `format: decimal` (a trunk's max_call_cost, request schemas only): known, not checked here.
    ajv.addFormat("decimal", true);
    const files = readdirSync(dir).filter((f) => f.endsWith(".schema.json"));
    for (const file of files) {
      ajv.addSchema(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as object);
    }
    // The responses only, as the precompiled file holds (scripts/build-validators.js).
    for (const file of files.filter((f) => !f.endsWith(".request.schema.json"))) {
      const name = file.replace(/\.schema\.json$/, "");
      const validate = ajv.getSchema(`${ID_BASE}${file}`);
      if (validate) validators.set(name, validate);
    }
    compiled = { validators };
  } catch (error) {
    compiled = { validators, loadError: error instanceof Error ? error.message : String(error) };
  }
  return compiled;
}

function describe(error: ErrorObject): string {
  const at = error.instancePath || "(root)";
  if (error.keyword === "additionalProperty" || error.keyword === "additionalProperties") {
    return `${at}: unexpected property "${String((error.params as { additionalProperty?: unknown }).additionalProperty)}"`;
  }
  if (error.keyword === "required") {
    return `${at}: missing required property "${String((error.params as { missingProperty?: unknown }).missingProperty)}"`;
  }
  return `${at}: ${error.message ?? error.keyword}`;
}

/**
 * Problems found in `value` against the named schema, each as one line, with a key for
 * de-duplication (array indexes folded, so 10,000 numbers with the same drift warn once).
 */
export function checkResponse(name: ResponseSchemaName, value: unknown): { key: string; text: string; additive?: boolean }[] {
  const { validators, loadError } = compile();
  if (loadError !== undefined) {
    return [{ key: "schemas-unavailable", text: `response schemas unavailable, responses not checked: ${loadError}` }];
  }
  const validate = validators.get(name);
  if (!validate) return [{ key: `no-schema:${name}`, text: `no response schema named ${name}` }];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const path = error.instancePath.replace(/\/\d+(?=\/|$)/g, "/*");
    if (error.keyword === "additionalProperties") {
      // A property the API added: harmless (ignored), so noted once per record kind and field,
      // whichever route showed it (a number's new field from the listing, a GET and a PATCH alike).
      const kind = RECORD_KIND[name] ?? name;
      const at = path.replace(LIST_PREFIX, "");
      const field = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      return {
        key: `additive|${kind}|${at}|${field}`,
        text: `${kind}${at === "" ? "" : ` ${at}`}: new property ${JSON.stringify(field)} (not in the documented schema; ignored)`,
        additive: true,
      };
    }
    return { key: `${name}|${path}|${error.keyword}|${JSON.stringify(error.params)}`, text: `${describe(error)} (schema ${name})` };
  });
}

/** The record a response schema is made of, for noting additive fields once per kind. */
const RECORD_KIND: Partial<Record<ResponseSchemaName, string>> = {
  number: "number",
  "number-list": "number",
  "number-bulk-update": "number",
  "sub-account": "sub-account",
  "sub-account-list": "sub-account",
  call: "call",
  "call-list": "call",
  "call-webhook": "call webhook",
  "call-webhook-list": "call webhook",
  "two-fa-event-list": "2FA event",
  "two-fa-session-list": "2FA session",
  "brand-vetting-list": "brand vetting",
  "brand-list": "brand",
};

/** The list part of a listing's path (`/items/*`, `/sub_organizations/*`, `/*`): records are named without it. */
const LIST_PREFIX = /^(\/(items|sub_organizations|calls))?\/\*(?=\/|$)/;
