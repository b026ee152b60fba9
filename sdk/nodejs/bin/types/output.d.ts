import * as outputs from "../types/output";
/**
 * What the audit says about the data read: a gap (data that could not be read) or a warning.
 */
export interface AuditFinding {
    /**
     * The finding's code (docs/AUDIT.md, Findings).
     */
    code: string;
    /**
     * True when it is a data gap: the result is then not complete.
     */
    gap: boolean;
    /**
     * What it says.
     */
    message: string;
    /**
     * `error` or `warning`.
     */
    severity: string;
    /**
     * The session, service or brand it is about.
     */
    subject: string;
}
/**
 * A 10DLC Brand's vettings and what they add up to.
 */
export interface Brand {
    /**
     * The Brand's id.
     */
    brandId: string;
    /**
     * The score of its newest vetting that has one; absent when none has.
     */
    effectiveScore?: number;
    /**
     * When its newest vetting was done (UTC).
     */
    newestVettingAt?: string;
    /**
     * Whether a vetting is pending.
     */
    pending: boolean;
    /**
     * The score of the scored vetting before the newest.
     */
    previousScore?: number;
    /**
     * effectiveScore minus previousScore.
     */
    scoreChange?: number;
    /**
     * Whether the score fell.
     */
    scoreFell?: boolean;
    /**
     * Whole days from its newest vetting to the read.
     */
    vettingAgeDays?: number;
    /**
     * Its vettings.
     */
    vettings: outputs.BrandVetting[];
}
/**
 * One vetting of a 10DLC Brand.
 */
export interface BrandVetting {
    /**
     * When it was asked for (UTC).
     */
    createDate?: string;
    /**
     * The vetting provider.
     */
    evpId?: string;
    /**
     * The reasons given (always a list).
     */
    reasons: string[];
    /**
     * When it was done (UTC); absent while pending.
     */
    vettedDate?: string;
    /**
     * Its class.
     */
    vettingClass?: string;
    /**
     * Details, as the API sent them.
     */
    vettingDetails?: {
        [key: string]: any;
    };
    /**
     * The vetting's id.
     */
    vettingId: string;
    /**
     * Its score, if it has one.
     */
    vettingScore?: number;
    /**
     * Its status.
     */
    vettingStatus: string;
}
/**
 * A sub-account's default endpoints as state holds them (null: unset).
 */
export interface DefaultDestinationsState {
    /**
     * URL that receives SMS delivery reports.
     */
    dlrEndpoint?: string;
    /**
     * URL that receives inbound SMS.
     */
    smsEndpoint?: string;
}
/**
 * One inbound call destination as state holds it (normalised: the transport as its code).
 */
export interface DestinationState {
    /**
     * SIP URI, PSTN phone number, or a SIP trunk's login.
     */
    destination: string;
    /**
     * Routing order among the number's destinations; a lower value is tried first.
     */
    priority: number;
    /**
     * 1 (SIP URI), 4 (PSTN number) or 5 (SIP trunk).
     */
    transport: number;
    /**
     * The SIP trunk's ID (transport 5 only).
     */
    trunkId?: number;
}
/**
 * Events counted by status.
 */
export interface EventsByStatus {
    /**
     * Failed events.
     */
    failed: number;
    /**
     * Pending events.
     */
    pending: number;
    /**
     * Successful events.
     */
    success: number;
}
/**
 * One event of a 2FA session.
 */
export interface TwoFaEvent {
    /**
     * What it cost, as decimal text ("0.0525").
     */
    charge: string;
    /**
     * When it happened: ISO 8601 UTC (kept as sent when it cannot be read).
     */
    createdAt: string;
    /**
     * The error the API reported, if any.
     */
    error?: string;
    /**
     * What happened (`Verification`, `SMS`...).
     */
    event: string;
    /**
     * The event's status.
     */
    status: string;
}
/**
 * A 2FA session and its events.
 */
export interface TwoFaSession {
    /**
     * The listing's charge, else the exact sum of its event charges, as decimal text; absent when neither can be read (a gap).
     */
    chargeTotal?: string;
    /**
     * Its events.
     */
    events: outputs.TwoFaEvent[];
    /**
     * `read`, or `not_found` (the API answered 404: the listing's figures stand in, a gap).
     */
    eventsRead: string;
    /**
     * Where verified and chargeTotal come from: `listing`, `events` or `none`.
     */
    figuresFrom: string;
    /**
     * The service whose listing gave it (absent for a session named directly).
     */
    serviceId?: string;
    /**
     * That service's name.
     */
    serviceName?: string;
    /**
     * The session's UUID.
     */
    sessionId: string;
    /**
     * The listing's status is `verified` (a session named directly: a successful `Verification` event); absent when neither can be read (a gap).
     */
    verified?: boolean;
}
//# sourceMappingURL=output.d.ts.map