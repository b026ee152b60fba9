/**
 * The sub-account kind in a Pulumi program: the dynamic resource `pulumi-nodejs:dynamic/wavix:SubAccount`
 * (its provider, run in the host, is ./provider.ts), its logical name and arguments from the file,
 * and the stack outputs it gives (ids, secret keys).
 */
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../kit/pulumi/sdk";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { DesiredSubAccount } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";

// Output fields are `declare`d, not `!`-asserted: with ES2022 class fields a plain field would be
// re-initialised to undefined after `super()` has filled it with the resource's Output.

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
  /**
   * What deleting the resource does: `"delete"` disables it even when this stack adopted it (it existed
   * before the stack's create); `"retain"` never disables it. Not given: one the stack created is disabled (the API has no delete), one it adopted is left as it is.
   */
  onDelete?: pulumi.Input<"delete" | "retain">;
}

/**
 * A Wavix sub-account. Deleting it disables it (the API has no delete) when the stack created it,
 * or when `onDelete: "delete"`; an adopted one is left as it is. `apiKey` is always secret.
 */
export class SubAccount extends WavixDynamicResource {
  declare public readonly name: pulumi.Output<string>;
  declare public readonly status: pulumi.Output<"enabled" | "disabled" | undefined>;
  declare public readonly defaultDestinations: pulumi.Output<{ smsEndpoint?: string | null; dlrEndpoint?: string | null } | undefined>;
  /** The sub-account's Wavix ID. */
  declare public readonly subAccountId: pulumi.Output<number>;
  /** The sub-account's own API key (secret). */
  declare public readonly apiKey: pulumi.Output<string>;
  declare public readonly masterOrganization: pulumi.Output<number>;
  /** True when the create found the sub-account in place and adopted it; false when it made it. */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account the sub-account belongs to (a delete first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: SubAccountArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      shimFor("SubAccount"),
      name,
      // Every declared output gets a property, even when its input is omitted (undefined is not sent).
      { status: undefined, defaultDestinations: undefined, onDelete: undefined, ...args, subAccountId: args.subAccountId, apiKey: undefined, masterOrganization: undefined, adopted: undefined, accountId: undefined },
      { ...opts, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), "apiKey"])] },
      RESOURCE_MODULE,
      "SubAccount",
    );
  }
}

/**
 * Logical name: `sub-account:<name>`; a sub-account the file pins with `id:` is named by its id
 * (`sub-account:id:2003`), so renaming it in the file renames it in place (docs/CONTRACT.md part 6).
 */
export const subAccountLogicalName = (name: string, id?: number): string => (id === undefined ? `sub-account:${name}` : `sub-account:id:${id}`);

/** A file's sub-account as camelCase args; keys the file omits stay absent (not managed). */
export function subAccountArgs(d: DesiredSubAccount): SubAccountArgs {
  const args: SubAccountArgs = { name: d.name };
  if (d.id !== undefined) args.subAccountId = d.id;
  if (d.status !== undefined) args.status = d.status;
  const dd = d.default_destinations;
  if (dd !== undefined) {
    const out: { smsEndpoint?: string; dlrEndpoint?: string } = {};
    if (dd.sms_endpoint !== undefined) out.smsEndpoint = dd.sms_endpoint;
    if (dd.dlr_endpoint !== undefined) out.dlrEndpoint = dd.dlr_endpoint;
    args.defaultDestinations = out;
  }
  return args;
}

export const subAccountProgram: PulumiProgramPart<DesiredSubAccount[], SubAccount> = {
  declare(declared, opts) {
    const out: Record<string, SubAccount> = {};
    for (const s of declared) {
      // State written before pinned sub-accounts were named by id used the name: the alias lets the
      // engine take that resource over instead of creating one and deleting (disabling) the other.
      const aliases = s.id === undefined ? opts.aliases : [...(opts.aliases ?? []), { name: subAccountLogicalName(s.name) }];
      out[s.name] = new SubAccount(subAccountLogicalName(s.name, s.id), subAccountArgs(s), { ...opts, ...(aliases ? { aliases } : {}) });
    }
    return out;
  },
  outputs(resources) {
    const subAccountIds: Record<string, pulumi.Output<number>> = {};
    const keys: Record<string, pulumi.Output<string>> = {};
    for (const [name, sa] of Object.entries(resources)) {
      subAccountIds[name] = sa.subAccountId;
      keys[name] = sa.apiKey;
    }
    return { subAccountIds, subAccountApiKeys: sdk.secret(sdk.all(keys)) };
  },
};
