/** What apply needs for one planned change of a sub-account (the sub-account kind's `Op`). */
import type { SubAccount } from "../../client/types";
import type { OpBase } from "../../kit/contract";
import type { SubAccountSettings } from "./handler";

export type SubAccountOp =
  | (OpBase & { action: "create"; desired: SubAccountSettings; createdId?: number })
  | (OpBase & { action: "update"; desired: SubAccountSettings; current: SubAccount })
  | (OpBase & { action: "delete"; current: SubAccount });
