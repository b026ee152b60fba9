/**
 * The package schema of the native provider plugin `pulumi-resource-wavix` (Pulumi's package
 * schema format: pulumi/pulumi pkg/codegen/schema), assembled from the registered kinds' parts
 * (src/kinds/<kind>/pulumi-schema.ts) with the provider's config and the data sources. `npm run
 * schema` writes it to schemas/pulumi/schema.json, which the plugin serves (GetSchema), Pulumi YAML
 * reads and the SDKs under sdk/ are generated from (`npm run sdk:wavix`); test/pulumi/schema.test.ts
 * fails when the committed file differs from this assembly.
 */
import { KINDS } from "../../kinds";
import { ANY, ON_DELETE_TYPE, PACKAGE, token, typeRef, type SchemaProperties, type TypeSchema } from "../../kit/provider/schema";
import { packageVersion } from "./version";
import { ACCOUNT_TYPE, accountSchema } from "./account-schema";

export { SCHEMA_FILE } from "./schema-file";

/** The npm package of the generated TypeScript SDK (sdk/nodejs). */
export const NODEJS_PACKAGE = "@wavix-sync/pulumi-wavix";
/** The Python package of the generated Python SDK (sdk/python). */
export const PYTHON_PACKAGE = "pulumi_wavix";
/** The Go import path of the generated Go SDK (sdk/go, module `wavix-sync/sdk/go`: used through a `replace`). */
export const GO_IMPORT_BASE = "wavix-sync/sdk/go/wavix";

/** The provider's settings: stack config `wavix:<key>`, or an explicit provider's inputs. */
export const CONFIG: SchemaProperties = {
  apiKey: {
    type: "string",
    secret: true,
    description: "The Wavix API key (Bearer). Always secret: `pulumi config set --secret wavix:apiKey <KEY>`; else the environment variable WAVIX_API_KEY.",
    defaultInfo: { environment: ["WAVIX_API_KEY"] },
  },
  baseUrl: {
    type: "string",
    description: "The API's base URL (plain http only to loopback, e.g. the simulator). Default: WAVIX_BASE_URL, else https://api.wavix.com.",
    defaultInfo: { environment: ["WAVIX_BASE_URL"] },
  },
  accountId: {
    type: "integer",
    description: "The account pin: the Wavix account id the API key must belong to, checked (one GET /v1/profile) before anything else is read or written.",
  },
};

const str = (description: string) => ({ type: "string" as const, description });
const int = (description: string) => ({ type: "integer" as const, description });

