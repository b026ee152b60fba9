/**
 * The account pin: the Wavix account id the API key must belong to, checked (one GET /v1/profile) before anything else is read or written.
 */
export declare const accountId: number | undefined;
/**
 * The Wavix API key (Bearer). Always secret: `pulumi config set --secret wavix:apiKey <KEY>`; else the environment variable WAVIX_API_KEY.
 */
export declare const apiKey: string | undefined;
/**
 * The API's base URL (plain http only to loopback, e.g. the simulator). Default: WAVIX_BASE_URL, else https://api.wavix.com.
 */
export declare const baseUrl: string | undefined;
//# sourceMappingURL=vars.d.ts.map