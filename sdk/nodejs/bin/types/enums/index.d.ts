export declare const CallWebhookEventType: {
    /**
     * While a call is in progress.
     */
    readonly OnCall: "on-call";
    /**
     * When a call has ended.
     */
    readonly PostCall: "post-call";
};
/**
 * The call events a webhook is notified of.
 */
export type CallWebhookEventType = (typeof CallWebhookEventType)[keyof typeof CallWebhookEventType];
export declare const OnDelete: {
    /**
     * Delete (disable, unlink) it even when the stack adopted it.
     */
    readonly Delete: "delete";
    /**
     * Never delete it: the resource leaves the stack, the object stays.
     */
    readonly Retain: "retain";
};
/**
 * What deleting a resource does to the object it holds.
 */
export type OnDelete = (typeof OnDelete)[keyof typeof OnDelete];
export declare const PhoneNumberOnDelete: {
    /**
     * The number stays owned, its settings as they are (the default).
     */
    readonly Retain: "retain";
    /**
     * The number is released back to Wavix.
     */
    readonly Release: "release";
};
/**
 * What deleting a PhoneNumber resource does.
 */
export type PhoneNumberOnDelete = (typeof PhoneNumberOnDelete)[keyof typeof PhoneNumberOnDelete];
export declare const SenderIdMonthlyVolume: {
    /**
     * Up to 1,000.
     */
    readonly UpTo1000: "1-1000";
    /**
     * 1,001 to 20,000.
     */
    readonly UpTo20000: "1001-20000";
    /**
     * 20,001 to 50,000.
     */
    readonly UpTo50000: "20001-50000";
    /**
     * 50,001 to 100,000.
     */
    readonly UpTo100000: "50001-100000";
    /**
     * More than 100,000.
     */
    readonly MoreThan100000: "More than 100000";
};
/**
 * Expected messages a month.
 */
export type SenderIdMonthlyVolume = (typeof SenderIdMonthlyVolume)[keyof typeof SenderIdMonthlyVolume];
export declare const SenderIdType: {
    /**
     * A text sender name.
     */
    readonly Alphanumeric: "alphanumeric";
    /**
     * A phone number.
     */
    readonly Numeric: "numeric";
};
/**
 * What a Sender ID is.
 */
export type SenderIdType = (typeof SenderIdType)[keyof typeof SenderIdType];
export declare const SenderIdUsecase: {
    /**
     * Transactional messages.
     */
    readonly Transactional: "transactional";
    /**
     * Promotional messages.
     */
    readonly Promo: "promo";
    /**
     * Authentication codes.
     */
    readonly Authentication: "authentication";
};
/**
 * What a Sender ID's messages are for.
 */
export type SenderIdUsecase = (typeof SenderIdUsecase)[keyof typeof SenderIdUsecase];
export declare const SubAccountStatus: {
    /**
     * The sub-account works.
     */
    readonly Enabled: "enabled";
    /**
     * The sub-account is disabled.
     */
    readonly Disabled: "disabled";
};
/**
 * Whether a sub-account is enabled.
 */
export type SubAccountStatus = (typeof SubAccountStatus)[keyof typeof SubAccountStatus];
export declare const Transport: {
    /**
     * A SIP URI (code 1).
     */
    readonly Sip: "sip";
    /**
     * A phone number (code 4).
     */
    readonly Pstn: "pstn";
    /**
     * A SIP trunk on the platform (code 5).
     */
    readonly Trunk: "trunk";
};
/**
 * How a destination is reached.
 */
export type Transport = (typeof Transport)[keyof typeof Transport];
//# sourceMappingURL=index.d.ts.map