/** The data sources' types (their results are the audit's, camelCase: src/audit). */
export const FUNCTION_TYPES: Record<string, TypeSchema> = {
  TwoFaServiceWindow: {
    type: "object",
    description: "A 2FA service and the days to read its sessions over.",
    properties: {
      serviceId: str("The 2FA service's id."),
      from: str("The first day, YYYY-MM-DD (UTC), inclusive."),
      to: str("The last day, YYYY-MM-DD (UTC), inclusive."),
    },
    required: ["serviceId", "from", "to"],
  },
  TwoFaEvent: {
    type: "object",
    description: "One event of a 2FA session.",
    properties: {
      createdAt: str("When it happened: ISO 8601 UTC (kept as sent when it cannot be read)."),
      event: str("What happened (`Verification`, `SMS`...)."),
      status: str("The event's status."),
      charge: str("What it cost, as decimal text (\"0.0525\")."),
      error: str("The error the API reported, if any."),
    },
    required: ["createdAt", "event", "status", "charge"],
  },
  TwoFaSession: {
    type: "object",
    description: "A 2FA session and its events.",
    properties: {
      sessionId: str("The session's UUID."),
      serviceId: str("The service whose listing gave it (absent for a session named directly)."),
      serviceName: str("That service's name."),
      verified: { type: "boolean", description: "The listing's status is `verified` (a session named directly: a successful `Verification` event); absent when neither can be read (a gap)." },
      chargeTotal: str("The listing's charge, else the exact sum of its event charges, as decimal text; absent when neither can be read (a gap)."),
      figuresFrom: str("Where verified and chargeTotal come from: `listing`, `events` or `none`."),
      eventsRead: str("`read`, or `not_found` (the API answered 404: the listing's figures stand in, a gap)."),
      events: { type: "array", items: typeRef("TwoFaEvent"), description: "Its events." },
    },
    required: ["sessionId", "figuresFrom", "eventsRead", "events"],
  },
  AuditFinding: {
    type: "object",
    description: "What the audit says about the data read: a gap (data that could not be read) or a warning.",
    properties: {
      severity: str("`error` or `warning`."),
      code: str("The finding's code (docs/AUDIT.md, Findings)."),
      subject: str("The session, service or brand it is about."),
      message: str("What it says."),
      gap: { type: "boolean", description: "True when it is a data gap: the result is then not complete." },
    },
    required: ["severity", "code", "subject", "message", "gap"],
  },
  EventsByStatus: {
    type: "object",
    description: "Events counted by status.",
    properties: { success: int("Successful events."), failed: int("Failed events."), pending: int("Pending events.") },
    required: ["success", "failed", "pending"],
  },
  BrandVetting: {
    type: "object",
    description: "One vetting of a 10DLC Brand.",
    properties: {
      vettingId: str("The vetting's id."),
      evpId: str("The vetting provider."),
      createDate: str("When it was asked for (UTC)."),
      vettedDate: str("When it was done (UTC); absent while pending."),
      vettingStatus: str("Its status."),
      vettingClass: str("Its class."),
      vettingScore: int("Its score, if it has one."),
      reasons: { type: "array", items: { type: "string" }, description: "The reasons given (always a list)." },
      vettingDetails: { type: "object", additionalProperties: ANY, description: "Details, as the API sent them." },
    },
    required: ["vettingId", "vettingStatus", "reasons"],
  },
  Brand: {
    type: "object",
    description: "A 10DLC Brand's vettings and what they add up to.",
    properties: {
      brandId: str("The Brand's id."),
      vettings: { type: "array", items: typeRef("BrandVetting"), description: "Its vettings." },
      effectiveScore: int("The score of its newest vetting that has one; absent when none has."),
      pending: { type: "boolean", description: "Whether a vetting is pending." },
      newestVettingAt: str("When its newest vetting was done (UTC)."),
      vettingAgeDays: int("Whole days from its newest vetting to the read."),
      previousScore: int("The score of the scored vetting before the newest."),
      scoreChange: int("effectiveScore minus previousScore."),
      scoreFell: { type: "boolean", description: "Whether the score fell." },
    },
    required: ["brandId", "vettings", "pending"],
  },
};

