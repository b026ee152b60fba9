/** Sub-accounts as an export writes them: no key ever; an id only where two share a name. */
import type { WavixClient } from "../../client";
import type { SubAccount } from "../../client/types";
import type { DesiredSubAccount } from "../../config/types";
import { emitItem } from "../../config/yaml-emit";
import { subAccountFileObject } from "./file";
import type { KindExport } from "../contract";
import { listAllSubAccounts } from "./handler";

export function subAccountsOf(subs: SubAccount[]): DesiredSubAccount[] {
  const nameCount = new Map<string, number>();
  for (const s of subs) nameCount.set(s.name, (nameCount.get(s.name) ?? 0) + 1);
  return subs.map((s, i): DesiredSubAccount => {
    const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
    if (s.default_destinations?.sms_endpoint) dd.sms_endpoint = s.default_destinations.sms_endpoint;
    if (s.default_destinations?.dlr_endpoint) dd.dlr_endpoint = s.default_destinations.dlr_endpoint;
    return {
      name: s.name,
      // Two sub-accounts of one name can only be told apart by id (docs/CONTRACT.md part 4, Identity).
      ...((nameCount.get(s.name) ?? 0) > 1 ? { id: s.id } : {}),
      status: s.status,
      ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
      path: `sub_accounts[${i}]`,
    };
  });
}

export const subAccountExport: KindExport<DesiredSubAccount[]> = {
  async text(client: WavixClient) {
    return { form: "list", items: subAccountsOf(await listAllSubAccounts(client)).map((sa) => emitItem(subAccountFileObject(sa), "  ")) };
  },
  async state(client: WavixClient) {
    return subAccountsOf(await listAllSubAccounts(client));
  },
};
