/**
 * The SIP trunk kind's own types: what the file declares (`sip_trunks:`), and the plain inputs and
 * outputs of its provider (`SipTrunk`; docs/CONTRACT.md part 6).
 */
import type { SourcePosition } from "../../kit/file/problems";
import type { OnDelete, Origin } from "../../kit/provider/guards";

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

/** The SIP trunk kind's part of the typed file. */
export interface SipTrunkPart {
  sip_trunks?: DesiredSipTrunk[];
}

/** A SIP trunk's settings in camelCase (the file's `sip_trunks` keys); only those present are managed. */
export interface SipTrunkSettingsInputs {
  host?: string;
  callerid?: string;
  multipleNumbers?: boolean;
  ipRestrict?: boolean;
  /** A set of IP addresses. */
  allowedIps?: string[];
  didinfoEnabled?: boolean;
  callRestrict?: boolean;
  callLimit?: number;
  costLimit?: boolean;
  /** Money as decimal text ("0.18"). */
  maxCallCost?: string;
  channelsRestrict?: boolean;
  maxChannels?: number;
  rewriteEnabled?: boolean;
  rewritePrefix?: string;
  rewriteCond?: string;
  callRecordingEnabled?: boolean;
  transcriptionEnabled?: boolean;
  transcriptionThreshold?: number;
  machineDetectionEnabled?: boolean;
  encryptedMedia?: boolean;
}

export interface SipTrunkInputs extends SipTrunkSettingsInputs {
  /** Identity within the account: an existing trunk with this label is adopted. */
  label: string;
  /** Pins one trunk by its Wavix ID (the file's `id:`). */
  trunkId?: number;
  /** The file's `password_env`: where the program took the password from (documentation in state). */
  passwordEnv?: string;
  /**
   * Write-only, a secret: sent when the create makes the trunk, and on update when its value
   * changed (rotation) or `passwordVersion` changed. Never sent when the create adopts an existing
   * trunk, nor by a replacement that finds its trunk in place.
   */
  password?: string;
  /**
   * Asks for the password to be sent again: any value; when it differs from the one in state, the
   * update sends `password` (e.g. after adopting a trunk, whose password was not sent).
   */
  passwordVersion?: string | number;
  /**
   * What deleting the resource does: `delete` deletes the trunk even when the stack adopted it;
   * `retain` never deletes it. Not given: a trunk the stack created is deleted, one it adopted is
   * left as it is (src/kit/provider/guards.ts). A trunk numbers still route to is never deleted.
   */
  onDelete?: OnDelete;
}

export interface SipTrunkOutputs extends Omit<SipTrunkInputs, "trunkId">, Partial<Origin> {
  trunkId: number;
  /** The system-generated login (a number's trunk destination). */
  login: string;
  /** The trunk's static authentication token: a secret output. */
  accessToken?: string | null;
  /** Present (true) when the inputs pin `trunkId`. */
  pinned?: true;
}
