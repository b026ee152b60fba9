import * as pulumi from "@pulumi/pulumi";
/**
 * The wavix provider: its settings are stack config `wavix:apiKey` (secret), `wavix:baseUrl` and `wavix:accountId`, or an explicit provider's inputs.
 */
export declare class Provider extends pulumi.ProviderResource {
    /**
     * Returns true if the given object is an instance of Provider.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    static isInstance(obj: any): obj is Provider;
    /**
     * Create a Provider resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args?: ProviderArgs, opts?: pulumi.ResourceOptions);
}
/**
 * The set of arguments for constructing a Provider resource.
 */
export interface ProviderArgs {
    /**
     * The account pin: the Wavix account id the API key must belong to, checked (one GET /v1/profile) before anything else is read or written.
     */
    accountId?: pulumi.Input<number | undefined>;
    /**
     * The Wavix API key (Bearer). Always secret: `pulumi config set --secret wavix:apiKey <KEY>`; else the environment variable WAVIX_API_KEY.
     */
    apiKey?: pulumi.Input<string | undefined>;
    /**
     * The API's base URL (plain http only to loopback, e.g. the simulator). Default: WAVIX_BASE_URL, else https://api.wavix.com.
     */
    baseUrl?: pulumi.Input<string | undefined>;
}
//# sourceMappingURL=provider.d.ts.map