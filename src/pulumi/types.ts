/**
 * Plain (resolved) input and output shapes of the Pulumi dynamic resources (docs/CONTRACT.md part 6).
 * Args are camelCase; the provider normalises them in `check` (digits without `+`, transport codes,
 * `trunkId` only for trunks), so what is stored in state is the normalised form.
 */
import type { CallWebhookEventType, TransportCode } from "../client/types";

/** `sip` (1), `pstn` (4), `trunk` (5), or the codes themselves (seed 2.2). */
export type TransportInput = "sip" | "pstn" | "trunk" | TransportCode;

export interface DestinationInputs {
  /** SIP URI, PSTN number, or the login of a SIP trunk. */
  destination: string;
  transport: TransportInput;
  /** Routing order; lower is tried first. */
  priority: number;
  /** Required for `trunk`, refused otherwise. */
  trunkId?: number | null;
}

/** A destination after `check`: transport as its code, `trunkId` present only for trunks. */
export interface NormalDestination {
  destination: string;
  transport: TransportCode;
  priority: number;
  trunkId?: number;
}

export interface SubAccountInputs {
  /** Identity within the account: an existing sub-account with this name is adopted. */
  name: string;
  /**
   * Pins one sub-account by its Wavix ID when several share the name (the file's \`id:\`; Pulumi
   * reserves the property name \`id\`). Always set in outputs.
   */
  subAccountId?: number;
  status?: "enabled" | "disabled";
  defaultDestinations?: {
    smsEndpoint?: string;
    dlrEndpoint?: string;
  };
}

export interface SubAccountOutputs extends Omit<SubAccountInputs, "defaultDestinations" | "subAccountId"> {
  /** `null` in outputs read back means the account has the endpoint unset. */
  defaultDestinations?: { smsEndpoint?: string | null; dlrEndpoint?: string | null };
  subAccountId: number;
  /** The sub-account's own key: marked secret by `additionalSecretOutputs`. */
  apiKey: string;
  masterOrganization: number;
  /** Present (true) when the inputs pin `subAccountId`: a refresh keeps the pin. */
  pinned?: true;
}

export interface PhoneNumberInputs {
  /** Digits as the API shows them; a leading `+` is dropped. Identity. */
  number: string;
  /** Manage the number with this sub-account's key (the number belongs to that sub-account). */
  subAccountId?: number;
  smsEnabled?: boolean;
  /** `null` clears it. */
  smsRelayUrl?: string | null;
  /** `null` clears it. */
  callStatusUrl?: string | null;
  callRecordingEnabled?: boolean;
  transcriptionEnabled?: boolean;
  transcriptionThreshold?: number;
  /** A set: order does not matter. */
  destinations?: DestinationInputs[];
  /** What deleting the resource does. @default "retain" */
  onDelete?: "retain" | "release";
}

export interface PhoneNumberState extends Omit<PhoneNumberInputs, "destinations"> {
  destinations?: NormalDestination[];
}

export interface PhoneNumberOutputs extends PhoneNumberState {
  /** The number's Wavix ID (also the resource ID, as text). */
  wavixId: number;
}

export interface CallWebhookInputs {
  eventType: CallWebhookEventType;
  url: string;
}

export type CallWebhookOutputs = CallWebhookInputs;

export interface SenderIdInputs {
  /** The name messages are sent from (digits for a numeric one): the identity. */
  senderId: string;
  type: "numeric" | "alphanumeric";
  /** Two-letter ISO codes (a set). */
  countries: string[];
  usecase: "transactional" | "promo" | "authentication";
  /** Sent on create only (the API does not show it back). */
  monthlyVolume?: "1-1000" | "1001-20000" | "20001-50000" | "50001-100000" | "More than 100000";
  /** A set; left as it is when omitted. */
  samples?: string[];
  /** Allow a change to be carried out as a replace (delete, then create). */
  replace?: boolean;
}

export interface SenderIdOutputs extends SenderIdInputs {
  /** The Sender ID's Wavix id (a UUID; also the resource ID). */
  wavixId: string;
}

export interface TenDlcCampaignNumberInputs {
  /** The 10DLC Brand (a reference: created outside wavix-sync). */
  brandId: string;
  /** The 10DLC Campaign (a reference). */
  campaignId: string;
  /** Digits; a leading `+` is dropped. */
  number: string;
}

export interface TenDlcCampaignNumberOutputs extends TenDlcCampaignNumberInputs {
  /** The link's status as the API reports it (`PENDING`, `APPROVED`, `FAILED`...). */
  status: string;
}

export interface AccountCallbacksInputs {
  smsRelayUrl?: string;
  dlrRelayUrl?: string;
}

export type AccountCallbacksOutputs = AccountCallbacksInputs;
