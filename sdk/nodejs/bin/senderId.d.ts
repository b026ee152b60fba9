import * as pulumi from "@pulumi/pulumi";
import * as enums from "./types/enums";
/**
 * An SMS Sender ID. The API has no update: a change of a field it shows is a replacement (delete, then create, then approval again), allowed only with `replace: true`. Import id: the Sender ID itself (`ACME`) or its Wavix id.
 */
export declare class SenderId extends pulumi.CustomResource {
    /**
     * Get an existing SenderId resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): SenderId;
    /**
     * Returns true if the given object is an instance of SenderId.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is SenderId;
    /**
     * The account whose key made or adopted the object: a delete with another account's key is refused.
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`).
     */
    readonly adopted: pulumi.Output<boolean | undefined>;
    /**
     * Two-letter ISO country codes where the Sender ID is allowlisted (a set: order does not matter).
     */
    readonly countries: pulumi.Output<string[]>;
    /**
     * Expected messages a month. Sent when the Sender ID is created only: the API does not show it back, so it is never compared.
     */
    readonly monthlyVolume: pulumi.Output<enums.SenderIdMonthlyVolume | undefined>;
    /**
     * What deleting the resource does: `delete` deletes the Sender ID even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    readonly onDelete: pulumi.Output<enums.OnDelete | undefined>;
    /**
     * Allow a change to be carried out by deleting the Sender ID and creating it again (the API has no update; the new one must be approved again). Without it such a change is refused.
     */
    readonly replace: pulumi.Output<boolean | undefined>;
    /**
     * Message samples (a set: order does not matter). Left as it is when omitted.
     */
    readonly samples: pulumi.Output<string[] | undefined>;
    /**
     * The name messages are sent from: an alphanumeric name or a phone number. Its identity, unique in this file.
     */
    readonly senderId: pulumi.Output<string>;
    /**
     * `alphanumeric` (a text sender name) or `numeric` (a phone number).
     */
    readonly type: pulumi.Output<enums.SenderIdType>;
    /**
     * `transactional`, `promo` or `authentication`.
     */
    readonly usecase: pulumi.Output<enums.SenderIdUsecase>;
    /**
     * The Sender ID's Wavix id (also the resource ID).
     */
    readonly wavixId: pulumi.Output<string>;
    /**
     * Create a SenderId resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: SenderIdArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a SenderId resource.
 */
export interface SenderIdArgs {
    /**
     * Two-letter ISO country codes where the Sender ID is allowlisted (a set: order does not matter).
     */
    countries: pulumi.Input<pulumi.Input<string>[]>;
    /**
     * Expected messages a month. Sent when the Sender ID is created only: the API does not show it back, so it is never compared.
     */
    monthlyVolume?: pulumi.Input<enums.SenderIdMonthlyVolume | undefined>;
    /**
     * What deleting the resource does: `delete` deletes the Sender ID even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    onDelete?: pulumi.Input<enums.OnDelete | undefined>;
    /**
     * Allow a change to be carried out by deleting the Sender ID and creating it again (the API has no update; the new one must be approved again). Without it such a change is refused.
     */
    replace?: pulumi.Input<boolean | undefined>;
    /**
     * Message samples (a set: order does not matter). Left as it is when omitted.
     */
    samples?: pulumi.Input<pulumi.Input<string>[] | undefined>;
    /**
     * The name messages are sent from: an alphanumeric name or a phone number. Its identity, unique in this file.
     */
    senderId: pulumi.Input<string>;
    /**
     * `alphanumeric` (a text sender name) or `numeric` (a phone number).
     */
    type: pulumi.Input<enums.SenderIdType>;
    /**
     * `transactional`, `promo` or `authentication`.
     */
    usecase: pulumi.Input<enums.SenderIdUsecase>;
}
//# sourceMappingURL=senderId.d.ts.map