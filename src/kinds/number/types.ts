/**
 * The number kind's own types: what the file declares (`numbers:`), and the plain inputs and
 * outputs of its provider (`PhoneNumber`; docs/CONTRACT.md part 6). Args are camelCase; the
 * provider normalises them in `check` (digits without `+`, transport codes, `trunkId` only for
 * trunks), so what is stored in state is the normalised form.
 */
import type { TransportCode } from "../../client/types";
import type { SourcePosition } from "../../kit/file/problems";

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

/** The number kind's part of the typed file (src/config/types.ts composes `DesiredState` from the kinds' parts). */
export interface NumberPart {
  numbers?: DesiredNumber[];
}

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
  /** Always true: a number is never bought, only adopted (src/kit/provider/guards.ts). */
  adopted?: true;
  /**
   * The account whose key manages the number, recorded when `onDelete` is `release` (the only
   * delete that writes): a release first checks the stack's key still belongs to it.
   */
  accountId?: number;
}
