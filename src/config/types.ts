/**
 * The typed, normalised desired state: the only form of the YAML file the rest of the code reads.
 * Produced by `loadDesiredState` after schema and semantic checks (docs/CONTRACT.md part 3).
 *
 * "Only keys present are managed": every optional field here is `undefined` when the file omits it,
 * and `undefined` means "leave as it is in the account". `null` (where allowed) means "clear it".
 */
import type { RegisteredKind } from "../kinds";
import type { SubAccountPart } from "../kinds/sub-account/types";
import type { NumberPart } from "../kinds/number/types";
import type { CallWebhookPart } from "../kinds/call-webhook/types";
import type { SenderIdPart } from "../kinds/sender-id/types";
import type { TenDlcNumberPart } from "../kinds/ten-dlc-number/types";
import type { AccountCallbacksPart } from "../kinds/account-callbacks/types";
import type { SipTrunkPart } from "../kinds/sip-trunk/types";

// Each kind's own types live in its folder (src/kinds/<kind>/types.ts); re-exported here, where
// the desired state has always been typed (the package's main entry exports them).
export type { SourcePosition, ConfigProblem } from "../kit/file/problems";
export type { DesiredSubAccount } from "../kinds/sub-account/types";
export { NUMBER_SETTING_KEYS, type DesiredNumber, type DesiredDestination, type TenantRef } from "../kinds/number/types";
export type { DeclaredCallWebhooks } from "../kinds/call-webhook/types";
export type { DesiredSenderId } from "../kinds/sender-id/types";
export type { DesiredCampaignNumbers } from "../kinds/ten-dlc-number/types";
export type { DesiredAccountCallbacks } from "../kinds/account-callbacks/types";
export type { DesiredSipTrunk } from "../kinds/sip-trunk/types";

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
    /** Whole days: the newest scored vetting may be at most this old at the report's time. */
    max_vetting_age_days?: number;
  };
}

/** The file's own parts, which no kind owns. */
export interface FileParts {
  version: 1;
  /** Absolute or as-given path of the file, for messages. */
  file: string;
  audit?: AuditConfig;
  /** `account_id:` the account the key must belong to (GET /v1/profile `id`); checked before anything else. */
  account_id?: number;
  /** `safety:` limits on destructive changes without `--force` (src/plan/safety.ts); defaults apply when absent. */
  safety?: SafetySettings;
}

/**
 * The typed file: its own parts and each registered kind's part (src/kinds/<kind>/types.ts; a
 * kind's `View` is a sum of such parts, checked against this below).
 */
export type DesiredState = FileParts &
  SubAccountPart &
  NumberPart &
  CallWebhookPart &
  SenderIdPart &
  TenDlcNumberPart &
  AccountCallbacksPart &
  SipTrunkPart;

/** What a kind reads of the typed file (its `View`: the parts named in its `Kind<…>` type). */
type ViewOf<K> = K extends { declared(state: infer V): unknown } ? V : never;
/** The registered kinds whose view of the file is not a part of `DesiredState` (none). */
type ViewMisfits = RegisteredKind extends infer K ? (K extends { name: infer N } ? (DesiredState extends ViewOf<K> ? ([Exclude<keyof ViewOf<K>, keyof DesiredState>] extends [never] ? never : N) : N) : never) : never;
type MustBeNone<T extends never> = T;
/** Compile-time check: the engine hands each kind `DesiredState` as its view; a kind reading a part not here fails to compile, named. */
type KindViewsFit = MustBeNone<ViewMisfits>;

/** The file's `safety:` section; absent keys take the defaults of src/plan/safety.ts. */
export interface SafetySettings {
  /** Most destructive changes of one kind, in percent of its items in the account. @default 30 */
  max_destructive_percent?: number;
  /** A kind with fewer items in the account is not limited. @default 10 */
  min_items?: number;
  /** Most destructive changes of all kinds together, whatever the account's size. @default 20 */
  max_destructive_total?: number;
}
