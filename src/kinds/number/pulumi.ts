/**
 * The number kind in a Pulumi program: the dynamic resource `pulumi-nodejs:dynamic/wavix:PhoneNumber`
 * (its provider, run in the host, is ./provider.ts), its logical name and arguments from the file,
 * and the stack outputs it gives (Wavix ids).
 */
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../kit/pulumi/sdk";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { TransportCode } from "../../client/types";
import type { DesiredNumber, TransportInput } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";

// Output fields are `declare`d, not `!`-asserted: with ES2022 class fields a plain field would be
// re-initialised to undefined after `super()` has filled it with the resource's Output.

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
export class PhoneNumber extends WavixDynamicResource {
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
  /** Always true: a number is never bought, only adopted (a delete releases it only with `onDelete: "release"`). */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account whose key manages the number, recorded with `onDelete: "release"` (a release first checks it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

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
    super(shimFor("PhoneNumber"), name, { ...outputs, ...args, wavixId: undefined, adopted: undefined, accountId: undefined }, opts, RESOURCE_MODULE, "PhoneNumber");
  }
}

/** Logical name: `number:<digits>`. */
export const numberLogicalName = (digits: string): string => `number:${digits}`;

/** A file's number as camelCase args; keys the file omits stay absent (not managed). */
/** A trunk resource as a number's `trunk:` destination needs it (its login and id). */
export interface TrunkRef {
  login: pulumi.Input<string>;
  trunkId: pulumi.Input<number>;
}

export function phoneNumberArgs(d: DesiredNumber, trunkOf: (label: string) => TrunkRef | undefined = () => undefined): PhoneNumberArgs {
  const args: PhoneNumberArgs = { number: d.number };
  if (d.sms_enabled !== undefined) args.smsEnabled = d.sms_enabled;
  if (d.sms_relay_url !== undefined) args.smsRelayUrl = d.sms_relay_url;
  if (d.call_status_url !== undefined) args.callStatusUrl = d.call_status_url;
  if (d.call_recording_enabled !== undefined) args.callRecordingEnabled = d.call_recording_enabled;
  if (d.transcription_enabled !== undefined) args.transcriptionEnabled = d.transcription_enabled;
  if (d.transcription_threshold !== undefined) args.transcriptionThreshold = d.transcription_threshold;
  if (d.destinations !== undefined) {
    args.destinations = d.destinations.map((x) => {
      if (x.trunk !== undefined) {
        // A declared trunk by label: its outputs, so the number is written after the trunk exists.
        const t = trunkOf(x.trunk);
        if (!t) throw new sdk.RunError(`number ${d.number}: SIP trunk "${x.trunk}" is not declared in sip_trunks`);
        return { destination: t.login, transport: x.transport, priority: x.priority, trunkId: t.trunkId };
      }
      return x.transport === 5 && x.trunk_id !== null
        ? { destination: x.destination, transport: x.transport, priority: x.priority, trunkId: x.trunk_id }
        : { destination: x.destination, transport: x.transport, priority: x.priority };
    });
  }
  if (d.on_delete !== undefined) args.onDelete = d.on_delete;
  return args;
}

/**
 * The `subAccountId` of a tenant's number (the file's `sub_account:`): a pinned id as it is; a name
 * the file declares as that SubAccount resource's id output (so the number waits for it). A name
 * the file does not declare cannot be resolved while the program runs: an error saying what to write.
 */
function tenantSubAccountId(n: DesiredNumber, subAccounts: Readonly<Record<string, unknown>> | undefined): pulumi.Input<number> | undefined {
  const t = n.tenant;
  if (!t) return undefined;
  if (t.id !== undefined) return t.id;
  const resource = t.name !== undefined ? (subAccounts?.[t.name] as { subAccountId?: pulumi.Output<number> } | undefined) : undefined;
  if (resource?.subAccountId) return resource.subAccountId;
  throw new sdk.RunError(
    `number ${n.number}: sub_account ${JSON.stringify(t.name)} is not declared in the file's sub_accounts; ` +
      "under Pulumi a tenant's number needs its sub-account's id: declare the sub-account, or write its id (sub_account: <id>)",
  );
}

export const numberProgram: PulumiProgramPart<DesiredNumber[], PhoneNumber> = {
  declare(declared, opts, earlier) {
    const out: Record<string, PhoneNumber> = {};
    const trunks = (earlier?.sipTrunks ?? {}) as Readonly<Record<string, TrunkRef>>;
    for (const n of declared) {
      const args = phoneNumberArgs(n, (label) => trunks[label]);
      const subAccountId = tenantSubAccountId(n, earlier?.subAccounts);
      if (subAccountId !== undefined) args.subAccountId = subAccountId;
      out[n.number] = new PhoneNumber(numberLogicalName(n.number), args, { ...opts });
    }
    return out;
  },
  outputs(resources) {
    const numberIds: Record<string, pulumi.Output<number>> = {};
    for (const [digits, n] of Object.entries(resources)) numberIds[digits] = n.wavixId;
    return { numberIds };
  },
};
