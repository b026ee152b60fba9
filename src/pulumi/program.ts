/**
 * The Pulumi program of the desired-state file (PRODUCT.md part 6): every resource of a parsed
 * file, with logical names from identities (never list positions, so reordering the file changes
 * nothing), and `runProgram` for the root `Pulumi.yaml`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { CallWebhookEventType } from "../client/types";
import { formatProblem, loadDesiredState } from "../config";
import type { DesiredNumber, DesiredState, DesiredSubAccount } from "../config/types";
import { getBrandVettingsOutput, getTwoFaEventsOutput } from "./data-sources";
import { CallWebhook, PhoneNumber, SubAccount, type PhoneNumberArgs, type SubAccountArgs } from "./resources";

/** The resources of one file, keyed by identity. */
export interface DeclaredResources {
  /** By sub-account name. */
  subAccounts: Record<string, SubAccount>;
  /** By digits. */
  numbers: Record<string, PhoneNumber>;
  /** By event type. */
  callWebhooks: Partial<Record<CallWebhookEventType, CallWebhook>>;
}

/**
 * Logical names: the kind and the identity (`sub-account:Acme Support`, `number:15551230001`,
 * `call-webhook:on-call`). A sub-account the file pins with `id:` is named by its id
 * (`sub-account:id:2003`), so renaming it in the file renames it in place (PRODUCT.md part 6).
 */
export const logicalName = {
  subAccount: (name: string, id?: number): string => (id === undefined ? `sub-account:${name}` : `sub-account:id:${id}`),
  number: (digits: string): string => `number:${digits}`,
  callWebhook: (eventType: CallWebhookEventType): string => `call-webhook:${eventType}`,
};

/** A file's sub-account as camelCase args; keys the file omits stay absent (not managed). */
export function subAccountArgs(d: DesiredSubAccount): SubAccountArgs {
  const args: SubAccountArgs = { name: d.name };
  if (d.id !== undefined) args.subAccountId = d.id;
  if (d.status !== undefined) args.status = d.status;
  const dd = d.default_destinations;
  if (dd !== undefined) {
    const out: { smsEndpoint?: string; dlrEndpoint?: string } = {};
    if (dd.sms_endpoint !== undefined) out.smsEndpoint = dd.sms_endpoint;
    if (dd.dlr_endpoint !== undefined) out.dlrEndpoint = dd.dlr_endpoint;
    args.defaultDestinations = out;
  }
  return args;
}

/** A file's number as camelCase args; keys the file omits stay absent (not managed). */
export function phoneNumberArgs(d: DesiredNumber): PhoneNumberArgs {
  const args: PhoneNumberArgs = { number: d.number };
  if (d.sms_enabled !== undefined) args.smsEnabled = d.sms_enabled;
  if (d.sms_relay_url !== undefined) args.smsRelayUrl = d.sms_relay_url;
  if (d.call_status_url !== undefined) args.callStatusUrl = d.call_status_url;
  if (d.call_recording_enabled !== undefined) args.callRecordingEnabled = d.call_recording_enabled;
  if (d.transcription_enabled !== undefined) args.transcriptionEnabled = d.transcription_enabled;
  if (d.transcription_threshold !== undefined) args.transcriptionThreshold = d.transcription_threshold;
  if (d.destinations !== undefined) {
    args.destinations = d.destinations.map((x) =>
      x.transport === 5 && x.trunk_id !== null
        ? { destination: x.destination, transport: x.transport, priority: x.priority, trunkId: x.trunk_id }
        : { destination: x.destination, transport: x.transport, priority: x.priority },
    );
  }
  if (d.on_delete !== undefined) args.onDelete = d.on_delete;
  return args;
}

/**
 * Declares every resource of a parsed file. `opts` apply to each resource (e.g. a parent or a
 * provider-independent `protect`).
 */
export function declareResources(state: DesiredState, opts: pulumi.CustomResourceOptions = {}): DeclaredResources {
  const out: DeclaredResources = { subAccounts: {}, numbers: {}, callWebhooks: {} };
  for (const s of state.sub_accounts ?? []) {
    // State written before pinned sub-accounts were named by id used the name: the alias lets the
    // engine take that resource over instead of creating one and deleting (disabling) the other.
    const aliases = s.id === undefined ? opts.aliases : [...(opts.aliases ?? []), { name: logicalName.subAccount(s.name) }];
    out.subAccounts[s.name] = new SubAccount(logicalName.subAccount(s.name, s.id), subAccountArgs(s), { ...opts, ...(aliases ? { aliases } : {}) });
  }
  for (const n of state.numbers ?? []) {
    out.numbers[n.number] = new PhoneNumber(logicalName.number(n.number), phoneNumberArgs(n), { ...opts });
  }
  const hooks = state.call_webhooks ?? {};
  for (const eventType of Object.keys(hooks).sort() as CallWebhookEventType[]) {
    const url = hooks[eventType];
    if (url === undefined) continue;
    out.callWebhooks[eventType] = new CallWebhook(logicalName.callWebhook(eventType), { eventType, url }, { ...opts });
  }
  return out;
}

