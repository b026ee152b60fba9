/**
 * The JSON Schema of the file, assembled: the document's own parts (version, `x-` anchors, the
 * read-only `audit:` section, shared URL definitions) and each kind's fragment (src/kinds/<kind>/
 * schema.ts), in file order. `scripts/build-file-schema.js` writes it to the one published
 * `schemas/wavix.schema.json`; test/kinds/file-schema.test.ts checks the committed file equals it.
 */
import { kindsInFileOrder } from "../kinds";
import type { JsonSchema } from "../kit/contract";

type Obj = Record<string, unknown>;

/** The document without any kind: `properties` and `definitions` are filled from the kinds. */
const BASE: Obj = 
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "wavix-sync desired state",
  "description": "The Wavix account configuration that `wavix-sync` (CLI or Pulumi) keeps true. Only keys present are managed: an omitted key is left as it is in the account. Secrets never live here: the API key comes from WAVIX_API_KEY or `pulumi config set --secret wavix:apiKey`.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "version"
  ],
  "patternProperties": {
    "^x-": {
      "description": "Free space for YAML anchors (`x-defaults: &defaults {...}`, used with `<<: *defaults`); ignored by wavix-sync."
    }
  },
  "properties": {
    "version": {
      "description": "Format version of this file. Must be 1.",
      "x-since": "0.1.0",
      "examples": [1],
      "const": 1
    },
    "account_id": {
      "description": "The Wavix account this file describes (the `id` of GET /v1/profile). When present, plan and apply first check that WAVIX_API_KEY belongs to this account and stop, with nothing read or written, when it does not.",
      "x-since": "0.1.0",
      "examples": [123456],
      "type": "integer",
      "minimum": 1,
      "maximum": 2147483647
    },
    "safety": {
      "description": "Limits on destructive changes an apply makes without --force (docs/GUARD-RAILS.md): a change is destructive by what it does — a delete, a disable (pruned or `status: disabled`), a release, an unlink, a replace, a number's routing removed, narrowed or diverted, a callback URL cleared, SMS turned off, a SIP trunk's limit lifted (switched off, removed or raised). A kind is limited when the account holds at least min_items of it; then more than max_destructive_percent of them is refused. Across kinds, more than max_destructive_total is refused.",
      "x-since": "0.1.0",
      "examples": [{"max_destructive_percent":30,"min_items":10,"max_destructive_total":20}],
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "max_destructive_percent": {
          "description": "Most destructive changes of one kind, as a percentage of that kind's items in the account. Default 30.",
          "x-since": "0.1.0",
          "default": 30,
          "examples": [50],
          "type": "number",
          "minimum": 0,
          "maximum": 100
        },
        "min_items": {
          "description": "A kind with fewer items than this in the account is not limited. Default 10.",
          "x-since": "0.1.0",
          "default": 10,
          "examples": [20],
          "type": "integer",
          "minimum": 0
        },
        "max_destructive_total": {
          "description": "Most destructive changes of all kinds together in one apply, whatever the account's size. Default 20.",
          "x-since": "0.1.0",
          "default": 20,
          "examples": [50],
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "audit": {
      "description": "What `wavix-sync audit` checks: 2FA verification sessions and 10DLC brand vettings. Read-only; nothing here is written to the account.",
      "x-since": "0.1.0",
      "examples": [{"ten_dlc":{"brands":"all","min_vetting_score":75}}],
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "two_fa": {
          "description": "2FA sessions to audit: their verification events, charges and failure ratio.",
          "x-since": "0.1.0",
          "examples": [{"sessions":["8753d4308f2e11ecb75fcdafd6d2d690"],"max_failure_ratio":0.2}],
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "sessions": {
              "description": "2FA session IDs to audit one by one.",
              "x-since": "0.1.0",
              "examples": [["8753d4308f2e11ecb75fcdafd6d2d690"]],
              "type": "array",
              "items": {
                "description": "A 2FA session ID (session_uuid).",
                "type": "string",
                "minLength": 1
              }
            },
            "services": {
              "description": "2FA services whose sessions within the audited period are audited. The period is the run's (`audit --last 30d`, `--from DATE --to DATE`) or, without those, the service's own from/to.",
              "x-since": "0.1.0",
              "examples": [[{"service_id":"7204a030201211ee9fb47d093f2f127c","from":"2026-11-01","to":"2026-11-21"}]],
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "service_id"
                ],
                "properties": {
                  "service_id": {
                    "description": "The 2FA service ID.",
                    "x-since": "0.1.0",
                    "examples": ["7204a030201211ee9fb47d093f2f127c"],
                    "type": "string",
                    "minLength": 1
                  },
                  "from": {
                    "description": "First day of the service's default window, YYYY-MM-DD (inclusive, UTC), used when the run gives no window. Give both from and to, or neither. Quote it or leave it plain; it is read as text.",
                    "x-since": "0.1.0",
                    "examples": ["2026-11-01"],
                    "type": "string",
                    "format": "date"
                  },
                  "to": {
                    "description": "Last day of the service's default window, YYYY-MM-DD (inclusive, UTC).",
                    "x-since": "0.1.0",
                    "examples": ["2026-11-21"],
                    "type": "string",
                    "format": "date"
                  },
                  "max_failure_ratio": {
                    "description": "This service's largest acceptable share of sessions not verified, from 0 to 1 (overrides audit.two_fa.max_failure_ratio for it); above it is an error finding whose subject is the service.",
                    "x-since": "0.1.0",
                    "examples": [0.05],
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1
                  }
                }
              }
            },
            "max_failure_ratio": {
              "description": "Largest acceptable share of sessions not verified, from 0 to 1, for every service without its own max_failure_ratio and for the sessions named in `sessions`; above it is an error finding.",
              "x-since": "0.1.0",
              "examples": [0.2],
              "type": "number",
              "minimum": 0,
              "maximum": 1
            }
          }
        },
        "ten_dlc": {
          "description": "10DLC brands whose vettings are audited.",
          "x-since": "0.1.0",
          "examples": [{"brands":["B6AI7PA"],"min_vetting_score":75}],
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "brands": {
              "description": "Brand IDs to audit, or the string `all` for every brand of the account.",
              "x-since": "0.1.0",
              "examples": ["all",["B6AI7PA"]],
              "type": [
                "array",
                "string"
              ],
              "items": {
                "description": "A 10DLC brand ID, e.g. B6AI7PA.",
                "type": "string",
                "minLength": 1
              },
              "if": {
                "type": "string"
              },
              "then": {
                "const": "all"
              }
            },
            "min_vetting_score": {
              "description": "Lowest acceptable effective vetting score (0-100); a brand below it is an error finding.",
              "x-since": "0.1.0",
              "examples": [75],
              "type": "integer",
              "minimum": 0,
              "maximum": 100
            },
            "max_vetting_age_days": {
              "description": "Oldest acceptable newest scored vetting, in whole days before the report; an older one is an error finding.",
              "x-since": "0.1.0",
              "examples": [365],
              "type": "integer",
              "minimum": 1
            }
          }
        }
      }
    }
  },
  "definitions": {
    "httpUrl": {
      "description": "An http:// or https:// URL.",
      "type": "string",
      "format": "uri",
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
    },
    "nullableHttpUrl": {
      "description": "An http:// or https:// URL, or null to clear it.",
      "type": [
        "string",
        "null"
      ],
      "format": "uri",
      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
    }
  }
};

