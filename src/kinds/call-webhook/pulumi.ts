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
  /**
   * What deleting the resource does: `"delete"` deletes it even when this stack adopted it (it existed
   * before the stack's create); `"retain"` never deletes it. Not given: a webhook the stack set is deleted, one it adopted is left as it is.
   */
  onDelete?: pulumi.Input<"delete" | "retain">;
}

/**
 * The account's call webhook for one event type; deleting the resource deletes a webhook the stack
 * set (or any, with `onDelete: "delete"`), and leaves one it adopted as it is.
 */
export class CallWebhook extends WavixDynamicResource {
  declare public readonly eventType: pulumi.Output<CallWebhookEventType>;
  declare public readonly url: pulumi.Output<string>;
  /** True when the create found the webhook in place and adopted it; false when it made it. */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account the webhook belongs to (a delete first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: CallWebhookArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(shimFor("CallWebhook"), name, { onDelete: undefined, ...args, adopted: undefined, accountId: undefined }, opts, RESOURCE_MODULE, "CallWebhook");
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
