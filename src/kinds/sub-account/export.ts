/**
 * Sub-accounts as an export writes them: no key ever; every one pinned with its `id:` (issue #20),
 * so a sub-account renamed in the portal afterwards is still the same one (the next plan proposes
 * the rename back, never a second sub-account), and two of one name are told apart.
 */
import type { WavixClient } from "../../client";
import type { SubAccount } from "../../client/types";
import type { DesiredSubAccount } from "./types";
import { emitItem } from "../../kit/file/yaml-emit";
import { subAccountFileObject } from "./file";
import type { KindExport } from "../../kit/contract";
import { sharedSubAccountListing } from "./handler";

export function subAccountsOf(subs: SubAccount[]): DesiredSubAccount[] {
  return subs.map((s, i): DesiredSubAccount => {
    const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
    if (s.default_destinations?.sms_endpoint) dd.sms_endpoint = s.default_destinations.sms_endpoint;
    if (s.default_destinations?.dlr_endpoint) dd.dlr_endpoint = s.default_destinations.dlr_endpoint;
    return {
      name: s.name,
      // Pinned by id (docs/CONTRACT.md part 4, Identity): a rename keeps it the same sub-account.
      id: s.id,
      status: s.status,
      ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
      path: `sub_accounts[${i}]`,
    };
  });
}

export const subAccountExport: KindExport<DesiredSubAccount[]> = {
  async text(client: WavixClient) {
    return { form: "list", items: subAccountsOf(await sharedSubAccountListing(client)).map((sa) => emitItem(subAccountFileObject(sa), "  ")) };
  },
  async state(client: WavixClient) {
    return subAccountsOf(await sharedSubAccountListing(client));
  },
};
