import * as pulumi from "@pulumi/pulumi";
import * as enums from "./types/enums";
/**
 * A Wavix SIP trunk. Only the settings given are managed. Deleting the resource deletes a trunk the stack made; one it adopted or imported stays unless `onDelete: "delete"`; and never while a number routes to it: the delete then warns naming the numbers, drops the trunk from the state and leaves it in the account. Import id: its exact label, or `id:<Wavix id>` to pin one.
 */
export declare class SipTrunk extends pulumi.CustomResource {
    /**
     * Get an existing SipTrunk resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): SipTrunk;
    /**
     * Returns true if the given object is an instance of SipTrunk.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is SipTrunk;
    /**
     * The trunk's static authentication token (always secret).
     */
    readonly accessToken: pulumi.Output<string | undefined>;
    /**
     * The account whose key made or adopted the object: a delete with another account's key is refused.
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * True when the create found the object in place and adopted it (a delete then leaves it, unless `onDelete` is `delete`).
     */
    readonly adopted: pulumi.Output<boolean | undefined>;
    /**
     * Public static IP addresses allowed to register, compared as a set.
     */
    readonly allowedIps: pulumi.Output<string[] | undefined>;
    /**
     * Maximum call duration in seconds (with callRestrict).
     */
    readonly callLimit: pulumi.Output<number | undefined>;
    /**
     * Outbound calls are recorded.
     */
    readonly callRecordingEnabled: pulumi.Output<boolean | undefined>;
    /**
     * Enforce the maximum call duration `callLimit`.
     */
    readonly callRestrict: pulumi.Output<boolean | undefined>;
    /**
     * Caller ID: an active or verified number of the account (digits); "" with `multipleNumbers: true`. Needed to create a trunk unless multipleNumbers is true.
     */
    readonly callerid: pulumi.Output<string | undefined>;
    /**
     * Enforce the concurrent outbound call limit `maxChannels`.
     */
    readonly channelsRestrict: pulumi.Output<boolean | undefined>;
    /**
     * Enforce the maximum outbound call cost `maxCallCost`.
     */
    readonly costLimit: pulumi.Output<boolean | undefined>;
    /**
     * Inbound calls carry the dialled number in the SIP `To` header.
     */
    readonly didinfoEnabled: pulumi.Output<boolean | undefined>;
    /**
     * SRTP media encryption.
     */
    readonly encryptedMedia: pulumi.Output<boolean | undefined>;
    /**
     * IP authentication: the SIP endpoint's public static IP address (sent as `hostRequest.host`).
     */
    readonly host: pulumi.Output<string | undefined>;
    /**
     * Registration only from `allowedIps` (needs at least one).
     */
    readonly ipRestrict: pulumi.Output<boolean | undefined>;
    /**
     * User-defined name of the trunk: its identity within the account (an existing trunk with this label is adopted). Without `trunkId`, a new label replaces the resource; with it, a new label renames the trunk in place.
     */
    readonly label: pulumi.Output<string>;
    /**
     * The system-generated login: what a number's trunk destination names.
     */
    readonly login: pulumi.Output<string>;
    /**
     * Voicemail detection (Flex Pro).
     */
    readonly machineDetectionEnabled: pulumi.Output<boolean | undefined>;
    /**
     * Maximum cost of an outbound call in USD, as decimal text ("0.18"); compared as a decimal.
     */
    readonly maxCallCost: pulumi.Output<string | undefined>;
    /**
     * Maximum concurrent outbound calls (with channelsRestrict).
     */
    readonly maxChannels: pulumi.Output<number | undefined>;
    /**
     * Any active or verified number of the account may be the caller ID.
     */
    readonly multipleNumbers: pulumi.Output<boolean | undefined>;
    /**
     * What deleting the resource does: `delete` deletes the trunk even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    readonly onDelete: pulumi.Output<enums.OnDelete | undefined>;
    /**
     * The trunk's password (always secret, write-only: the API never shows it). Needed to create a trunk; sent again only when it changes (a rotation).
     */
    readonly password: pulumi.Output<string | undefined>;
    /**
     * Where the program took the password from (the file's `password_env`): kept in state as a note, never read by the provider.
     */
    readonly passwordEnv: pulumi.Output<string | undefined>;
    /**
     * Change it to send `password` again (a rotation); a create that adopts a trunk, or a replacement, never sends the password.
     */
    readonly passwordVersion: pulumi.Output<string | undefined>;
    /**
     * True when the inputs pin `trunkId` (a refresh keeps the pin).
     */
    readonly pinned: pulumi.Output<boolean | undefined>;
    /**
     * Number of leading digits removed from each dialled number.
     */
    readonly rewriteCond: pulumi.Output<string | undefined>;
    /**
     * Apply the custom dial plan (`rewritePrefix`, `rewriteCond`).
     */
    readonly rewriteEnabled: pulumi.Output<boolean | undefined>;
    /**
     * Digits prepended to each dialled number.
     */
    readonly rewritePrefix: pulumi.Output<string | undefined>;
    /**
     * Calls are transcribed (Flex Pro).
     */
    readonly transcriptionEnabled: pulumi.Output<boolean | undefined>;
    /**
     * Minimum call duration in seconds that is transcribed (Flex Pro).
     */
    readonly transcriptionThreshold: pulumi.Output<number | undefined>;
    /**
     * Pins one trunk by its Wavix ID (the file's `id:`): needed when two trunks share the label, and makes a new `label` a rename. Always set in the outputs.
     */
    readonly trunkId: pulumi.Output<number>;
    /**
     * Create a SipTrunk resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: SipTrunkArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a SipTrunk resource.
 */
export interface SipTrunkArgs {
    /**
     * Public static IP addresses allowed to register, compared as a set.
     */
    allowedIps?: pulumi.Input<pulumi.Input<string>[] | undefined>;
    /**
     * Maximum call duration in seconds (with callRestrict).
     */
    callLimit?: pulumi.Input<number | undefined>;
    /**
     * Outbound calls are recorded.
     */
    callRecordingEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * Enforce the maximum call duration `callLimit`.
     */
    callRestrict?: pulumi.Input<boolean | undefined>;
    /**
     * Caller ID: an active or verified number of the account (digits); "" with `multipleNumbers: true`. Needed to create a trunk unless multipleNumbers is true.
     */
    callerid?: pulumi.Input<string | undefined>;
    /**
     * Enforce the concurrent outbound call limit `maxChannels`.
     */
    channelsRestrict?: pulumi.Input<boolean | undefined>;
    /**
     * Enforce the maximum outbound call cost `maxCallCost`.
     */
    costLimit?: pulumi.Input<boolean | undefined>;
    /**
     * Inbound calls carry the dialled number in the SIP `To` header.
     */
    didinfoEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * SRTP media encryption.
     */
    encryptedMedia?: pulumi.Input<boolean | undefined>;
    /**
     * IP authentication: the SIP endpoint's public static IP address (sent as `hostRequest.host`).
     */
    host?: pulumi.Input<string | undefined>;
    /**
     * Registration only from `allowedIps` (needs at least one).
     */
    ipRestrict?: pulumi.Input<boolean | undefined>;
    /**
     * User-defined name of the trunk: its identity within the account (an existing trunk with this label is adopted). Without `trunkId`, a new label replaces the resource; with it, a new label renames the trunk in place.
     */
    label: pulumi.Input<string>;
    /**
     * Voicemail detection (Flex Pro).
     */
    machineDetectionEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * Maximum cost of an outbound call in USD, as decimal text ("0.18"); compared as a decimal.
     */
    maxCallCost?: pulumi.Input<string | undefined>;
    /**
     * Maximum concurrent outbound calls (with channelsRestrict).
     */
    maxChannels?: pulumi.Input<number | undefined>;
    /**
     * Any active or verified number of the account may be the caller ID.
     */
    multipleNumbers?: pulumi.Input<boolean | undefined>;
    /**
     * What deleting the resource does: `delete` deletes the trunk even when the stack adopted it; `retain` never does. Not given: one the stack created is, one it adopted (found in place at create) is left as it is.
     */
    onDelete?: pulumi.Input<enums.OnDelete | undefined>;
    /**
     * The trunk's password (always secret, write-only: the API never shows it). Needed to create a trunk; sent again only when it changes (a rotation).
     */
    password?: pulumi.Input<string | undefined>;
    /**
     * Where the program took the password from (the file's `password_env`): kept in state as a note, never read by the provider.
     */
    passwordEnv?: pulumi.Input<string | undefined>;
    /**
     * Change it to send `password` again (a rotation); a create that adopts a trunk, or a replacement, never sends the password.
     */
    passwordVersion?: pulumi.Input<string | undefined>;
    /**
     * Number of leading digits removed from each dialled number.
     */
    rewriteCond?: pulumi.Input<string | undefined>;
    /**
     * Apply the custom dial plan (`rewritePrefix`, `rewriteCond`).
     */
    rewriteEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * Digits prepended to each dialled number.
     */
    rewritePrefix?: pulumi.Input<string | undefined>;
    /**
     * Calls are transcribed (Flex Pro).
     */
    transcriptionEnabled?: pulumi.Input<boolean | undefined>;
    /**
     * Minimum call duration in seconds that is transcribed (Flex Pro).
     */
    transcriptionThreshold?: pulumi.Input<number | undefined>;
    /**
     * Pins one trunk by its Wavix ID (the file's `id:`): needed when two trunks share the label, and makes a new `label` a rename. Always set in the outputs.
     */
    trunkId?: pulumi.Input<number | undefined>;
}
//# sourceMappingURL=sipTrunk.d.ts.map