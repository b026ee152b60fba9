import * as pulumi from "@pulumi/pulumi";
import * as inputs from "./types/input";
import * as outputs from "./types/output";
import * as enums from "./types/enums";
/**
 * A phone number the account (or a sub-account) already owns, kept in the declared state. Never bought: a number the account does not own is an error. Only the settings given are managed; the others are left as they are. Import id: the digits (`15551230001`), or `SUBACCOUNTID/DIGITS` for a sub-account's number.
 */
export declare class PhoneNumber extends pulumi.CustomResource {
    /**
     * Get an existing PhoneNumber resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PhoneNumber;
    /**
     * Returns true if the given object is an instance of PhoneNumber.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is PhoneNumber;
    /**
     * Whether calls to the number are recorded.
     */
    readonly callRecordingEnabled: pulumi.Output<boolean | undefined>;
    /**
     * URL that receives call status updates for the number. Null (where the language can send it) clears it.
     */
    readonly callStatusUrl: pulumi.Output<string | undefined>;
    /**
     * Inbound call destinations, compared as a set (order does not matter). Transports as their codes.
     */
    readonly destinations: pulumi.Output<outputs.DestinationState[] | undefined>;
    /**
     * The number's digits as the API shows them, e.g. "15551230001"; a leading + is dropped. Quote it. Identity: a new number replaces the resource (the old number is left as it is unless `onDelete: release`).
     */
    readonly number: pulumi.Output<string>;
    /**
     * What deleting the resource does: `retain` (the default) leaves the number owned; `release` releases it back to Wavix.
     */
    readonly onDelete: pulumi.Output<enums.PhoneNumberOnDelete | undefined>;
    /**
     * Whether SMS is enabled on the number.
     */
    readonly smsEnabled: pulumi.Output<boolean | undefined>;
    /**
     * URL that receives inbound SMS and MMS for the number. Null (where the language can send it) clears it.
     */
    readonly smsRelayUrl: pulumi.Output<string | undefined>;
    /**
     * The Wavix ID of the sub-account that owns the number (a tenant's number): it is read and written with that sub-account's own key. Absent: the account's own number.
     */
    readonly subAccountId: pulumi.Output<number | undefined>;
    /**
     * Whether calls to the number are transcribed.
     */
    readonly transcriptionEnabled: pulumi.Output<boolean | undefined>;
    /**
     * Minimum call duration in seconds that triggers transcription.
     */
    readonly transcriptionThreshold: pulumi.Output<number | undefined>;
    /**
     * The number's Wavix ID (also the resource ID, as text).
     */
    readonly wavixId: pulumi.Output<number>;
    /**
     * Create a PhoneNumber resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: PhoneNumberArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a PhoneNumber resource.
 */
export interface PhoneNumberArgs {
    /**
     * Whether calls to the number are recorded.
     */
    callRecordingEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * URL that receives call status updates for the number. Null (where the language can send it) clears it.
     */
    callStatusUrl?: pulumi.Input<string | undefined>;
    /**
     * Inbound call destinations, compared as a set (order does not matter).
     */
    destinations?: pulumi.Input<pulumi.Input<inputs.DestinationArgs>[] | undefined>;
    /**
     * The number's digits as the API shows them, e.g. "15551230001"; a leading + is dropped. Quote it. Identity: a new number replaces the resource (the old number is left as it is unless `onDelete: release`).
     */
    number: pulumi.Input<string>;
    /**
     * What deleting the resource does: `retain` (the default) leaves the number owned; `release` releases it back to Wavix.
     */
    onDelete?: pulumi.Input<enums.PhoneNumberOnDelete | undefined>;
    /**
     * Whether SMS is enabled on the number.
     */
    smsEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * URL that receives inbound SMS and MMS for the number. Null (where the language can send it) clears it.
     */
    smsRelayUrl?: pulumi.Input<string | undefined>;
    /**
     * The Wavix ID of the sub-account that owns the number (a tenant's number): it is read and written with that sub-account's own key. Absent: the account's own number.
     */
    subAccountId?: pulumi.Input<number | undefined>;
    /**
     * Whether calls to the number are transcribed.
     */
    transcriptionEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * Minimum call duration in seconds that triggers transcription.
     */
    transcriptionThreshold?: pulumi.Input<number | undefined>;
}
//# sourceMappingURL=phoneNumber.d.ts.map