/** The functions (data sources), by token: served by the native plugin, and as Terraform data sources (src/terraform/schema.ts). */
export const FUNCTION_SCHEMAS = {
  [token("getTwoFaEvents")]: {
    description:
      "2FA verification events of the listed sessions, and of every session of the listed services created in their windows (deduplicated), with charges summed exactly: the same computation as `wavix-sync audit`. Reads only.",
    inputs: {
      properties: {
        sessions: { type: "array", items: { type: "string" }, description: "Session UUIDs." },
        services: { type: "array", items: typeRef("TwoFaServiceWindow"), description: "Services, each with the days to read its sessions over." },
      },
    },
    outputs: {
      properties: {
        complete: { type: "boolean", description: "False when some data could not be read: `findings` with `gap` name it." },
        gapCount: int("How many findings are data gaps."),
        findings: { type: "array", items: typeRef("AuditFinding"), description: "What the audit says about this data (never dropped)." },
        chargeTotal: str("Exact sum of every session's charges, as decimal text."),
        eventsByStatus: { ...typeRef("EventsByStatus"), description: "Events counted by status." },
        verified: int("Sessions verified."),
        notVerified: int("Sessions not verified."),
        unknown: int("Sessions of unknown outcome (gaps)."),
        sessions: { type: "array", items: typeRef("TwoFaSession"), description: "The sessions read." },
      },
      required: ["complete", "gapCount", "findings", "chargeTotal", "eventsByStatus", "verified", "notVerified", "unknown", "sessions"],
    },
  },
  [token("getBrandVettings")]: {
    description:
      "Vettings of the listed 10DLC Brands (or of every Brand of the account), with each Brand's effective score and pending flag: the same computation as `wavix-sync audit`. Reads only.",
    inputs: {
      properties: {
        brands: {
          oneOf: [{ type: "array", items: { type: "string" } }, { type: "string" }],
          description: "Brand ids, or `all` for every Brand of the account.",
        },
      },
      required: ["brands"],
    },
    outputs: {
      properties: {
        complete: { type: "boolean", description: "False when a Brand of the account could not be read (its vettings answer 404)." },
        gapCount: int("How many findings are data gaps."),
        findings: { type: "array", items: typeRef("AuditFinding"), description: "What the audit says (pending, score fell, newest failed, gaps)." },
        brands: { type: "array", items: typeRef("Brand"), description: "The Brands read." },
      },
      required: ["complete", "gapCount", "findings", "brands"],
    },
  },
};

/** The package schema, as a JSON value. */
export function packageSchema(version: string = packageVersion()): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  const types: Record<string, TypeSchema> = {};
  const addTypes = (from: Readonly<Record<string, TypeSchema>> | undefined, owner: string) => {
    for (const [name, t] of Object.entries(from ?? {})) {
      if (types[token(name)] !== undefined) throw new Error(`${owner}: the type ${name} is defined twice in the package schema`);
      types[token(name)] = t;
    }
  };
  addTypes({ OnDelete: ON_DELETE_TYPE }, "the kit (src/kit/provider/schema.ts)");
  for (const kind of KINDS) {
    const part = kind.pulumi.schema();
    resources[token(kind.pulumi.type)] = part.resource;
    addTypes(part.types, kind.name);
  }
  // The whole account as one resource (src/pulumi/plugin/account.ts): the plan engine's face, not a kind.
  resources[token(ACCOUNT_TYPE)] = accountSchema.resource;
  addTypes(FUNCTION_TYPES, "the data sources");
  const sortedTypes = Object.fromEntries(Object.entries(types).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    name: PACKAGE,
    displayName: "Wavix",
    version,
    description: "Wavix account configuration (sub-accounts, numbers, call webhooks, SIP trunks, Sender IDs, 10DLC links, callbacks) as Pulumi resources, one per object or one for the whole account: the native provider of wavix-sync.",
    keywords: ["pulumi", "wavix", "category/cloud", "kind/native"],
    license: "MIT",
    publisher: "wavix-sync",
    meta: { moduleFormat: "(.*)" },
    config: { variables: CONFIG },
    provider: {
      description: "The wavix provider: its settings are stack config `wavix:apiKey` (secret), `wavix:baseUrl` and `wavix:accountId`, or an explicit provider's inputs.",
      inputProperties: CONFIG,
    },
    types: sortedTypes,
    resources,
    functions: FUNCTION_SCHEMAS,
    language: {
      nodejs: { packageName: NODEJS_PACKAGE, packageDescription: "The Wavix provider for Pulumi (wavix-sync's native plugin), TypeScript SDK." },
      python: { packageName: PYTHON_PACKAGE },
      go: { importBasePath: GO_IMPORT_BASE, generateResourceContainerTypes: false },
    },
  };
}

/** The schema as the committed file holds it (two-space JSON, a final newline). */
export function packageSchemaText(version?: string): string {
  return `${JSON.stringify(packageSchema(version), null, 2)}\n`;
}
