/**
 * The account as a desired-state document on which `plan` reports no changes: the way to start a
 * GitOps repo from an existing account. No secrets: sub-account keys are never exported.
 */
import type { WavixClient } from "../client";
import { currentSettings, listAllNumbers } from "./phone-number";
import { listAllSubAccounts } from "./sub-account";
import { listWebhooks } from "./call-webhook";

const TRANSPORT_NAME: Record<number, "sip" | "pstn" | "trunk"> = { 1: "sip", 4: "pstn", 5: "trunk" };

/** A plain object in the file's format (PRODUCT.md part 3). */
export async function exportAccount(client: WavixClient): Promise<Record<string, unknown>> {
  const [subs, numbers, hooks] = await Promise.all([listAllSubAccounts(client), listAllNumbers(client), listWebhooks(client)]);
  const nameCount = new Map<string, number>();
  for (const s of subs) nameCount.set(s.name, (nameCount.get(s.name) ?? 0) + 1);
  const sub_accounts = subs.map((s) => {
    const dd: Record<string, string> = {};
    if (s.default_destinations?.sms_endpoint) dd.sms_endpoint = s.default_destinations.sms_endpoint;
    if (s.default_destinations?.dlr_endpoint) dd.dlr_endpoint = s.default_destinations.dlr_endpoint;
    return {
      name: s.name,
      // Two sub-accounts of one name can only be told apart by id (PRODUCT.md part 4, Identity).
      ...((nameCount.get(s.name) ?? 0) > 1 ? { id: s.id } : {}),
      status: s.status,
      ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
    };
  });
  const exportedNumbers = [...numbers]
    .sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))
    .map((n) => {
      const c = currentSettings(n);
      return {
        number: n.number,
        sms_enabled: c.sms_enabled,
        sms_relay_url: c.sms_relay_url,
        call_status_url: c.call_status_url,
        call_recording_enabled: c.call_recording_enabled,
        transcription_enabled: c.transcription_enabled,
        transcription_threshold: c.transcription_threshold,
        destinations: c.destinations.map((d) => ({
          destination: d.destination,
          transport: TRANSPORT_NAME[d.transport] ?? d.transport,
          priority: d.priority,
          ...(d.transport === 5 && d.trunk_id !== null ? { trunk_id: d.trunk_id } : {}),
        })),
      };
    });
  const call_webhooks: Record<string, string> = {};
  for (const [eventType, url] of [...hooks.entries()].sort()) call_webhooks[eventType] = url;
  return { version: 1, sub_accounts, numbers: exportedNumbers, call_webhooks };
}
