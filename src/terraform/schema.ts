/**
 * The Terraform schema of `terraform-provider-wavix` (docs/TERRAFORM.md), generated from the kinds:
 * each kind's part of the package schema (src/kinds/<kind>/pulumi-schema.ts, itself built from the
 * file's schema fragment) gives a resource `wavix_<kind>` — its attributes snake_case as in the
 * YAML file, the same descriptions, secrets as `sensitive` — and the data sources come from the
 * native plugin's functions (src/pulumi/plugin/schema.ts). Nothing here is written twice by hand.
 *
 * How a Pulumi-shaped property becomes an attribute:
 *  - an input the kind requires is `required`; any other input is `optional` and `computed`: left
 *    out, the setting is left as it is in the account (the file's rule, docs/CONTRACT.md part 3),
 *    so state keeps what was there (an import, an earlier apply) and a plan shows no change;
 *  - an output only (`api_key`, `adopted`, `account_id`...) is `computed`; every resource has `id`;
 *  - `secret` is `sensitive`; an object type is a nested attribute; a list the kind compares as a
 *    set (its description says so) is a set; an enum is a string; "an enum or its code" a string.
 */
import { KINDS, type AnyKind } from "../kinds";
import { ON_DELETE_TYPE, type SchemaProperties, type SchemaProperty, type SchemaType, type TypeSchema } from "../kit/provider/schema";
import { CONFIG, FUNCTION_SCHEMAS, FUNCTION_TYPES } from "../pulumi/plugin/schema";
import { BLAST_DEFAULTS } from "../kit/gate/blast";

/** A Terraform type (cty's JSON form: `"string"`, `["list", "string"]`). */
export type TfType = "string" | "number" | "bool" | "dynamic" | readonly ["list" | "set" | "map", TfType];

export interface TfNested {
  readonly nesting: "single" | "list" | "set";
  readonly attributes: readonly TfAttribute[];
}

export interface TfAttribute {
  readonly name: string;
  /** The kind's (camelCase) name of the property this attribute holds. */
  readonly prop: string;
  readonly type?: TfType;
  readonly nested?: TfNested;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  /** An input of the kind (what a configuration may set). */
  readonly input: boolean;
  /** An input whose value the create decides when the configuration leaves it out (`sub_account_id`). */
  readonly decidedByCreate?: boolean;
  /** `""` in the configuration is the kind's `null`: clear the setting. */
  readonly emptyClears?: boolean;
  /** Any value, held as its JSON text. */
  readonly jsonText?: boolean;
  /** A string that also takes a code (`transport`): the kind's code, read back, as its name. */
  readonly codes?: ReadonlyMap<number, string>;
}

export interface TfBlock {
  readonly version: number;
  readonly description: string;
  readonly attributes: readonly TfAttribute[];
}

export interface TfResource {
  readonly typeName: string;
  readonly kind: AnyKind;
  readonly block: TfBlock;
}

/** The provider's name: resource types are `wavix_<name>`. */
export const PROVIDER_NAME = "wavix";

/** The version of every resource's schema (UpgradeResourceState upgrades older state to it). */
export const SCHEMA_VERSION = 0;