/** Loads a desired-state file, or throws one Error listing every problem as `FILE:LINE:COL: message`. */
export function loadStateOrThrow(file: string): DesiredState {
  const result = loadDesiredState(file);
  if (!result.ok) {
    throw new Error(`${file} has ${result.problems.length} problem(s):\n${result.problems.map(formatProblem).join("\n")}`);
  }
  return result.state;
}

/** Audit figures exported by the stack (the same computation as `wavix-sync audit`). */
export interface AuditSummary {
  twoFa?: {
    chargeTotal: string;
    eventsByStatus: { success: number; failed: number; pending: number };
    sessions: number;
    verifiedSessions: number;
  };
  tenDlc?: {
    brands: { brandId: string; effectiveScore: number | null; pending: boolean }[];
  };
}

/** The stack outputs of {@link runProgram}. */
export interface ProgramOutputs {
  /** Sub-account ID by name. */
  subAccountIds: Record<string, pulumi.Output<number>>;
  /** Sub-account API keys by name (secret). */
  subAccountApiKeys: pulumi.Output<Record<string, string>>;
  /** Wavix number ID by digits. */
  numberIds: Record<string, pulumi.Output<number>>;
  /** Present when the file has an `audit` section. */
  audit?: pulumi.Output<AuditSummary>;
}

export interface RunProgramOptions {
  /**
   * The desired-state file; a relative path is taken from the Pulumi project root (the folder of
   * `Pulumi.yaml`), whatever working directory the engine gives the program.
   * @default stack config `wavix-sync:configFile`, else "wavix.yaml"
   */
  configFile?: string;
}

/**
 * The Pulumi project root: what the engine passes as `--root-directory`
 * (`pulumi.runtime.getRootDirectory()`), else the nearest folder above the working directory that
 * holds `Pulumi.yaml` (an engine too old to pass it), else the working directory.
 */
export function projectRoot(): string {
  const given = pulumi.runtime.getRootDirectory();
  // Under `setMocks` (unit tests) the root is a placeholder name, not a folder.
  if (given && path.isAbsolute(given) && existsSync(given)) return given;
  for (let dir = process.cwd(), up = ""; dir !== up; up = dir, dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "Pulumi.yaml")) || existsSync(path.join(dir, "Pulumi.yml"))) return dir;
  }
  return process.cwd();
}

/** The root program: loads the file named by config, declares its resources, and returns the stack outputs. */
export function runProgram(options: RunProgramOptions = {}): ProgramOutputs {
  const config = new pulumi.Config("wavix-sync");
  const file = path.resolve(projectRoot(), options.configFile ?? config.get("configFile") ?? "wavix.yaml");
  const state = loadStateOrThrow(file);
  const declared = declareResources(state);

  const subAccountIds: Record<string, pulumi.Output<number>> = {};
  const keys: Record<string, pulumi.Output<string>> = {};
  for (const [name, sa] of Object.entries(declared.subAccounts)) {
    subAccountIds[name] = sa.subAccountId;
    keys[name] = sa.apiKey;
  }
  const numberIds: Record<string, pulumi.Output<number>> = {};
  for (const [digits, n] of Object.entries(declared.numbers)) numberIds[digits] = n.wavixId;

  const outputs: ProgramOutputs = {
    subAccountIds,
    subAccountApiKeys: pulumi.secret(pulumi.all(keys)),
    numberIds,
  };

  const audit = state.audit;
  if (audit !== undefined) {
    const twoFa = audit.two_fa
      ? getTwoFaEventsOutput({
          sessions: audit.two_fa.sessions,
          services: audit.two_fa.services.map((s) => ({ serviceId: s.service_id, from: s.from, to: s.to })),
        }).apply((d) => ({
          chargeTotal: d.charge_total,
          eventsByStatus: { ...d.events_by_status },
          sessions: d.sessions.length,
          verifiedSessions: d.sessions.filter((s) => s.verified).length,
        }))
      : undefined;
    const tenDlc = audit.ten_dlc
      ? getBrandVettingsOutput({ brands: audit.ten_dlc.brands }).apply((d) => ({
          brands: d.brands.map((b) => ({ brandId: b.brand_id, effectiveScore: b.effective_score, pending: b.pending })),
        }))
      : undefined;
    outputs.audit = pulumi.all([twoFa, tenDlc]).apply(([t, b]) => {
      const summary: AuditSummary = {};
      if (t) summary.twoFa = t;
      if (b) summary.tenDlc = b;
      return summary;
    });
  }
  return outputs;
}
