/** What apply needs for one planned change of a number (the number kind's `Op`). */
import type { WavixClient } from "../../client";
import type { OpBase } from "../../kit/contract";
import type { ListedNumbers, NumberSettings, NumberWrite } from "./handler";
import type { DesiredNumber } from "./types";
import type { WavixNumber } from "../../client/types";
import type { TenantRead } from "./tenants";

/** What one read gives: the account's own numbers found, and each tenant's (by tenantKey). */
export interface NumbersRead {
  readonly own: Map<string, WavixNumber>;
  readonly tenants: Map<string, TenantRead>;
  /** What the account's listing pages read on the way showed (the unmanaged report). */
  readonly listed?: ListedNumbers;
}

/** The sub-account a tenant's number is written under: its client holds that sub-account's key (memory only). */
export interface NumberOwner {
  readonly id: number;
  readonly name: string;
  readonly client: WavixClient;
}

export type NumberOp = OpBase & {
  action: "update";
  write: NumberWrite;
  desired: NumberSettings;
  /** The managed fields as the plan read them, which a saved plan rechecks. */
  before: NumberSettings;
  /** The sub-account whose key writes it (a tenant's number). */
  owner?: NumberOwner;
  /** The file's destinations, kept while some route to trunks (by label) created in this same run. */
  declared?: DesiredNumber;
  /** Labels of those trunks: their id and login come from their creates (`EarlierWrites`). */
  newTrunks?: string[];
};
