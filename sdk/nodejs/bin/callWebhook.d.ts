import * as pulumi from "@pulumi/pulumi";
import * as enums from "./types/enums";
/**
 * An account-wide call webhook, one per event type. Deleting the resource deletes a webhook the stack made; one it adopted (found in place at create) or imported stays unless `onDelete: "delete"`. Import id: the event type (`on-call`, `post-call`).
 */
export declare class CallWebhook extends pulumi.CustomResource {
    /**
     * Get an existing CallWebhook resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): CallWebhook;
    /**
     * Returns true if the given object is an instance of CallWebhook.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is CallWebhook;
    /**
     * The account whose key made or adopted the object: a delete with another account's key is refused.
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`).
     */
    readonly adopted: pulumi.Output<boolean | undefined>;
    /**
     * `on-call` (notified while a call is in progress) or `post-call` (when it has ended): the webhook's identity and the resource ID.
     */
    readonly eventType: pulumi.Output<enums.CallWebhookEventType>;
    /**
     * What deleting the resource does: `delete` deletes the webhook even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    readonly onDelete: pulumi.Output<enums.OnDelete | undefined>;
    /**
     * The URL notified (http or https).
     */
    readonly url: pulumi.Output<string>;
    /**
     * Create a CallWebhook resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: CallWebhookArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a CallWebhook resource.
 */
export interface CallWebhookArgs {
    /**
     * `on-call` (notified while a call is in progress) or `post-call` (when it has ended): the webhook's identity and the resource ID.
     */
    eventType: pulumi.Input<enums.CallWebhookEventType>;
    /**
     * What deleting the resource does: `delete` deletes the webhook even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    onDelete?: pulumi.Input<enums.OnDelete | undefined>;
    /**
     * The URL notified (http or https).
     */
    url: pulumi.Input<string>;
}
//# sourceMappingURL=callWebhook.d.ts.map