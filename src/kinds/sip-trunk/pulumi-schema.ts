/**
 * The SIP trunk kind's part of the native provider's package schema (`wavix:index:SipTrunk`;
 * src/kit/provider/schema.ts): the same inputs as the dynamic `SipTrunk` (./pulumi.ts), the
 * descriptions of the file's `sip_trunks:` (./schema.ts). `password` and `accessToken` are secrets.
 */
import { fileDescription, type KindSchemaPart, onDeleteProperty, ORIGIN_OUTPUTS, type SchemaProperties, type SchemaType } from "../../kit/provider/schema";
import { sipTrunksFragment } from "./schema";
import { TRUNK_SETTING_KEYS } from "./file";

const DEFS = sipTrunksFragment.definitions ?? {};
const d = (key: string) => fileDescription(DEFS, "sipTrunk", key);
const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** A setting's type from its file schema (every one is a boolean, an integer, text, or a list of text). */
function settingType(key: string): SchemaType {
  const p = ((DEFS.sipTrunk as { properties: Record<string, { type?: string }> }).properties)[key];
  if (p.type === "boolean" || p.type === "integer") return { type: p.type };
  if (p.type === "array") return { type: "array", items: { type: "string" } };
  return { type: "string" };
}

const settings: SchemaProperties = Object.fromEntries(TRUNK_SETTING_KEYS.map((k) => [camel(k), { ...settingType(k), description: d(k) }]));

const inputs: SchemaProperties = {
  label: {
    type: "string",
    description:
      "User-defined name of the trunk: its identity within the account (an existing trunk with this label is adopted). Without `trunkId`, a new label replaces the resource; with it, a new label renames the trunk in place.",
    willReplaceOnChanges: true,
  },
  trunkId: { type: "integer", description: "Pins one trunk by its Wavix ID (the file's `id:`): needed when two trunks share the label, and makes a new `label` a rename. Always set in the outputs." },
  password: {
    type: "string",
    secret: true,
    description: "The trunk's password (always secret, write-only: the API never shows it). Needed to create a trunk; sent again only when it changes (a rotation).",
  },
  passwordEnv: { type: "string", description: "Where the program took the password from (the file's `password_env`): kept in state as a note, never read by the provider." },
  ...settings,
  onDelete: onDeleteProperty("deletes the trunk"),
  passwordVersion: { type: "string", description: "Change it to send `password` again (a rotation); a create that adopts a trunk, or a replacement, never sends the password." },
};

export const sipTrunkSchema: KindSchemaPart = {
  resource: {
    description:
      "A Wavix SIP trunk. Only the settings given are managed. Deleting the resource deletes a trunk the stack made; one it adopted or imported stays unless `onDelete: \"delete\"`; and never while a number routes to it: the delete then warns naming the numbers, drops the trunk from the state and leaves it in the account. Import id: its exact label, or `id:<Wavix id>` to pin one.",
    inputProperties: inputs,
    requiredInputs: ["label"],
    properties: {
      ...inputs,
      ...ORIGIN_OUTPUTS,
      login: { type: "string", description: "The system-generated login: what a number's trunk destination names." },
      accessToken: { type: "string", secret: true, description: "The trunk's static authentication token (always secret)." },
      pinned: { type: "boolean", description: "True when the inputs pin `trunkId` (a refresh keeps the pin)." },
    },
    required: ["label", "trunkId", "login"],
  },
};
