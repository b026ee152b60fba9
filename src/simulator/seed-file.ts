/** Load a `SimSeed` from a JSON or YAML file (`wavix-sync simulator --seed FILE`). */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { SimSeed } from "./types";

/**
 * Read, parse and check a seed file; JSON is YAML, so one parser reads both. Throws one message
 * naming the file (and, for a wrong field, its path), never a TypeError from deep in the store.
 */
export function loadSeedFile(file: string): SimSeed {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? String(err));
    throw new Error(`cannot read simulator seed ${file}: ${why}`);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new Error(`cannot parse simulator seed ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`simulator seed ${file} must be a mapping (an object)`);
  }
  const problems = seedProblems(value as Record<string, unknown>);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).map((p) => `simulator seed ${file}: ${p}`);
    if (problems.length > shown.length) shown.push(`simulator seed ${file}: and ${problems.length - shown.length} more problems`);
    throw new Error(shown.join("\n"));
  }
  return value as SimSeed;
}

type Check = "string" | "digits" | "integer" | "number" | "boolean" | "url" | "object" | "list" | { oneOf: readonly string[] };
type Shape = Record<string, { check: Check; required?: boolean }>;

const NUMBER: Shape = {
  number: { check: "digits", required: true },
  id: { check: "integer" },
  organization: { check: "integer" },
  sms_enabled: { check: "boolean" },
  call_recording_enabled: { check: "boolean" },
  transcription_enabled: { check: "boolean" },
  transcription_threshold: { check: "integer" },
  sms_relay_url: { check: "url" },
  call_status_url: { check: "url" },
  destination: { check: "list" },
};
const SUB_ACCOUNT: Shape = {
  id: { check: "integer", required: true },
  name: { check: "string", required: true },
  api_key: { check: "string", required: true },
  status: { check: { oneOf: ["enabled", "disabled"] } },
  default_destinations: { check: "object" },
  disabledFeatures: { check: "list" },
};
const WEBHOOK: Shape = {
  event_type: { check: { oneOf: ["on-call", "post-call"] }, required: true },
  url: { check: "string", required: true },
};
const LISTS: Record<string, Shape | undefined> = {
  numbers: NUMBER,
  subAccounts: SUB_ACCOUNT,
  callWebhooks: WEBHOOK,
  calls: undefined,
  twoFaServices: undefined,
  brands: undefined,
  messages: undefined,
  disabledFeatures: undefined,
  senderIds: {
    sender_id: { check: "string", required: true },
    type: { check: { oneOf: ["numeric", "alphanumeric"] }, required: true },
    allowlisted_in: { check: "list" },
    samples: { check: "list" },
  },
  campaigns: { brand_id: { check: "string", required: true }, campaign_id: { check: "string", required: true }, numbers: { check: "list" } },
};
/** Keys holding one mapping. */
const MAPPINGS = new Set(["profile", "profileCallbacks"]);
const SCALARS: Record<string, Check> = { organizationId: "integer", rngSeed: "number" };

function describe(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `the ${typeof v} ${String(v)}`;
}

function wrong(check: Check, v: unknown): string | undefined {
  const expect = (ok: boolean, what: string) => (ok ? undefined : `must be ${what}, got ${describe(v)}`);
  if (typeof check === "object") return expect(typeof v === "string" && check.oneOf.includes(v), check.oneOf.map((s) => `"${s}"`).join(" or "));
  switch (check) {
    case "string":
      return expect(typeof v === "string", "a string");
    case "digits":
      if (typeof v === "number") return `must be a string of digits (quote it: "${v}"), got ${describe(v)}`;
      return expect(typeof v === "string" && /^\+?\d+$/.test(v), "a string of digits");
    case "integer":
      return expect(Number.isInteger(v), "an integer");
    case "number":
      return expect(typeof v === "number" && Number.isFinite(v), "a number");
    case "boolean":
      return expect(typeof v === "boolean", "true or false");
    case "url":
      return expect(v === null || typeof v === "string", "a URL string or null");
    case "object":
      return expect(v === null || (typeof v === "object" && !Array.isArray(v)), "a mapping");
    case "list":
      return expect(Array.isArray(v), "a list");
  }
}

/** Type problems of a parsed seed, each as `path must be …, got …`. */
export function seedProblems(seed: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(seed)) {
    if (key in SCALARS) {
      const w = wrong(SCALARS[key], value);
      if (w) out.push(`${key} ${w}`);
      continue;
    }
    if (MAPPINGS.has(key)) {
      const w = wrong("object", value);
      if (w) out.push(`${key} ${w}`);
      continue;
    }
    if (!(key in LISTS)) {
      out.push(`unknown key "${key}" (expected ${[...Object.keys(SCALARS), ...Object.keys(LISTS), ...MAPPINGS].join(", ")})`);
      continue;
    }
    if (!Array.isArray(value)) {
      out.push(`${key} must be a list, got ${describe(value)}`);
      continue;
    }
    const shape = LISTS[key];
    value.forEach((item: unknown, i) => {
      const at = `${key}[${i}]`;
      if (key === "disabledFeatures") {
        if (typeof item !== "string") out.push(`${at} must be a string, got ${describe(item)}`);
        return;
      }
      if (item === null || typeof item !== "object" || Array.isArray(item)) {
        out.push(`${at} must be a mapping, got ${describe(item)}`);
        return;
      }
      if (!shape) return;
      const rec = item as Record<string, unknown>;
      for (const [field, rule] of Object.entries(shape)) {
        if (!(field in rec) || rec[field] === undefined) {
          if (rule.required) out.push(`${at} is missing "${field}"`);
          continue;
        }
        const w = wrong(rule.check, rec[field]);
        if (w) out.push(`${at}.${field} ${w}`);
      }
    });
  }
  return out;
}
