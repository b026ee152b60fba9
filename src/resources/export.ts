/**
 * The account as a desired state on which `plan` reports no changes: the way to start a GitOps
 * repo from an existing account. No secrets: sub-account keys are never exported.
 * Serialised to the file format by the config module's `stringifyDesiredState`.
 */
import type { WavixClient } from "../client";
import type { DesiredState, DesiredSubAccount } from "../config/types";
import { currentSettings, listAllNumbers } from "./phone-number";
import { listAllSubAccounts } from "./sub-account";
import { listWebhooks } from "./call-webhook";

export async function exportAccount(client: WavixClient): Promise<DesiredState> {
  const [subs, numbers, hooks] = await Promise.all([listAllSubAccounts(client), listAllNumbers(client), listWebhooks(client)]);
  const nameCount = new Map<string, number>();
  for (const s of subs) nameCount.set(s.name, (nameCount.get(s.name) ?? 0) + 1);
  const sub_accounts = subs.map((s, i): DesiredSubAccount => {
    const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
    if (s.default_destinations?.sms_endpoint) dd.sms_endpoint = s.default_destinations.sms_endpoint;
    if (s.default_destinations?.dlr_endpoint) dd.dlr_endpoint = s.default_destinations.dlr_endpoint;
    return {
      name: s.name,
      // Two sub-accounts of one name can only be told apart by id (PRODUCT.md part 4, Identity).
      ...((nameCount.get(s.name) ?? 0) > 1 ? { id: s.id } : {}),
      status: s.status,
      ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
      path: `sub_accounts[${i}]`,
    };
  });
  const sorted = [...numbers].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  return {
    version: 1,
    file: "(export)",
    sub_accounts,
    numbers: sorted.map((n, i) => ({ number: n.number, ...currentSettings(n), path: `numbers[${i}]` })),
    call_webhooks: Object.fromEntries([...hooks.entries()].sort()),
  };
}
