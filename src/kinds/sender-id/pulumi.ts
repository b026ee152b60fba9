/**
 * The Sender ID kind in a Pulumi program: the dynamic resource `pulumi-nodejs:dynamic/wavix:SenderId`
 * (its provider, run in the host, is ./provider.ts), its logical name and arguments from the file.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { DesiredSenderId } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";

export interface SenderIdArgs {
  /** The name messages are sent from (digits for a numeric one): the identity. */
  senderId: pulumi.Input<string>;
  type: pulumi.Input<"numeric" | "alphanumeric">;
  /** Two-letter ISO codes (a set). */
  countries: pulumi.Input<pulumi.Input<string>[]>;
  usecase: pulumi.Input<"transactional" | "promo" | "authentication">;
  /** Sent on create only. */
  monthlyVolume?: pulumi.Input<"1-1000" | "1001-20000" | "20001-50000" | "50001-100000" | "More than 100000">;
  samples?: pulumi.Input<pulumi.Input<string>[]>;
  /** Allow a change to be carried out as a replace (the API has no update). */
  replace?: pulumi.Input<boolean>;
  /**
   * What deleting the resource does: `"delete"` deletes it even when this stack adopted it (it existed
   * before the stack's create); `"retain"` never deletes it. Not given: one the stack created is deleted, one it adopted is left as it is (a deleted Sender ID must be approved again). With `"delete"`, a create may also replace an existing one that differs (with `replace: true`).
   */
  onDelete?: pulumi.Input<"delete" | "retain">;
}

/**
 * A Sender ID; deleting the resource deletes one the stack created (or any, with `onDelete:
 * "delete"`) and leaves one it adopted as it is. A change needs `replace: true`.
 */
export class SenderId extends WavixDynamicResource {
  declare public readonly senderId: pulumi.Output<string>;
  declare public readonly type: pulumi.Output<"numeric" | "alphanumeric">;
  declare public readonly countries: pulumi.Output<string[]>;
  declare public readonly usecase: pulumi.Output<string>;
  /** The Sender ID's Wavix id (a UUID). */
  declare public readonly wavixId: pulumi.Output<string>;
  /** True when the create found the Sender ID in place and adopted it; false when it made it. */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account the Sender ID belongs to (a delete first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: SenderIdArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("SenderId"), name, { ...args, wavixId: undefined, adopted: undefined, accountId: undefined }, opts, RESOURCE_MODULE, "SenderId");
  }
}

/** Logical name: `sender-id:<sender_id>`. */
export const senderIdLogicalName = (senderId: string): string => `sender-id:${senderId}`;

/** A file's Sender ID as camelCase args; keys the file omits stay absent. */
export function senderIdArgs(d: DesiredSenderId): SenderIdArgs {
  const args: SenderIdArgs = { senderId: d.sender_id, type: d.type, countries: [...d.countries], usecase: d.usecase };
  if (d.monthly_volume !== undefined) args.monthlyVolume = d.monthly_volume;
  if (d.samples !== undefined) args.samples = [...d.samples];
  if (d.replace !== undefined) args.replace = d.replace;
  return args;
}

export const senderIdProgram: PulumiProgramPart<DesiredSenderId[], SenderId> = {
  declare(declared, opts) {
    const out: Record<string, SenderId> = {};
    for (const d of declared) out[d.sender_id] = new SenderId(senderIdLogicalName(d.sender_id), senderIdArgs(d), { ...opts });
    return out;
  },
  outputs(resources) {
    const senderIdIds: Record<string, pulumi.Output<string>> = {};
    for (const [key, r] of Object.entries(resources)) senderIdIds[key] = r.wavixId;
    return { senderIdIds };
  },
};
