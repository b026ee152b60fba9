/**
 * The call-webhook kind in a Pulumi program: the dynamic resource `pulumi-nodejs:dynamic/wavix:CallWebhook`
 * (its provider, run in the host, is ./provider.ts) and its logical name.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { CallWebhookEventType } from "../../client/types";
import type { DeclaredCallWebhooks } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";

// Output fields are `declare`d, not `!`-asserted: with ES2022 class fields a plain field would be
// re-initialised to undefined after `super()` has filled it with the resource's Output.

export interface CallWebhookArgs {
  /** `on-call` or `post-call`: the identity. */
  eventType: pulumi.Input<CallWebhookEventType>;
  /** http(s) URL Wavix calls. */
  url: pulumi.Input<string>;
}

/** The account's call webhook for one event type; deleting the resource deletes the webhook. */
export class CallWebhook extends WavixDynamicResource {
  declare public readonly eventType: pulumi.Output<CallWebhookEventType>;
  declare public readonly url: pulumi.Output<string>;

  constructor(name: string, args: CallWebhookArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("CallWebhook"), name, { ...args }, opts, RESOURCE_MODULE, "CallWebhook");
  }
}

/** Logical name: `call-webhook:<event type>`. */
export const callWebhookLogicalName = (eventType: CallWebhookEventType): string => `call-webhook:${eventType}`;

export const callWebhookProgram: PulumiProgramPart<DeclaredCallWebhooks, CallWebhook> = {
  declare(hooks, opts) {
    const out: Record<string, CallWebhook> = {};
    for (const eventType of Object.keys(hooks).sort() as CallWebhookEventType[]) {
      const url = hooks[eventType];
      if (url === undefined) continue;
      out[eventType] = new CallWebhook(callWebhookLogicalName(eventType), { eventType, url }, { ...opts });
    }
    return out;
  },
};
