import * as pulumi from "@pulumi/pulumi";
/**
 * The account's default SMS callbacks. The API never shows them back: what state holds is what was last sent, a changed input is sent, and a refresh changes nothing. Deleting the resource leaves the account as it is (the API cannot unset them). Import id: `profile`.
 */
export declare class AccountCallbacks extends pulumi.CustomResource {
    /**
     * Get an existing AccountCallbacks resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): AccountCallbacks;
    /**
     * Returns true if the given object is an instance of AccountCallbacks.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is AccountCallbacks;
    /**
     * URL message delivery reports (DLRs) are forwarded to (the profile's `dlr_relay_url`).
     */
    readonly dlrRelayUrl: pulumi.Output<string | undefined>;
    /**
     * URL inbound SMS are forwarded to (the profile's `sms_relay_url`).
     */
    readonly smsRelayUrl: pulumi.Output<string | undefined>;
    /**
     * Create a AccountCallbacks resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args?: AccountCallbacksArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a AccountCallbacks resource.
 */
export interface AccountCallbacksArgs {
    /**
     * URL message delivery reports (DLRs) are forwarded to (the profile's `dlr_relay_url`).
     */
    dlrRelayUrl?: pulumi.Input<string | undefined>;
    /**
     * URL inbound SMS are forwarded to (the profile's `sms_relay_url`).
     */
    smsRelayUrl?: pulumi.Input<string | undefined>;
}
//# sourceMappingURL=accountCallbacks.d.ts.map