import * as pulumi from "@pulumi/pulumi";
import * as enums from "./types/enums";
/**
 * One number linked to a 10DLC Campaign of a Brand (both created outside wavix-sync: they must exist). A number already linked is adopted; deleting the resource unlinks a link the stack made, while an adopted or imported one stays unless `onDelete: "delete"`. The resource ID and the import id are `BRAND/CAMPAIGN/NUMBER`.
 */
export declare class TenDlcCampaignNumber extends pulumi.CustomResource {
    /**
     * Get an existing TenDlcCampaignNumber resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): TenDlcCampaignNumber;
    /**
     * Returns true if the given object is an instance of TenDlcCampaignNumber.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is TenDlcCampaignNumber;
    /**
     * The account whose key made or adopted the object: a delete with another account's key is refused.
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`).
     */
    readonly adopted: pulumi.Output<boolean | undefined>;
    /**
     * The 10DLC Brand's id, e.g. `B9FXYNH` (a reference: the Brand is not created here).
     */
    readonly brandId: pulumi.Output<string>;
    /**
     * The 10DLC Campaign's id, e.g. `CSJ4TV0` (a reference: the Campaign is not created here).
     */
    readonly campaignId: pulumi.Output<string>;
    /**
     * The number linked, as digits ("17029641104"); a leading + is dropped.
     */
    readonly number: pulumi.Output<string>;
    /**
     * What deleting the resource does: `delete` unlinks the number from its Campaign even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    readonly onDelete: pulumi.Output<enums.OnDelete | undefined>;
    /**
     * The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...): shown, never changed.
     */
    readonly status: pulumi.Output<string>;
    /**
     * Create a TenDlcCampaignNumber resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: TenDlcCampaignNumberArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a TenDlcCampaignNumber resource.
 */
export interface TenDlcCampaignNumberArgs {
    /**
     * The 10DLC Brand's id, e.g. `B9FXYNH` (a reference: the Brand is not created here).
     */
    brandId: pulumi.Input<string>;
    /**
     * The 10DLC Campaign's id, e.g. `CSJ4TV0` (a reference: the Campaign is not created here).
     */
    campaignId: pulumi.Input<string>;
    /**
     * The number linked, as digits ("17029641104"); a leading + is dropped.
     */
    number: pulumi.Input<string>;
    /**
     * What deleting the resource does: `delete` unlinks the number from its Campaign even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    onDelete?: pulumi.Input<enums.OnDelete | undefined>;
}
//# sourceMappingURL=tenDlcCampaignNumber.d.ts.map