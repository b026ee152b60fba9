import * as pulumi from "@pulumi/pulumi";
import * as inputs from "./types/input";
import * as outputs from "./types/output";
import * as enums from "./types/enums";
/**
 * A Wavix sub-account (sub-organization). Deleting the resource disables one the stack made (the API has no delete); one it adopted (found by name at create) or imported stays as it is unless `onDelete: "delete"`. Import id: its exact name, or `id:<Wavix id>` to pin one.
 */
export declare class SubAccount extends pulumi.CustomResource {
    /**
     * Get an existing SubAccount resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): SubAccount;
    /**
     * Returns true if the given object is an instance of SubAccount.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is SubAccount;
    /**
     * The account whose key made or adopted the object: a delete with another account's key is refused.
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`).
     */
    readonly adopted: pulumi.Output<boolean | undefined>;
    /**
     * The sub-account's own API key (always secret): its numbers are managed with it.
     */
    readonly apiKey: pulumi.Output<string>;
    /**
     * Default endpoints of the sub-account; either key may be omitted (left as it is). An endpoint read back as unset is null.
     */
    readonly defaultDestinations: pulumi.Output<outputs.DefaultDestinationsState | undefined>;
    /**
     * The Wavix ID of the master account the sub-account belongs to.
     */
    readonly masterOrganization: pulumi.Output<number>;
    /**
     * Company name of the sub-account: its identity within the account (an existing sub-account with this exact name is adopted, never duplicated). Without `subAccountId`, a new name replaces the resource; with it, a new name renames the sub-account in place.
     */
    readonly name: pulumi.Output<string>;
    /**
     * What deleting the resource does: `delete` disables the sub-account even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    readonly onDelete: pulumi.Output<enums.OnDelete | undefined>;
    /**
     * True when the inputs pin `subAccountId` (a refresh keeps the pin).
     */
    readonly pinned: pulumi.Output<boolean | undefined>;
    /**
     * `enabled` or `disabled`; left as it is when omitted. Deleting the resource disables a sub-account the stack made (the API has no delete); one it adopted or imported stays as it is unless `onDelete: "delete"`.
     */
    readonly status: pulumi.Output<enums.SubAccountStatus | undefined>;
    /**
     * Pins one sub-account by its Wavix ID (the file's `id:`; Pulumi reserves the name `id`): needed when two existing sub-accounts share the name, and makes a new `name` a rename. Always set in the outputs.
     */
    readonly subAccountId: pulumi.Output<number>;
    /**
     * Create a SubAccount resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: SubAccountArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a SubAccount resource.
 */
export interface SubAccountArgs {
    /**
     * Default endpoints of the sub-account; either key may be omitted (left as it is).
     */
    defaultDestinations?: pulumi.Input<inputs.DefaultDestinationsArgs | undefined>;
    /**
     * Company name of the sub-account: its identity within the account (an existing sub-account with this exact name is adopted, never duplicated). Without `subAccountId`, a new name replaces the resource; with it, a new name renames the sub-account in place.
     */
    name: pulumi.Input<string>;
    /**
     * What deleting the resource does: `delete` disables the sub-account even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    onDelete?: pulumi.Input<enums.OnDelete | undefined>;
    /**
     * `enabled` or `disabled`; left as it is when omitted. Deleting the resource disables a sub-account the stack made (the API has no delete); one it adopted or imported stays as it is unless `onDelete: "delete"`.
     */
    status?: pulumi.Input<enums.SubAccountStatus | undefined>;
    /**
     * Pins one sub-account by its Wavix ID (the file's `id:`; Pulumi reserves the name `id`): needed when two existing sub-accounts share the name, and makes a new `name` a rename. Always set in the outputs.
     */
    subAccountId?: pulumi.Input<number | undefined>;
}
//# sourceMappingURL=subAccount.d.ts.map