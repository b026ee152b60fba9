import * as pulumi from "@pulumi/pulumi";
import * as inputs from "./types/input";
import * as outputs from "./types/output";
/**
 * 2FA verification events of the listed sessions, and of every session of the listed services created in their windows (deduplicated), with charges summed exactly: the same computation as `wavix-sync audit`. Reads only.
 */
export declare function getTwoFaEvents(args?: GetTwoFaEventsArgs, opts?: pulumi.InvokeOptions): Promise<GetTwoFaEventsResult>;
export interface GetTwoFaEventsArgs {
    /**
     * Services, each with the days to read its sessions over.
     */
    services?: inputs.TwoFaServiceWindow[];
    /**
     * Session UUIDs.
     */
    sessions?: string[];
}
export interface GetTwoFaEventsResult {
    /**
     * Exact sum of every session's charges, as decimal text.
     */
    readonly chargeTotal: string;
    /**
     * Events counted by status.
     */
    readonly eventsByStatus: outputs.EventsByStatus;
    /**
     * The sessions read.
     */
    readonly sessions: outputs.TwoFaSession[];
}
/**
 * 2FA verification events of the listed sessions, and of every session of the listed services created in their windows (deduplicated), with charges summed exactly: the same computation as `wavix-sync audit`. Reads only.
 */
export declare function getTwoFaEventsOutput(args?: GetTwoFaEventsOutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetTwoFaEventsResult>;
export interface GetTwoFaEventsOutputArgs {
    /**
     * Services, each with the days to read its sessions over.
     */
    services?: pulumi.Input<pulumi.Input<inputs.TwoFaServiceWindowArgs>[] | undefined>;
    /**
     * Session UUIDs.
     */
    sessions?: pulumi.Input<pulumi.Input<string>[] | undefined>;
}
//# sourceMappingURL=getTwoFaEvents.d.ts.map