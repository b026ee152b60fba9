/**
 * A kind's part of the Pulumi package schema of the native provider plugin `pulumi-resource-wavix`
 * (docs/PULUMI.md; the format is Pulumi's package schema: pulumi/pulumi pkg/codegen/schema). Each
 * kind describes its resource in its folder (src/kinds/<kind>/pulumi-schema.ts); the plugin's
 * schema (src/pulumi/plugin/schema.ts) assembles the parts, with the package's config and functions,
 * into schemas/pulumi/schema.json. Plain data: no engine type or import.
 */

/** The package name: resource tokens are `wavix:index:<Type>`, config keys `wavix:<key>`. */
export const PACKAGE = "wavix";

/** The token of a resource, function or type of the package's one module (`wavix:index:PhoneNumber`). */
export const token = (name: string): string => `${PACKAGE}:index:${name}`;

/** A reference to an object or enum type of the package. */
export const typeRef = (name: string): { $ref: string } => ({ $ref: `#/types/${token(name)}` });

/** Any value (Pulumi's built-in `Any` type). */
export const ANY: { $ref: string } = { $ref: "pulumi.json#/Any" };

/** The type of a property: a primitive, a list, a map, a reference, or one of several. */
export type SchemaType =
  | { readonly type: "string" | "integer" | "number" | "boolean" }
  | { readonly type: "array"; readonly items: SchemaType }
  | { readonly type: "object"; readonly additionalProperties: SchemaType }
  | { readonly $ref: string }
  | { readonly oneOf: readonly SchemaType[] };

/** A property of a resource, a function or an object type. */
export type SchemaProperty = SchemaType & {
  readonly description: string;
  /** Always a secret: the SDKs and Pulumi YAML wrap it, the plugin returns it wrapped. */
  readonly secret?: true;
  /** A change of it replaces the resource (the API cannot update it in place). */
  readonly replaceOnChanges?: true;
  /** A change of it replaces the resource: shown in the SDKs' docs (identity changes). */
  readonly willReplaceOnChanges?: true;
  readonly default?: string | number | boolean;
  /** Where a provider config value also comes from (`WAVIX_API_KEY`). */
  readonly defaultInfo?: { readonly environment: readonly string[] };
};

export type SchemaProperties = Readonly<Record<string, SchemaProperty>>;

export interface ObjectTypeSchema {
  readonly type: "object";
  readonly description: string;
  readonly properties: SchemaProperties;
  readonly required?: readonly string[];
}

export interface EnumTypeSchema {
  readonly type: "string";
  readonly description: string;
  readonly enum: readonly { readonly value: string; readonly name?: string; readonly description?: string }[];
}

export type TypeSchema = ObjectTypeSchema | EnumTypeSchema;

/** A resource: its inputs (what a program declares) and its outputs (what state holds). */
export interface ResourceSchema {
  readonly description: string;
  readonly inputProperties: SchemaProperties;
  readonly requiredInputs: readonly string[];
  readonly properties: SchemaProperties;
  readonly required: readonly string[];
}

/** What a kind gives the package schema: its resource, and the types its properties name (by short name). */
export interface KindSchemaPart {
  readonly resource: ResourceSchema;
  readonly types?: Readonly<Record<string, TypeSchema>>;
}

/** The top-level property names of `properties` whose values are always secret. */
export function secretProperties(properties: SchemaProperties): string[] {
  return Object.entries(properties)
    .filter(([, p]) => p.secret === true)
    .map(([k]) => k);
}

/**
 * A string enum's values, each with a description; `names` gives the SDKs' member name of a value
 * that is no identifier (`on-call` → `OnCall`).
 */
export function stringEnum(description: string, values: Readonly<Record<string, string>>, names: Readonly<Record<string, string>> = {}): EnumTypeSchema {
  return { type: "string", description, enum: Object.entries(values).map(([value, d]) => ({ value, ...(names[value] ? { name: names[value] } : {}), description: d })) };
}

/**
 * A description taken from the desired-state file's schema (the kind's file fragment), its
 * snake_case names in the camelCase of the resources' arguments: one text for the file and the
 * resource. Throws when the path names nothing (a kind's schema part would be out of date).
 */
export function fileDescription(definitions: Readonly<Record<string, unknown>>, definition: string, property?: string): string {
  const def = definitions[definition] as { description?: string; properties?: Record<string, { description?: string }> } | undefined;
  const text = property === undefined ? def?.description : def?.properties?.[property]?.description;
  if (typeof text !== "string") throw new Error(`the file schema has no description for ${definition}${property ? `.${property}` : ""}`);
  return text.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => w.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()));
}

/**
 * The `onDelete` input of the kinds whose delete may destroy something (src/kit/provider/guards.ts):
 * one type for all of them (`wavix:index:OnDelete`, added by the package assembler).
 */
export const ON_DELETE_TYPE: EnumTypeSchema = stringEnum("What deleting a resource does to the object it holds.", {
  delete: "Delete (disable, unlink) it even when the stack adopted it.",
  retain: "Never delete it: the resource leaves the stack, the object stays.",
});

/** The `onDelete` input, `what` saying what a delete does (`deletes the webhook`). */
export function onDeleteProperty(what: string): SchemaProperty {
  return {
    ...typeRef("OnDelete"),
    description: `What deleting the resource does: \`delete\` ${what} even when the stack adopted it; \`retain\` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.`,
  };
}

/** The outputs every adopting kind records (src/kit/provider/guards.ts). */
export const ORIGIN_OUTPUTS: SchemaProperties = {
  adopted: { type: "boolean", description: "True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`)." },
  accountId: { type: "integer", description: "The account whose key made or adopted the object: a delete with another account's key is refused." },
};
