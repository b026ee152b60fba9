import * as pulumi from "@pulumi/pulumi";
/**
 * A whole Wavix account in the declared state as ONE resource: its diff is `wavix-sync plan` (the account read in listing pages, not one read per object) and names every changed property of every object (`numbers["15551230001"].smsEnabled`); create and update are `wavix-sync apply` of that plan, through the same guard rails (the account pin, the blast-radius limit `wavix:maxDestructive` / the file's `safety:`, overridden by `wavix:force`). Deleting the resource leaves the account as it is. Import id: the path of the file.
 */
export declare class Account extends pulumi.CustomResource {
    /**
     * Get an existing Account resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Account;
    /**
     * Returns true if the given object is an instance of Account.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is Account;
    /**
     * The account the key belongs to (absent when the key may not read its profile).
     */
    readonly accountId: pulumi.Output<number | undefined>;
    /**
     * How many items of each collection are declared (`numbers`, `subAccounts`, ...).
     */
    readonly declared: pulumi.Output<{
        [key: string]: number;
    }>;
    /**
     * SHA-256 of the declared state as the resource holds it (normalised): changes exactly when what is declared changes.
     */
    readonly digest: pulumi.Output<string>;
    /**
     * The desired-state file (wavix.yaml), relative to the program's working directory (the folder of Pulumi.yaml, or of its `main`). Read at every preview and update: its content is what is managed (the state holds its path, its SHA-256 and what the plan changes, not its content). Give `file` or the inline maps, not both.
     */
    readonly file: pulumi.Output<string | undefined>;
    /**
     * What the last create or update did: `create`, `update`, `replace`, `delete` (items changed) and `unchanged`.
     */
    readonly lastApply: pulumi.Output<{
        [key: string]: number;
    }>;
    /**
     * As `wavix-sync apply --prune`: disable undeclared sub-accounts; delete undeclared call webhooks, SIP trunks and Sender IDs; unlink undeclared numbers of declared 10DLC campaigns. Default false.
     */
    readonly prune: pulumi.Output<boolean | undefined>;
    /**
     * Create a Account resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args?: AccountArgs, opts?: pulumi.CustomResourceOptions);
}
/**
 * The set of arguments for constructing a Account resource.
 */
export interface AccountArgs {
    /**
     * Inline: the file's `account_callbacks:` (`smsRelayUrl`, `dlrRelayUrl`).
     */
    accountCallbacks?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * Inline: the file's `account_id:`, the account the key must belong to (checked before anything is written).
     */
    accountId?: pulumi.Input<number | undefined>;
    /**
     * Inline: the file's `call_webhooks:` (event type to URL).
     */
    callWebhooks?: pulumi.Input<{
        [key: string]: pulumi.Input<string>;
    } | undefined>;
    /**
     * The desired-state file (wavix.yaml), relative to the program's working directory (the folder of Pulumi.yaml, or of its `main`). Read at every preview and update: its content is what is managed (the state holds its path, its SHA-256 and what the plan changes, not its content). Give `file` or the inline maps, not both.
     */
    file?: pulumi.Input<string | undefined>;
    /**
     * Inline: the file's `numbers:` by digits, each entry's other keys in camelCase (`smsEnabled`, `destinations`, `subAccount`, ...).
     */
    numbers?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * As `wavix-sync apply --prune`: disable undeclared sub-accounts; delete undeclared call webhooks, SIP trunks and Sender IDs; unlink undeclared numbers of declared 10DLC campaigns. Default false.
     */
    prune?: pulumi.Input<boolean | undefined>;
    /**
     * Inline: the file's `safety:` (`maxDestructiveTotal`, `maxDestructivePercent`, `minItems`): the blast-radius limits of an update.
     */
    safety?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * Inline: the file's `sender_ids:` by Sender ID, each entry's other keys in camelCase.
     */
    senderIds?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * Inline: the file's `sip_trunks:` by label, each entry's other keys in camelCase (`passwordEnv`, `allowedIps`, ...).
     */
    sipTrunks?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * Inline: the file's `sub_accounts:` by name, each entry's other keys in camelCase (`status`, `defaultDestinations`, `id` to pin).
     */
    subAccounts?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
    /**
     * Inline: the file's `ten_dlc_campaign_numbers:` by `BRAND/CAMPAIGN`, each `{numbers: [...]}`.
     */
    tenDlcCampaignNumbers?: pulumi.Input<{
        [key: string]: any;
    } | undefined>;
}
//# sourceMappingURL=account.d.ts.map