/**
 * The account callback defaults in a Pulumi program: the dynamic resource
 * `pulumi-nodejs:dynamic/wavix:AccountCallbacks` (one per stack; its provider is ./provider.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { DesiredAccountCallbacks } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";

export interface AccountCallbacksArgs {
  smsRelayUrl?: pulumi.Input<string>;
  dlrRelayUrl?: pulumi.Input<string>;
}

/** The account's callback defaults; sent when they change against state (the API cannot show them). */
export class AccountCallbacks extends WavixDynamicResource {
  declare public readonly smsRelayUrl: pulumi.Output<string | undefined>;
  declare public readonly dlrRelayUrl: pulumi.Output<string | undefined>;
  /** The account the callbacks were sent to (an update first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: AccountCallbacksArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("AccountCallbacks"), name, { smsRelayUrl: undefined, dlrRelayUrl: undefined, ...args, accountId: undefined }, opts, RESOURCE_MODULE, "AccountCallbacks");
  }
}

export const ACCOUNT_CALLBACKS_LOGICAL_NAME = "account-callbacks";

export const accountCallbacksProgram: PulumiProgramPart<DesiredAccountCallbacks, AccountCallbacks> = {
  declare(d, opts): Record<string, AccountCallbacks> {
    const args: AccountCallbacksArgs = {};
    if (d.sms_relay_url !== undefined) args.smsRelayUrl = d.sms_relay_url;
    if (d.dlr_relay_url !== undefined) args.dlrRelayUrl = d.dlr_relay_url;
    if (Object.keys(args).length === 0) return {};
    return { profile: new AccountCallbacks(ACCOUNT_CALLBACKS_LOGICAL_NAME, args, { ...opts }) };
  },
};
