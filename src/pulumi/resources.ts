/**
 * The Pulumi dynamic resources (PRODUCT.md part 6). Types read
 * `pulumi-nodejs:dynamic/wavix:SubAccount` etc. The provider passed to Pulumi is a shim that loads
 * `provider-impl.js` inside the host (see `shim.ts`), so state holds no key and no client.
 */
import * as pulumi from "@pulumi/pulumi";
import type { CallWebhookEventType, TransportCode } from "../client/types";
import { shimFor } from "./shim";
import type { TransportInput } from "./types";

/** Module of the dynamic resource types: `pulumi-nodejs:dynamic/wavix:<Type>`. */
export const RESOURCE_MODULE = "wavix";

// Output fields are `declare`d, not `!`-asserted: with ES2022 class fields a plain field would be
// re-initialised to undefined after `super()` has filled it with the resource's Output.

// ---- SubAccount -------------------------------------------------------------------------------

export interface SubAccountArgs {
  /** Identity within the account: an existing sub-account with this exact name is adopted. */
  name: pulumi.Input<string>;
  /**
   * Pins one sub-account by its Wavix ID when several share the name (the file's `id:`); a new
   * `name` then renames it. Pulumi reserves the property name `id`, hence this name.
   */
  subAccountId?: pulumi.Input<number>;
  /** Left as it is when omitted. */
  status?: pulumi.Input<"enabled" | "disabled">;
  /** Either endpoint may be omitted: it is then left as it is. */
  defaultDestinations?: pulumi.Input<{
    smsEndpoint?: pulumi.Input<string>;
    dlrEndpoint?: pulumi.Input<string>;
  }>;
}

/**
 * A Wavix sub-account. Deleting it disables it (the API has no delete). `apiKey` is always secret.
 */
export class SubAccount extends pulumi.dynamic.Resource {
  declare public readonly name: pulumi.Output<string>;
  declare public readonly status: pulumi.Output<"enabled" | "disabled" | undefined>;
  declare public readonly defaultDestinations: pulumi.Output<{ smsEndpoint?: string | null; dlrEndpoint?: string | null } | undefined>;
  /** The sub-account's Wavix ID. */
  declare public readonly subAccountId: pulumi.Output<number>;
  /** The sub-account's own API key (secret). */
  declare public readonly apiKey: pulumi.Output<string>;
  declare public readonly masterOrganization: pulumi.Output<number>;

  constructor(name: string, args: SubAccountArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      shimFor("SubAccount"),
      name,
      // Every declared output gets a property, even when its input is omitted (undefined is not sent).
      { status: undefined, defaultDestinations: undefined, ...args, subAccountId: args.subAccountId, apiKey: undefined, masterOrganization: undefined },
      { ...opts, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), "apiKey"])] },
      RESOURCE_MODULE,
      "SubAccount",
    );
  }
}

// ---- PhoneNumber ------------------------------------------------------------------------------

export interface DestinationArgs {
  /** SIP URI, PSTN number, or a SIP trunk's login. */
  destination: pulumi.Input<string>;
  /** `sip` (1), `pstn` (4) or `trunk` (5). */
  transport: pulumi.Input<TransportInput>;
  /** Routing order; lower is tried first. */
  priority: pulumi.Input<number>;
  /** The SIP trunk's ID: required for `trunk`, refused otherwise. */
  trunkId?: pulumi.Input<number>;
}

export interface PhoneNumberArgs {
  /** Digits of a number the account (or `subAccountId`) owns; a leading `+` is dropped. Never bought. */
  number: pulumi.Input<string>;
  /** Manage the number with this sub-account's key (the number belongs to it). */
  subAccountId?: pulumi.Input<number>;
  smsEnabled?: pulumi.Input<boolean>;
  /** `null` clears it. */
  smsRelayUrl?: pulumi.Input<string | null>;
  /** `null` clears it. */
  callStatusUrl?: pulumi.Input<string | null>;
  callRecordingEnabled?: pulumi.Input<boolean>;
  transcriptionEnabled?: pulumi.Input<boolean>;
  /** Minimum call duration in seconds that triggers transcription. */
  transcriptionThreshold?: pulumi.Input<number>;
  /** Compared as a set: order does not matter. */
  destinations?: pulumi.Input<pulumi.Input<DestinationArgs>[]>;
  /**
   * What deleting the resource does: keep the number, or release it back to Wavix.
   * @default "retain"
   */
  onDelete?: pulumi.Input<"retain" | "release">;
}

/** A number the account already owns, adopted and kept in the declared state. */
export class PhoneNumber extends pulumi.dynamic.Resource {
  declare public readonly number: pulumi.Output<string>;
  declare public readonly subAccountId: pulumi.Output<number | undefined>;
  declare public readonly smsEnabled: pulumi.Output<boolean | undefined>;
  declare public readonly smsRelayUrl: pulumi.Output<string | null | undefined>;
  declare public readonly callStatusUrl: pulumi.Output<string | null | undefined>;
  declare public readonly callRecordingEnabled: pulumi.Output<boolean | undefined>;
  declare public readonly transcriptionEnabled: pulumi.Output<boolean | undefined>;
  declare public readonly transcriptionThreshold: pulumi.Output<number | undefined>;
  declare public readonly destinations: pulumi.Output<
    { destination: string; transport: TransportCode; priority: number; trunkId?: number }[] | undefined
  >;
  declare public readonly onDelete: pulumi.Output<"retain" | "release" | undefined>;
  /** The number's Wavix ID. */
  declare public readonly wavixId: pulumi.Output<number>;

  constructor(name: string, args: PhoneNumberArgs, opts: pulumi.CustomResourceOptions = {}) {
    // Every declared output gets a property, even when its input is omitted (undefined is not sent).
    const outputs = {
      subAccountId: undefined,
      smsEnabled: undefined,
      smsRelayUrl: undefined,
      callStatusUrl: undefined,
      callRecordingEnabled: undefined,
      transcriptionEnabled: undefined,
      transcriptionThreshold: undefined,
      destinations: undefined,
      onDelete: undefined,
      wavixId: undefined,
    };
    super(shimFor("PhoneNumber"), name, { ...outputs, ...args, wavixId: undefined }, opts, RESOURCE_MODULE, "PhoneNumber");
  }
}

// ---- CallWebhook ------------------------------------------------------------------------------

export interface CallWebhookArgs {
  /** `on-call` or `post-call`: the identity. */
  eventType: pulumi.Input<CallWebhookEventType>;
  /** http(s) URL Wavix calls. */
  url: pulumi.Input<string>;
}

/** The account's call webhook for one event type; deleting the resource deletes the webhook. */
export class CallWebhook extends pulumi.dynamic.Resource {
  declare public readonly eventType: pulumi.Output<CallWebhookEventType>;
  declare public readonly url: pulumi.Output<string>;

  constructor(name: string, args: CallWebhookArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("CallWebhook"), name, { ...args }, opts, RESOURCE_MODULE, "CallWebhook");
  }
}
