/**
 * The Sender ID kind's own types: what the file declares (`sender_ids:`), what apply needs for one
 * change, and the plain inputs and outputs of its provider (`SenderId`; docs/CONTRACT.md part 6).
 */
import type { SenderId } from "../../client/types";
import type { OpBase } from "../../kit/contract";
import type { SourcePosition } from "../../kit/file/problems";
import type { OnDelete, Origin } from "../../kit/provider/guards";

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

/** The Sender ID kind's part of the typed file. */
export interface SenderIdPart {
  sender_ids?: DesiredSenderId[];
}

export type SenderIdOp =
  | (OpBase & { action: "create"; desired: DesiredSenderId })
  | (OpBase & { action: "replace"; desired: DesiredSenderId; current: SenderId })
  | (OpBase & { action: "delete"; current: SenderId });

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
  /**
   * What deleting the resource does: `delete` deletes the Sender ID even when the stack adopted it
   * (and allows a create to replace one the stack did not make); `retain` never deletes it. Not
   * given: one the stack created is deleted, one it adopted is left as it is (src/kit/provider/guards.ts).
   */
  onDelete?: OnDelete;
}

export interface SenderIdOutputs extends SenderIdInputs, Partial<Origin> {
  /** The Sender ID's Wavix id (a UUID; also the resource ID). */
  wavixId: string;
}