/** The whole schema: the base with every kind's key (in file order) before `audit`, and its definitions. */
export function assembleFileSchema(): JsonSchema {
  const baseProps = BASE.properties as Obj;
  const properties: Obj = { version: baseProps.version, account_id: baseProps.account_id };
  const definitions: Obj = { ...(BASE.definitions as Obj) };
  for (const kind of kindsInFileOrder()) {
    if (kind.file.key in properties || kind.file.key in baseProps) throw new Error(`two parts of the file schema claim ${kind.file.key}`);
    properties[kind.file.key] = kind.file.schema;
    for (const [name, def] of Object.entries(kind.file.definitions ?? {})) {
      if (name in definitions) throw new Error(`two kinds define the schema definition ${name}`);
      definitions[name] = def;
    }
  }
  for (const [k, v] of Object.entries(baseProps)) if (!(k in properties)) properties[k] = v;
  return { ...BASE, properties, definitions };
}

/** A value on one line, when it is short and simple (a scalar list, a one-key object of such); else undefined. */
function inline(v: unknown): string | undefined {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== "object") ? `[${v.map((x) => JSON.stringify(x)).join(", ")}]` : undefined;
  const entries = Object.entries(v as Obj);
  if (entries.length !== 1) return undefined;
  const inner = inline(entries[0][1]);
  if (inner === undefined) return undefined;
  const text = `{ ${JSON.stringify(entries[0][0])}: ${inner} }`;
  return text.length <= 45 ? text : undefined;
}

function emit(v: unknown, indent: string): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) {
    const one = inline(v);
    if (one !== undefined) return one;
    return `[\n${v.map((x) => `${indent}  ${emit(x, `${indent}  `)}`).join(",\n")}\n${indent}]`;
  }
  const one = inline(v);
  if (one !== undefined) return one;
  const entries = Object.entries(v as Obj);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, x]) => `${indent}  ${JSON.stringify(k)}: ${emit(x, `${indent}  `)}`).join(",\n")}\n${indent}}`;
}

/** The schema as the published file's text: two-space JSON, short lists and one-key objects on one line. */
export function fileSchemaText(schema: JsonSchema = assembleFileSchema()): string {
  return `${emit(schema, "")}\n`;
}
