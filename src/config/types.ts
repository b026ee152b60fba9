/**
 * The typed, normalised desired state: the only form of the YAML file the rest of the code reads.
 * Produced by `loadDesiredState` after schema and semantic checks (docs/CONTRACT.md part 3).
 *
 * "Only keys present are managed": every optional field here is `undefined` when the file omits it,
 * and `undefined` means "leave as it is in the account". `null` (where allowed) means "clear it".
 */
import type { CallWebhookEventType, TransportCode } from "../client/types";

/** Where a value came from in the file, for `FILE:LINE:COL: message (at path)` messages. */
export interface SourcePosition {
  file: string;
  line: number;
  col: number;
}

export interface DesiredDestination {
  destination: string;
  transport: TransportCode;
  priority: number;
  /** Set only when transport is 5 (trunk); otherwise null. */
  trunk_id: number | null;
  /**
   * A SIP trunk by its label (`trunk: acme-pbx`), resolved at plan time to its login
   * (`destination`) and id (`trunk_id`), or after its create in the same apply. Until then
   * `destination` is "" and `trunk_id` null.
   */
  trunk?: string;
}

/** A SIP trunk of `sip_trunks:` (src/kinds/sip-trunk); only keys present are managed. */
export interface DesiredSipTrunk {
  /** Identity within the account; unique in the file. */
  label: string;
  /** Pins one trunk by its Wavix id (two share the label, or to rename it). */
  id?: number;
  /** The environment variable holding the password (write-only; never the value). */
  password_env?: string;
  /** IP authentication: the SIP endpoint's public static IP (official `host_request.host`). */
  host?: string;
  callerid?: string;
  multiple_numbers?: boolean;
  ip_restrict?: boolean;
  /** A set of IP addresses (order and repeats do not matter). */
  allowed_ips?: string[];
  didinfo_enabled?: boolean;
  call_restrict?: boolean;
  call_limit?: number;
  cost_limit?: boolean;
  /** Money as decimal text ("0.18"). */
  max_call_cost?: string;
  channels_restrict?: boolean;
  max_channels?: number;
  rewrite_enabled?: boolean;
  rewrite_prefix?: string;
  rewrite_cond?: string;
  call_recording_enabled?: boolean;
  transcription_enabled?: boolean;
  transcription_threshold?: number;
  machine_detection_enabled?: boolean;
  encrypted_media?: boolean;
  path: string;
  pos?: SourcePosition;
}

export interface DesiredSubAccount {
  /** Identity within the account. */
  name: string;
  /** Pins one sub-account when two share the name. */
  id?: number;
  status?: "enabled" | "disabled";
  default_destinations?: {
    sms_endpoint?: string;
    dlr_endpoint?: string;
  };
  /** JSON path in the file, e.g. `sub_accounts[0]`. */
  path: string;
  pos?: SourcePosition;
}

/** The settings of a number the file can manage, in display order (docs/CONTRACT.md part 3). */
export const NUMBER_SETTING_KEYS = [
  "sms_enabled",
  "sms_relay_url",
  "call_status_url",
  "call_recording_enabled",
  "transcription_enabled",
  "transcription_threshold",
  "destinations",
] as const;

export interface DesiredNumber {
  /** Digits only, leading `+` dropped. Identity. */
  number: string;
  sms_enabled?: boolean;
  sms_relay_url?: string | null;
  call_status_url?: string | null;
  call_recording_enabled?: boolean;
  transcription_enabled?: boolean;
  transcription_threshold?: number;
  /** A set; order in the file does not matter. */
  destinations?: DesiredDestination[];
  /** Pulumi only: retain (default) | release. */
  on_delete?: "retain" | "release";
  /**
   * The sub-account that owns the number (a tenant's number): its name, or its id (the pinned
   * `id:` of a sub-account). Absent: the master account's own number.
   */
  sub_account?: string | number;
  /**
   * `sub_account` resolved against the file's `sub_accounts:` (set by the number kind's `declared`,
   * never by the file): the name and pinned id the file gives that sub-account.
   */
  tenant?: TenantRef;
  path: string;
  pos?: SourcePosition;
}

