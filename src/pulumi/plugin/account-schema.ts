/**
 * The package schema of `wavix:index:Account` (docs/PULUMI.md, "One resource for a whole account"):
 * the whole desired state — the file named by `file`, or the same content inline as maps keyed by
 * identity — as ONE resource, served by src/pulumi/plugin/account.ts. Plain data, like the kinds'
 * parts (src/kinds/<kind>/pulumi-schema.ts); the assembler (./schema.ts) adds it beside them.
 */
import { ANY, type KindSchemaPart, type SchemaProperties } from "../../kit/provider/schema";

/** The resource's type name (`wavix:index:Account`). */
export const ACCOUNT_TYPE = "Account";

const map = (description: string) => ({ type: "object" as const, additionalProperties: ANY, description });

/** The inline maps: each a collection of the file (its top-level key in camelCase), keyed by the item's identity. */
const INLINE: SchemaProperties = {
  subAccounts: map("Inline: the file's `sub_accounts:` by name, each entry's other keys in camelCase (`status`, `defaultDestinations`, `id` to pin)."),
  sipTrunks: map("Inline: the file's `sip_trunks:` by label, each entry's other keys in camelCase (`passwordEnv`, `allowedIps`, ...)."),
  numbers: map("Inline: the file's `numbers:` by digits, each entry's other keys in camelCase (`smsEnabled`, `destinations`, `subAccount`, ...)."),
  callWebhooks: { type: "object", additionalProperties: { type: "string" }, description: "Inline: the file's `call_webhooks:` (event type to URL)." },
  senderIds: map("Inline: the file's `sender_ids:` by Sender ID, each entry's other keys in camelCase."),
  tenDlcCampaignNumbers: map("Inline: the file's `ten_dlc_campaign_numbers:` by `BRAND/CAMPAIGN`, each `{numbers: [...]}`."),
  accountCallbacks: map("Inline: the file's `account_callbacks:` (`smsRelayUrl`, `dlrRelayUrl`)."),
  accountId: { type: "integer", description: "Inline: the file's `account_id:`, the account the key must belong to (checked before anything is written)." },
  safety: map("Inline: the file's `safety:` (`maxDestructiveTotal`, `maxDestructivePercent`, `minItems`): the blast-radius limits of an update."),
};

const settings: SchemaProperties = {
  file: {
    type: "string",
    description:
      "The desired-state file (wavix.yaml), relative to the program's working directory (the folder of Pulumi.yaml, or of its `main`). Read at every preview and update: its content is what is managed (the state holds its path, its SHA-256 and what the plan changes, not its content). Give `file` or the inline maps, not both.",
  },
  prune: {
    type: "boolean",
    description: "As `wavix-sync apply --prune`: disable undeclared sub-accounts; delete undeclared call webhooks, SIP trunks and Sender IDs; unlink undeclared numbers of declared 10DLC campaigns. Default false.",
  },
};

export const accountSchema: KindSchemaPart = {
  resource: {
    description:
      "A whole Wavix account in the declared state as ONE resource: its diff is `wavix-sync plan` (the account read in listing pages, not one read per object) and names every changed property of every object (`numbers[\"15551230001\"].smsEnabled`); create and update are `wavix-sync apply` of that plan, through the same guard rails (the account pin, the blast-radius limit `wavix:maxDestructive` / the file's `safety:`, overridden by `wavix:force`). Deleting the resource leaves the account as it is. Import id: the path of the file.",
    inputProperties: { ...settings, ...INLINE },
    requiredInputs: [],
    properties: {
      ...settings,
      accountId: { type: "integer", description: "The account the key belongs to (absent when the key may not read its profile)." },
      digest: { type: "string", description: "SHA-256 of the declared state as the resource holds it (normalised): changes exactly when what is declared changes." },
      declared: { type: "object", additionalProperties: { type: "integer" }, description: "How many items of each collection are declared (`numbers`, `subAccounts`, ...)." },
      lastApply: {
        type: "object",
        additionalProperties: { type: "integer" },
        description: "What the last create or update did: `create`, `update`, `replace`, `delete` (items changed) and `unchanged`.",
      },
    },
    required: ["digest", "declared", "lastApply"],
  },
};