/** `subAccountId` → `sub_account_id`. */
export const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The Terraform type name of a kind: `wavix_sub_account`; numbers are `wavix_phone_number`, 10DLC links `wavix_ten_dlc_campaign_number` (the kinds' Pulumi type names). */
export const resourceTypeName = (kind: AnyKind): string => `${PROVIDER_NAME}_${snake(kind.pulumi.type).replace(/^_/, "")}`;

const REF = /^#\/types\/[^:]+:index:(.+)$/;

/** The types a property may name, by short name. */
function typeTable(): Map<string, TypeSchema> {
  const table = new Map<string, TypeSchema>([["OnDelete", ON_DELETE_TYPE]]);
  for (const kind of KINDS) for (const [n, t] of Object.entries(kind.pulumi.schema().types ?? {})) table.set(n, t);
  for (const [n, t] of Object.entries(FUNCTION_TYPES)) table.set(n, t);
  return table;
}

/** Codes an enum's values stand for, from their descriptions (`A SIP URI (code 1).`). */
function enumCodes(t: TypeSchema): Map<number, string> | undefined {
  if (t.type !== "string") return undefined;
  const codes = new Map<number, string>();
  for (const v of t.enum) {
    const m = /\(code (\d+)\)/.exec(v.description ?? "");
    if (m) codes.set(Number(m[1]), v.value);
  }
  return codes.size > 0 ? codes : undefined;
}

const isSet = (description: string): boolean => /\bas a set\b|\(a set\b/.test(description);

interface Shape {
  jsonText?: boolean;
  type?: TfType;
  nested?: TfNested;
  codes?: ReadonlyMap<number, string>;
}

/** The Terraform shape of a property's type. `asInput`: nested attributes take inputs' rules. */
function shapeOf(t: SchemaType, description: string, types: Map<string, TypeSchema>, asInput: boolean): Shape {
  if ("$ref" in t) {
    const m = REF.exec(t.$ref);
    const ref = m ? types.get(m[1]) : undefined;
    if (!ref) return { type: "dynamic" };
    if (ref.type === "string") return { type: "string" };
    return { nested: { nesting: "single", attributes: attributesOf(ref.properties, ref.required ?? [], types, asInput, asInput) } };
  }
  if ("oneOf" in t) {
    // An enum or its code (a destination's transport): a string; a list or one text (brands): a list.
    const list = t.oneOf.find((x) => "type" in x && x.type === "array");
    if (list) return shapeOf(list, description, types, asInput);
    const ref = t.oneOf.find((x) => "$ref" in x) as { $ref: string } | undefined;
    const m = ref ? REF.exec(ref.$ref) : null;
    const codes = m && types.get(m[1]) ? enumCodes(types.get(m[1])!) : undefined;
    return { type: "string", ...(codes ? { codes } : {}) };
  }
  switch (t.type) {
    case "string":
      return { type: "string" };
    case "integer":
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "bool" };
    case "array": {
      const item = shapeOf(t.items, description, types, asInput);
      const collection = isSet(description) ? "set" : "list";
      // A list's elements are whole values: their optional attributes are not computed.
      if (item.nested) return { nested: { nesting: collection, attributes: item.nested.attributes.map((a) => (a.optional ? { ...a, computed: false } : a)) } };
      return { type: [collection, item.type ?? "dynamic"] };
    }
    case "object":
      // Any shape (a vetting's details, as the API sent them): its JSON text.
      return { type: "string", jsonText: true };
  }
}

/** Attributes of an object type's properties (nested in a resource or a data source). */
function attributesOf(props: SchemaProperties, required: readonly string[], types: Map<string, TypeSchema>, asInput: boolean, optionalComputed: boolean): TfAttribute[] {
  return Object.entries(props).map(([prop, p]) => {
    const shape = shapeOf(p, p.description, types, asInput);
    const req = required.includes(prop);
    return {
      name: snake(prop),
      prop,
      ...shape,
      description: p.description,
      input: asInput,
      ...(asInput ? (req ? { required: true } : { optional: true, ...(optionalComputed ? { computed: true } : {}) }) : { computed: true }),
      ...(p.secret ? { sensitive: true } : {}),
    };
  });
}

/** One resource attribute from the kind's input and output properties. */
function resourceAttribute(prop: string, p: SchemaProperty, isInput: boolean, requiredInput: boolean, alwaysOut: boolean, types: Map<string, TypeSchema>): TfAttribute {
  const shape = shapeOf(p, p.description, types, isInput);
  const base = { name: snake(prop), prop, ...shape, description: p.description, input: isInput, ...(p.secret ? { sensitive: true } : {}) };
  if (!isInput) return { ...base, computed: true };
  if (requiredInput) return { ...base, required: true };
  // Left out, it is left as it is: so is every field inside it (Terraform keeps a left-out nested
  // value only when none of its fields is non-computed: OpenTofu internal/plans/objchange).
  const nested = shape.nested ? { nested: { ...shape.nested, attributes: shape.nested.attributes.map(leftAsIs) } } : {};
  return {
    ...base,
    ...nested,
    optional: true,
    computed: true,
    ...(alwaysOut ? { decidedByCreate: true } : {}),
    ...(/clears it/.test(p.description) && shape.type === "string" ? { emptyClears: true } : {}),
  };
}

/** An attribute that may be left out, and is then left as it is (the kind's check still requires what it requires). */
function leftAsIs(a: TfAttribute): TfAttribute {
  const nested = a.nested ? { nested: { ...a.nested, attributes: a.nested.attributes.map(leftAsIs) } } : {};
  return { ...a, ...nested, required: false, optional: true, computed: true };
}

/** The resource of a kind. */
export function resourceOf(kind: AnyKind, types: Map<string, TypeSchema> = typeTable()): TfResource {
  const r = kind.pulumi.schema().resource;
  const attributes: TfAttribute[] = [{ name: "id", prop: "id", type: "string", description: "The resource's id: the Wavix object's id as text (see docs/TERRAFORM.md, \"Import ids\", for what `import` takes).", computed: true, input: false }];
  const seen = new Set<string>();
  for (const [prop, p] of Object.entries(r.inputProperties)) {
    seen.add(prop);
    attributes.push(resourceAttribute(prop, p, true, r.requiredInputs.includes(prop), r.required.includes(prop), types));
  }
  for (const [prop, p] of Object.entries(r.properties)) {
    if (seen.has(prop)) continue;
    attributes.push(resourceAttribute(prop, p, false, false, false, types));
  }
  return { typeName: resourceTypeName(kind), kind, block: { version: SCHEMA_VERSION, description: r.description, attributes } };
}

/** Every resource, by type name. */
export function resources(): Map<string, TfResource> {
  const types = typeTable();
  return new Map(KINDS.map((k) => { const r = resourceOf(k, types); return [r.typeName, r]; }));
}

/** The provider block: `api_key` (sensitive; default WAVIX_API_KEY), `base_url`, `account_id` (the pin). */
export function providerBlock(): TfBlock {
  const text = (s: string) => s.replace(/`pulumi config set --secret wavix:apiKey <KEY>`; else /, "").replace(/Always secret: /, "Sensitive. Default: ");
  return {
    version: 0,
    description: "The wavix provider: the API key, the API's base URL, the account pin and the write gate's limit.",
    attributes: [
      ...Object.entries(CONFIG).map(([prop, p]) => ({
        name: snake(prop),
        prop,
        type: "type" in p && p.type === "integer" ? ("number" as const) : ("string" as const),
        description: text(p.description),
        optional: true,
        input: true,
        ...(p.secret ? { sensitive: true } : {}),
      })),
      // The write gate's settings (src/kit/gate/; docs/TERRAFORM.md, "Guard rails"); Pulumi's `wavix:maxDestructive`, `wavix:force`.
      {
        name: "max_destructive",
        prop: "maxDestructive",
        type: "number" as const,
        description: `The most destructive changes (a release, a disable, a delete, a replacement, an unlink) one plan or apply may make; the one past it is refused before any of its writes. Default: ${BLAST_DEFAULTS.max_destructive_total}.`,
        optional: true,
        input: true,
      },
      {
        name: "force",
        prop: "force",
        type: "bool" as const,
        description: "Lifts max_destructive for the run (each change past it is a warning). Set it for one run, from a variable, and remove it after.",
        optional: true,
        input: true,
      },
    ],
  };
}

export interface TfDataSource {
  readonly typeName: string;
  /** The function token of the native plugin whose computation it runs. */
  readonly token: string;
  readonly block: TfBlock;
}

/** The data sources `wavix_two_fa_events`, `wavix_brand_vettings`: the native plugin's functions. */
export function dataSources(): Map<string, TfDataSource> {
  const types = typeTable();
  const out = new Map<string, TfDataSource>();
  for (const [token, f] of Object.entries(FUNCTION_SCHEMAS)) {
    const name = token.split(":").pop()!.replace(/^get/, "");
    const typeName = `${PROVIDER_NAME}${snake(name)}`;
    const inputs = attributesOf(f.inputs.properties as unknown as SchemaProperties, (f.inputs as { required?: string[] }).required ?? [], types, true, false);
    // An output named like an input (brands: the ids asked for, the Brands read) is `result_<name>`.
    const outputs = attributesOf(f.outputs.properties as unknown as SchemaProperties, [], types, false, false).map((a) => (inputs.some((i) => i.name === a.name) ? { ...a, name: `result_${a.name}` } : a));
    out.set(typeName, { typeName, token, block: { version: 0, description: f.description, attributes: [...inputs, ...outputs, { name: "id", prop: "id", type: "string", description: "A fixed id (data sources have no Wavix object).", computed: true, input: false }] } });
  }
  return out;
}
