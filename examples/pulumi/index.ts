// Wavix resources declared in code with the wavix-sync library (docs/CONTRACT.md part 6), beside the
// resources of a desired-state file. Credentials: `wavix:apiKey` (secret) or WAVIX_API_KEY; never
// in code. Logical names come from identities, so reordering never replaces anything.
import * as pulumi from "@pulumi/pulumi";
import {
  CallWebhook,
  PhoneNumber,
  SubAccount,
  declareResources,
  getBrandVettingsOutput,
  getTwoFaEventsOutput,
  loadStateOrThrow,
} from "wavix-sync/pulumi";

// A tenant: its sub-account (adopted when one with this name exists, created otherwise) ...
const tenant = new SubAccount("sub-account:Acme Support", {
  name: "Acme Support",
  status: "enabled",
  defaultDestinations: { smsEndpoint: "https://hooks.acme.example/sms" },
});

// ... and one of its numbers, managed with the tenant's own key (fetched at run time, never stored).
new PhoneNumber("number:15551230007", {
  number: "15551230007",
  subAccountId: tenant.subAccountId,
  smsEnabled: true,
  callStatusUrl: "https://hooks.acme.example/call-status",
  destinations: [
    { destination: "sip.acme.example", transport: "sip", priority: 1 },
    { destination: "acme-trunk", transport: "trunk", trunkId: 310, priority: 2 },
  ],
  onDelete: "retain", // the default: deleting the resource keeps the number
});

new CallWebhook("call-webhook:on-call", { eventType: "on-call", url: "https://hooks.platform.example/on-call" });

// Everything a desired-state file declares (its names never collide with the ones above).
const declared = declareResources(loadStateOrThrow("../multi-tenant.yaml"));

export const tenantId = tenant.subAccountId;
export const tenantApiKey = tenant.apiKey; // secret: additionalSecretOutputs
export const fileSubAccounts = Object.keys(declared.subAccounts);

const events = getTwoFaEventsOutput({ sessions: ["8753d4308f2e11ecb75fcdafd6d2d690"] });
export const twoFaChargeTotal = events.charge_total;

const vettings = getBrandVettingsOutput({ brands: ["B6AI7PA"] });
export const brandScores = vettings.brands.apply((bs) =>
  Object.fromEntries(bs.map((b) => [b.brand_id, b.effective_score])),
);
export const stack = pulumi.getStack();
