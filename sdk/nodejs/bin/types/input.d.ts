import * as pulumi from "@pulumi/pulumi";
import * as enums from "../types/enums";
/**
 * A sub-account's default endpoints; either may be omitted (left as it is).
 */
export interface DefaultDestinationsArgs {
    /**
     * URL that receives SMS delivery reports.
     */
    dlrEndpoint?: pulumi.Input<string | undefined>;
    /**
     * URL that receives inbound SMS.
     */
    smsEndpoint?: pulumi.Input<string | undefined>;
}
/**
 * One inbound call destination.
 */
export interface DestinationArgs {
    /**
     * SIP URI, PSTN phone number, or the login of a SIP trunk on the platform (a SipTrunk's `login`).
     */
    destination: pulumi.Input<string>;
    /**
     * Routing order among the number's destinations; a lower value is tried first.
     */
    priority: pulumi.Input<number>;
    /**
     * `sip` (1) for a SIP URI, `pstn` (4) for a phone number, `trunk` (5) for a SIP trunk on the platform (needs `trunkId`); the codes are accepted too.
     */
    transport: pulumi.Input<enums.Transport | number>;
    /**
     * The SIP trunk's ID (a SipTrunk's `trunkId`): required with transport `trunk`, not allowed otherwise.
     */
    trunkId?: pulumi.Input<number | undefined>;
}
/**
 * A 2FA service and the days to read its sessions over.
 */
export interface TwoFaServiceWindow {
    /**
     * The first day, YYYY-MM-DD (UTC), inclusive.
     */
    from: string;
    /**
     * The 2FA service's id.
     */
    serviceId: string;
    /**
     * The last day, YYYY-MM-DD (UTC), inclusive.
     */
    to: string;
}
/**
 * A 2FA service and the days to read its sessions over.
 */
export interface TwoFaServiceWindowArgs {
    /**
     * The first day, YYYY-MM-DD (UTC), inclusive.
     */
    from: pulumi.Input<string>;
    /**
     * The 2FA service's id.
     */
    serviceId: pulumi.Input<string>;
    /**
     * The last day, YYYY-MM-DD (UTC), inclusive.
     */
    to: pulumi.Input<string>;
}
//# sourceMappingURL=input.d.ts.map