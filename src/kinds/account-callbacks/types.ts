/**
 * The account callbacks kind's own types: what the file declares (`account_callbacks:`), what apply
 * needs for one change, and the plain inputs and outputs of its provider (`AccountCallbacks`;
 * docs/CONTRACT.md part 6).
 */
import type { OpBase } from "../../kit/contract";

/** The account's callback defaults (`account_callbacks:`): write-only profile fields. */
export interface DesiredAccountCallbacks {
  sms_relay_url?: string;
  dlr_relay_url?: string;
}

/** The account callbacks kind's part of the typed file. */
export interface AccountCallbacksPart {
  account_callbacks?: DesiredAccountCallbacks;
}

/** The key plans show. */
export const PROFILE_KEY = "profile";

export type AccountCallbacksOp = OpBase & { action: "update"; desired: DesiredAccountCallbacks };

export interface AccountCallbacksInputs {
  smsRelayUrl?: string;
  dlrRelayUrl?: string;
}

export interface AccountCallbacksOutputs extends AccountCallbacksInputs {
  /** The account the callbacks were sent to: an update first checks the stack's key still belongs to it. */
  accountId?: number;
}
