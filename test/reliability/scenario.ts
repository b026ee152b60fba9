/**
 * The account and desired state the reliability rows run against, plus the checks every row makes:
 * duplicates (sub-accounts counted by name in the simulator's store) and settings lost (fields the
 * file does not manage, compared before and after).
 */
import { parseDesiredState } from "../../src/config";
import type { DesiredState } from "../../src/config/types";
import type { SimSeed, Simulator } from "../../src/simulator";

export const MASTER_KEY = "rel-master-key-7Qz93xLk";

export function reliabilitySeed(): SimSeed {
  return {
    numbers: [
      {
        id: 11,
        number: "15550000001",
        sms_enabled: true,
        transcription_threshold: 45,
        label: "front desk",
        destination: [{ id: 1, destination: "sip.example.net", priority: 1, transport: 1, trunk_id: null, srtp: false, trunk_label: null }],
      },
      { id: 12, number: "15550000002", sms_enabled: false, call_recording_enabled: true },
      { id: 13, number: "15550000003", sms_enabled: false, transcription_enabled: true },
      { id: 14, number: "15550000004", sms_enabled: true, call_status_url: "https://keep.example/status" },
    ],
    subAccounts: [
      {
        id: 2001,
        name: "Acme Support",
        api_key: "rel-sub-key-acme-Hh27",
        default_destinations: { sms_endpoint: "https://a.example/sms", dlr_endpoint: "https://a.example/dlr" },
      },
      { id: 2002, name: "Legacy", api_key: "rel-sub-key-legacy-Pp81" },
    ],
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

/**
 * One sub-account update (status only: its endpoints are not managed), one create, a single-number
 * PATCH, a uniform change to two numbers (one bulk PATCH, asynchronously applied) and a webhook.
 */
export const DESIRED_YAML = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: New Co
    default_destinations:
      sms_endpoint: https://new.example/sms
numbers:
  - number: "15550000001"
    call_status_url: https://hooks.example/status
  - number: "15550000002"
    sms_relay_url: https://hooks.example/inbound
  - number: "15550000003"
    sms_relay_url: https://hooks.example/inbound
call_webhooks:
  on-call: https://hooks.example/on
`;

export function desiredState(text = DESIRED_YAML): DesiredState {
  const r = parseDesiredState(text, "wavix.yaml");
  if (!r.ok) throw new Error(`test file does not validate: ${JSON.stringify(r.problems)}`);
  return r.state;
}

/** Fields the file manages, per record, so everything else must survive. */
const MANAGED_NUMBER_FIELDS: Record<string, string[]> = {
  "15550000001": ["call_status_url"],
  "15550000002": ["sms_relay_url"],
  "15550000003": ["sms_relay_url"],
};
const MANAGED_SUB_FIELDS: Record<string, string[]> = { "Acme Support": ["status"] };

/** Every unmanaged field of the account as `path → JSON value`. */
export function unmanagedSnapshot(sim: Simulator): Map<string, string> {
  const out = new Map<string, string>();
  for (const { data } of sim.store.numbers.values()) {
    const managed = MANAGED_NUMBER_FIELDS[data.number] ?? [];
    for (const [k, v] of Object.entries(data)) if (!managed.includes(k)) out.set(`number ${data.number}.${k}`, JSON.stringify(v));
  }
  for (const { data } of sim.store.subAccounts.values()) {
    if (data.name === "New Co") continue; // created by the run
    const managed = MANAGED_SUB_FIELDS[data.name] ?? [];
    for (const [k, v] of Object.entries(data)) if (!managed.includes(k)) out.set(`sub_account ${data.name}.${k}`, JSON.stringify(v));
  }
  out.set("call_webhook post-call", JSON.stringify(sim.store.webhooksOf(sim.store.masterId).get("post-call") ?? null));
  return out;
}

/** Paths whose value changed between two snapshots. */
export function settingsLost(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([k, v]) => after.get(k) !== v).map(([k]) => k);
}

/** How many sub-accounts beyond one share a name (0 = no duplicate). */
export function duplicates(sim: Simulator): number {
  const count = new Map<string, number>();
  for (const { data } of sim.store.subAccounts.values()) count.set(data.name, (count.get(data.name) ?? 0) + 1);
  return [...count.values()].reduce((n, c) => n + (c - 1), 0);
}
