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
     * False when some data could not be read: `findings` with `gap` name it.
     */
    readonly complete: boolean;
    /**
     * Events counted by status.
     */
    readonly eventsByStatus: outputs.EventsByStatus;
    /**
     * What the audit says about this data (never dropped).
     */
    readonly findings: outputs.AuditFinding[];
    /**
     * How many findings are data gaps.
     */
    readonly gapCount: number;
    /**
     * Sessions not verified.
     */
    readonly notVerified: number;
    /**
     * The sessions read.
     */
    readonly sessions: outputs.TwoFaSession[];
    /**
     * Sessions of unknown outcome (gaps).
     */
    readonly unknown: number;
    /**
     * Sessions verified.
     */
    readonly verified: number;
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