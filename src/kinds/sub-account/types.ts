/**
 * The sub-account kind's own types: what the file declares (`sub_accounts:`), and the plain inputs
 * and outputs of its provider (`SubAccount`; docs/CONTRACT.md part 6).
 */
import type { SourcePosition } from "../../kit/file/problems";
import type { OnDelete, Origin } from "../../kit/provider/guards";

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

/** The sub-account kind's part of the typed file. */
export interface SubAccountPart {
  /** undefined: the file has no `sub_accounts` key (nothing managed, nothing pruned). */
  sub_accounts?: DesiredSubAccount[];
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
  /**
   * What deleting the resource does (the API has no delete: deleting disables): `delete` disables
   * the sub-account even when the stack adopted it; `retain` never disables it. Not given: one the
   * stack created is disabled, one it adopted is left as it is (src/kit/provider/guards.ts).
   */
  onDelete?: OnDelete;
}

export interface SubAccountOutputs extends Omit<SubAccountInputs, "defaultDestinations" | "subAccountId">, Partial<Origin> {
  /** `null` in outputs read back means the account has the endpoint unset. */
  defaultDestinations?: { smsEndpoint?: string | null; dlrEndpoint?: string | null };
  subAccountId: number;
  /** The sub-account's own key: marked secret by `additionalSecretOutputs`. */
  apiKey: string;
  masterOrganization: number;
  /** Present (true) when the inputs pin `subAccountId`: a refresh keeps the pin. */
  pinned?: true;
}
