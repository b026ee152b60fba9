/**
 * The native provider's package schema (src/pulumi/plugin/schema.ts): the committed
 * schemas/pulumi/schema.json is exactly the assembly of the kinds' parts (regenerate: `npm run
 * schema`), it describes every registered kind with the inputs its provider accepts, and it marks
 * every secret — the provider's API key, a sub-account's key, a trunk's password and access token.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds";
import { packageSchema, packageSchemaText } from "../../src/pulumi/plugin/schema";
import { ProviderSession } from "../../src/kit/provider/session";
import type { KindProvider } from "../../src/kit/provider/contract";
import { validateEntry } from "../../src/pulumi/provider-host";
import { accountCallbacksProvider } from "../../src/kinds/account-callbacks/provider";
import { callWebhookProvider } from "../../src/kinds/call-webhook/provider";
import { numberProvider } from "../../src/kinds/number/provider";
import { senderIdProvider } from "../../src/kinds/sender-id/provider";
import { sipTrunkProvider } from "../../src/kinds/sip-trunk/provider";
import { subAccountProvider } from "../../src/kinds/sub-account/provider";
import { tenDlcNumberProvider } from "../../src/kinds/ten-dlc-number/provider";

const ROOT = path.resolve(__dirname, "..", "..");
const COMMITTED = path.join(ROOT, "schemas", "pulumi", "schema.json");

type Prop = { secret?: boolean; replaceOnChanges?: boolean; $ref?: string; type?: string; items?: Prop };
type Resource = { inputProperties: Record<string, Prop>; properties: Record<string, Prop>; requiredInputs: string[]; required: string[]; description: string };
const schema = packageSchema() as { name: string; version: string; resources: Record<string, Resource>; types: Record<string, unknown>; config: { variables: Record<string, Prop> }; provider: { inputProperties: Record<string, Prop> }; functions: Record<string, unknown> };

// Each kind's provider, as `kind.provider()` loads it (a require of TypeScript the test runner cannot follow).
const PROVIDERS: Record<string, KindProvider> = {
  AccountCallbacks: accountCallbacksProvider,
  CallWebhook: callWebhookProvider,
  PhoneNumber: numberProvider,
  SenderId: senderIdProvider,
  SipTrunk: sipTrunkProvider,
  SubAccount: subAccountProvider,
  TenDlcCampaignNumber: tenDlcNumberProvider,
} as unknown as Record<string, KindProvider>;

/** The inputs a kind's provider accepts: what its `check` lists when given a property it does not know. */
async function acceptedInputs(kind: (typeof KINDS)[number]): Promise<string[]> {
  const ctx = new ProviderSession({ credentials: {}, missingApiKeyHint: "", warn: () => undefined, checkEntry: validateEntry });
  const provider = PROVIDERS[kind.pulumi.type];
  if (!provider) throw new Error(`no provider listed for ${kind.pulumi.type}: add it to PROVIDERS`);
  const { failures } = await provider.check(ctx, {}, { notAnInput: 1 });
  const reason = failures.find((f) => f.property === "notAnInput")?.reason ?? "";
  const m = /expected one of (.*)\)$/.exec(reason);
  if (!m) throw new Error(`${kind.name}: check did not list its inputs (${reason})`);
  return m[1].split(", ").sort();
}

describe("the native provider's package schema", () => {
  it("committed schemas/pulumi/schema.json equals the assembly of the kinds' parts, byte for byte (npm run schema)", () => {
    expect(readFileSync(COMMITTED, "utf8")).toBe(packageSchemaText());
  });

  it("is package wavix at this package's version, with a resource wavix:index:<Kind> for every registered kind, and the whole-account Account", () => {
    expect(schema.name).toBe("wavix");
    expect(schema.version).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
    expect(Object.keys(schema.resources).sort()).toEqual([...KINDS.map((k) => `wavix:index:${k.pulumi.type}`), "wavix:index:Account"].sort());
    expect(Object.keys(schema.resources).sort()).toEqual(
      ["Account", "AccountCallbacks", "CallWebhook", "PhoneNumber", "SenderId", "SipTrunk", "SubAccount", "TenDlcCampaignNumber"].map((t) => `wavix:index:${t}`),
    );
    expect(Object.keys(schema.functions).sort()).toEqual(["wavix:index:getBrandVettings", "wavix:index:getTwoFaEvents"]);
  });

  it.each(KINDS.map((k) => [k.pulumi.type, k] as const))("%s: its inputs are exactly those its provider accepts, each described", async (_type, kind) => {
    const r = schema.resources[`wavix:index:${kind.pulumi.type}`];
    expect(Object.keys(r.inputProperties).sort()).toEqual(await acceptedInputs(kind));
    for (const [name, p] of [...Object.entries(r.inputProperties), ...Object.entries(r.properties)]) {
      expect((p as { description?: string }).description, name).toMatch(/\S{3}/);
      // The arguments' camelCase names, not the file's snake_case (quoted file or wire names aside).
      const words = String((p as { description?: string }).description).replace(/`[^`]*`/g, "");
      expect(words, name).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    }
    for (const k of r.requiredInputs) expect(r.inputProperties).toHaveProperty(k);
    for (const k of r.required) expect(r.properties).toHaveProperty(k);
    // Every input is held in state too (outputs are the inputs plus what the API adds).
    for (const k of Object.keys(r.inputProperties)) expect(r.properties).toHaveProperty(k);
  });

  it("marks every secret: the API key, a sub-account's key, a trunk's password and access token — and nothing else", () => {
    const secrets: string[] = [];
    for (const [t, r] of Object.entries(schema.resources)) {
      for (const [k, p] of Object.entries(r.inputProperties)) if (p.secret) secrets.push(`${t} input ${k}`);
      for (const [k, p] of Object.entries(r.properties)) if (p.secret) secrets.push(`${t} output ${k}`);
    }
    expect(secrets.sort()).toEqual(
      ["wavix:index:SipTrunk input password", "wavix:index:SipTrunk output accessToken", "wavix:index:SipTrunk output password", "wavix:index:SubAccount output apiKey"].sort(),
    );
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.provider.inputProperties.apiKey.secret).toBe(true);
    expect(Object.keys(schema.config.variables).sort()).toEqual(["accountId", "apiKey", "baseUrl"]);
  });

  it("marks replaceOnChanges exactly where the API has no update (a Sender ID's fields, a 10DLC link's parts)", () => {
    const replacing: string[] = [];
    for (const [t, r] of Object.entries(schema.resources)) for (const [k, p] of Object.entries(r.inputProperties)) if (p.replaceOnChanges) replacing.push(`${t.split(":")[2]}.${k}`);
    expect(replacing.sort()).toEqual(
      [
        "SenderId.countries",
        "SenderId.samples",
        "SenderId.senderId",
        "SenderId.type",
        "SenderId.usecase",
        "TenDlcCampaignNumber.brandId",
        "TenDlcCampaignNumber.campaignId",
        "TenDlcCampaignNumber.number",
      ].sort(),
    );
  });

  it("every type reference names a type the schema defines", () => {
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/types\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(5);
    for (const r of refs) expect(schema.types).toHaveProperty([r]);
  });

  it("says each kind's import id in its description", () => {
    for (const [t, r] of Object.entries(schema.resources)) expect(r.description, t).toMatch(/[Ii]mport id/);
  });
});