/** Which sub-account a declared number belongs to, as far as the file says. */
export interface TenantRef {
  /** The sub-account's name (the file's declaration, or the number's `sub_account:` string). */
  name?: string;
  /** Its id (the declaration's pinned `id:`, or the number's `sub_account:` integer). */
  id?: number;
  /** Whether `sub_accounts:` declares it (a declared one without an id may be created by this apply). */
  declared: boolean;
  /** The status the file declares for it, if any. */
  status?: "enabled" | "disabled";
}

/**
 * A 2FA service of `audit.two_fa.services`. `from`/`to` are its default window (both or neither, a
 * file check): the run's window (`audit --last`, `--from/--to`) overrides them, and without either
 * the audit refuses to run (src/audit/window.ts).
 */
export interface TwoFaServiceWindow {
  service_id: string;
  /** YYYY-MM-DD, inclusive (UTC). */
  from?: string;
  /** YYYY-MM-DD, inclusive (UTC). */
  to?: string;
  /** This service's threshold of sessions not verified, 0..1; @default the section's `max_failure_ratio` */
  max_failure_ratio?: number;
}

export interface AuditConfig {
  two_fa?: {
    sessions: string[];
    services: TwoFaServiceWindow[];
    /** Of sessions not verified, 0..1: the default of every service, and the threshold of the named sessions. */
    max_failure_ratio?: number;
  };
  ten_dlc?: {
    brands: string[] | "all";
    min_vetting_score?: number;
  };
}

/** A Sender ID (`sender_ids:`); identity: `sender_id`. The API has no update: a change is a replace. */
export interface DesiredSenderId {
  sender_id: string;
  type: "numeric" | "alphanumeric";
  /** Two-letter ISO codes, sorted, unique (compared with the API's `allowlisted_in` as a set). */
  countries: string[];
  usecase: "transactional" | "promo" | "authentication";
  /** Sent on create only: the API does not show it back. */
  monthly_volume?: "1-1000" | "1001-20000" | "20001-50000" | "50001-100000" | "More than 100000";
  samples?: string[];
  /** Allows a change to be carried out as delete + create. */
  replace?: boolean;
  path: string;
  pos?: SourcePosition;
}

/** The numbers linked to one 10DLC Campaign (`ten_dlc_campaign_numbers:`); brand and Campaign are references. */
export interface DesiredCampaignNumbers {
  brand_id: string;
  campaign_id: string;
  /** Digits, without `+`, unique. */
  numbers: string[];
  path: string;
  pos?: SourcePosition;
}

/** The account's callback defaults (`account_callbacks:`): write-only profile fields. */
export interface DesiredAccountCallbacks {
  sms_relay_url?: string;
  dlr_relay_url?: string;
}

export interface DesiredState {
  version: 1;
  /** Absolute or as-given path of the file, for messages. */
  file: string;
  /** undefined: the file has no `sub_accounts` key (nothing managed, nothing pruned). */
  sub_accounts?: DesiredSubAccount[];
  numbers?: DesiredNumber[];
  /** Only the event types present are managed. */
  call_webhooks?: Partial<Record<CallWebhookEventType, string>>;
  sender_ids?: DesiredSenderId[];
  ten_dlc_campaign_numbers?: DesiredCampaignNumbers[];
  account_callbacks?: DesiredAccountCallbacks;
  sip_trunks?: DesiredSipTrunk[];
  audit?: AuditConfig;
  /** `account_id:` the account the key must belong to (GET /v1/profile `id`); checked before anything else. */
  account_id?: number;
  /** `safety:` limits on destructive changes without `--force` (src/plan/safety.ts); defaults apply when absent. */
  safety?: SafetySettings;
}

/** The file's `safety:` section; absent keys take the defaults of src/plan/safety.ts. */
export interface SafetySettings {
  /** Most destructive changes of one kind, in percent of its items in the account. @default 30 */
  max_destructive_percent?: number;
  /** A kind with fewer items in the account is not limited. @default 10 */
  min_items?: number;
}

/** One problem found in the file. `toString()` form: `FILE:LINE:COL: message (at path)`. */
export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  /** e.g. `numbers[0].sms_enabled`; empty for the document root. */
  path: string;
}
