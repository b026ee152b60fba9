import * as pulumi from "@pulumi/pulumi";
import * as outputs from "./types/output";
/**
 * Vettings of the listed 10DLC Brands (or of every Brand of the account), with each Brand's effective score and pending flag: the same computation as `wavix-sync audit`. Reads only.
 */
export declare function getBrandVettings(args: GetBrandVettingsArgs, opts?: pulumi.InvokeOptions): Promise<GetBrandVettingsResult>;
export interface GetBrandVettingsArgs {
    /**
     * Brand ids, or `all` for every Brand of the account.
     */
    brands: string[] | string;
}
export interface GetBrandVettingsResult {
    /**
     * The Brands read.
     */
    readonly brands: outputs.Brand[];
    /**
     * False when a Brand of the account could not be read (its vettings answer 404).
     */
    readonly complete: boolean;
    /**
     * What the audit says (pending, score fell, newest failed, gaps).
     */
    readonly findings: outputs.AuditFinding[];
    /**
     * How many findings are data gaps.
     */
    readonly gapCount: number;
}
/**
 * Vettings of the listed 10DLC Brands (or of every Brand of the account), with each Brand's effective score and pending flag: the same computation as `wavix-sync audit`. Reads only.
 */
export declare function getBrandVettingsOutput(args: GetBrandVettingsOutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetBrandVettingsResult>;
export interface GetBrandVettingsOutputArgs {
    /**
     * Brand ids, or `all` for every Brand of the account.
     */
    brands: pulumi.Input<pulumi.Input<string>[] | string>;
}
//# sourceMappingURL=getBrandVettings.d.ts.map