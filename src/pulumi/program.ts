/**
 * The Pulumi program of the desired-state file (docs/CONTRACT.md part 6): every resource of a parsed
 * file, with logical names from identities (never list positions, so reordering the file changes
 * nothing), and `runProgram` for the root `Pulumi.yaml`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../kit/pulumi/sdk";
import type { CallWebhookEventType } from "../client/types";
import { formatProblem, loadDesiredState } from "../config";
import type { DesiredState } from "../config/types";
import { withoutStackTraces } from "./stack-traces";
import { setResourceFace, type ResourceFace } from "../kit/pulumi/shim";
import { kindsInFileOrder } from "../kinds";
import { callWebhookLogicalName } from "../kinds/call-webhook/pulumi";
import { numberLogicalName, phoneNumberArgs } from "../kinds/number/pulumi";
import { subAccountArgs, subAccountLogicalName } from "../kinds/sub-account/pulumi";
import { getBrandVettingsOutput, getTwoFaEventsOutput } from "./data-sources";
import type { AccountCallbacks, CallWebhook, PhoneNumber, SenderId, SipTrunk, SubAccount, TenDlcCampaignNumber } from "./resources";
import { tenDlcNumberLogicalName } from "../kinds/ten-dlc-number/pulumi";
import { senderIdLogicalName } from "../kinds/sender-id/pulumi";

/** The resources of one file, keyed by identity. */
export interface DeclaredResources {
  /** By sub-account name. */
  subAccounts: Record<string, SubAccount>;
  /** By digits. */
  numbers: Record<string, PhoneNumber>;
  /** By event type. */
  callWebhooks: Partial<Record<CallWebhookEventType, CallWebhook>>;
  /** By `sender_id`. */
  senderIds: Record<string, SenderId>;
  /** By `brand/campaign/number`. */
  tenDlcCampaignNumbers: Record<string, TenDlcCampaignNumber>;
  /** `profile`, when the file declares a callback URL. */
  accountCallbacks: { profile?: AccountCallbacks };
  /** By label. */
  sipTrunks: Record<string, SipTrunk>;
}

/**
 * Logical names: the kind and the identity (`sub-account:Acme Support`, `number:15551230001`,
 * `call-webhook:on-call`). A sub-account the file pins with `id:` is named by its id
 * (`sub-account:id:2003`), so renaming it in the file renames it in place (docs/CONTRACT.md part 6).
 * Each kind's own function lives in its folder (src/kinds/<kind>/pulumi.ts).
 */
export const logicalName = {
  subAccount: subAccountLogicalName,
  number: numberLogicalName,
  callWebhook: callWebhookLogicalName,
  senderId: senderIdLogicalName,
  tenDlcNumber: tenDlcNumberLogicalName,
};

export { subAccountArgs, phoneNumberArgs };

/**
 * Declares every resource of a parsed file, kind by kind in file order (src/kinds). `opts` apply
 * to each resource (e.g. a parent or a provider-independent `protect`).
 */
export function declareResources(state: DesiredState, opts: pulumi.CustomResourceOptions = {}): DeclaredResources {
  const steps = declaring(state, opts, Infinity);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Items declared between two turns of the event loop in {@link declareResourcesStreamed}. */
const STREAM_CHUNK = 100;

/**
 * {@link declareResources}, with turns of the event loop between chunks of a kind's items (the
 * first item alone, then {@link STREAM_CHUNK} at a time), so the registrations already declared
 * reach the engine while the rest is declared. Declared all at once, the first registration
 * leaves only after the last resource is built, and only then does the engine start the
 * dynamic-provider plugin (about a second: Node.js and `@pulumi/pulumi`); streamed, the plugin starts
 * while the program is still declaring. The same resources, names, options and order: a kind whose
 * file value is a list declares its items independently (src/kit/contract.ts `declare`).
 */
export async function declareResourcesStreamed(state: DesiredState, opts: pulumi.CustomResourceOptions = {}): Promise<DeclaredResources> {
  const steps = declaring(state, opts, STREAM_CHUNK);
  let step = steps.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    step = steps.next();
  }
  return step.value;
}

/**
 * The one declaration loop of {@link declareResources} and {@link declareResourcesStreamed}: kind by
 * kind in file order, a list kind's items the first alone and then `chunk` at a time, pausing
 * (yield) after each part. No stack trace is captured while a part is declared (withoutStackTraces).
 */
function* declaring(state: DesiredState, opts: pulumi.CustomResourceOptions, chunk: number): Generator<void, DeclaredResources> {
  checkFileGuards(state);
  const out: Record<string, Record<string, unknown>> = {};
  for (const kind of kindsInFileOrder()) {
    const declared = kind.declared(state);
    const mine: Record<string, unknown> = (out[kind.pulumi.collection] = {});
    if (declared === undefined) continue;
    const part = kind.pulumi.program();
    const parts = Array.isArray(declared) ? [declared.slice(0, 1), ...chunksOf(declared.slice(1), chunk)] : [declared];
    for (const items of parts) {
      Object.assign(mine, withoutStackTraces(() => part.declare(items, opts, out)));
      yield;
    }
  }
  return out as unknown as DeclaredResources;
}

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Loads a desired-state file, or throws one Error listing every problem as `FILE:LINE:COL: message`
 * (a `RunError`: under Pulumi's runner it is printed as that message alone, without a stack trace).
 */
export function loadStateOrThrow(file: string): DesiredState {
  const result = loadDesiredState(file);
  if (!result.ok) {
    throw new sdk.RunError(`${file} has ${result.problems.length} problem(s):\n${result.problems.map(formatProblem).join("\n")}`);
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
  /** Sender ID Wavix id by `sender_id` (present when the file declares `sender_ids`). */
  senderIdIds?: Record<string, pulumi.Output<string>>;
  /** SIP trunk ID by label (present when the file declares trunks). */
  sipTrunkIds?: Record<string, pulumi.Output<number>>;
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
  /**
   * The provider the resources register with: `dynamic` (dynamic resources, served inside Pulumi's
   * dynamic-provider host) or `native` (the plugin `pulumi-resource-wavix`, resources
   * `wavix:index:<Kind>`, aliased to the dynamic ones so that a stack moves over in place;
   * docs/PULUMI.md). For the whole program.
   * @default stack config `wavix-sync:provider`, else "dynamic"
   */
  provider?: ResourceFace;
  /**
   * `object`: one resource per object of the file (the default); `account`: the whole file as ONE
   * native resource `wavix:index:Account` (docs/PULUMI.md, "One resource for a whole account"),
   * whose diff is the CLI's plan — it needs the native plugin, whatever `provider` says.
   * @default stack config `wavix-sync:granularity`, else "object"
   */
  granularity?: Granularity;
}

/** How many resources the root program declares: one per object, or one for the whole account. */
export type Granularity = "object" | "account";

/** The stack outputs of the root program with `granularity: account`. */
export interface AccountProgramOutputs {
  /** The Account resource's digest of the declared state. */
  accountDigest: pulumi.Output<string>;
  /** How many items of each collection the file declares. */
  declared: pulumi.Output<Record<string, number>>;
}

/**
 * The Pulumi project root: what the engine passes as `--root-directory`
 * (`sdk.getRootDirectory()`), else the nearest folder above the working directory that
 * holds `Pulumi.yaml` (an engine too old to pass it), else the working directory.
 */
export function projectRoot(): string {
  const given = sdk.getRootDirectory();
  // Under `setMocks` (unit tests) the root is a placeholder name, not a folder.
  if (given && path.isAbsolute(given) && existsSync(given)) return given;
  for (let dir = process.cwd(), up = ""; dir !== up; up = dir, dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "Pulumi.yaml")) || existsSync(path.join(dir, "Pulumi.yml"))) return dir;
  }
  return process.cwd();
}

/** The root program: loads the file named by config, declares its resources, and returns the stack outputs. */
export function runProgram(options: RunProgramOptions = {}): ProgramOutputs | AccountProgramOutputs {
  const { state, file, granularity } = loadForProgram(options);
  if (granularity === "account") return declareAccount(file);
  // No stack trace is captured while the resources are declared (withoutStackTraces).
  return outputsOf(state, declareResources(state) as unknown as Record<string, Record<string, unknown>>);
}

/**
 * {@link runProgram} as the root `Pulumi.yaml` runs it (program-main): the same resources and
 * outputs, declared in chunks so that the engine works on the first ones while the rest are
 * declared ({@link declareResourcesStreamed}).
 */
export async function runProgramStreamed(options: RunProgramOptions = {}): Promise<ProgramOutputs | AccountProgramOutputs> {
  const { state, file, granularity } = loadForProgram(options);
  if (granularity === "account") return declareAccount(file);
  return outputsOf(state, (await declareResourcesStreamed(state)) as unknown as Record<string, Record<string, unknown>>);
}

/** The file named by config, loaded and checked against the stack's account pin; the provider and granularity chosen. */
function loadForProgram(options: RunProgramOptions): { state: DesiredState; file: string; granularity: Granularity } {
  const config = new sdk.Config("wavix-sync");
  const granularity = options.granularity ?? config.get("granularity") ?? "object";
  if (granularity !== "object" && granularity !== "account") {
    throw new sdk.RunError(`wavix-sync:granularity must be object or account, not ${JSON.stringify(granularity)}`);
  }
  const provider = options.provider ?? config.get("provider") ?? "dynamic";
  if (provider !== "dynamic" && provider !== "native") {
    throw new Error(`wavix-sync:provider must be dynamic or native, not ${JSON.stringify(provider)}`);
  }
  // The Account resource is the native plugin's alone, whatever wavix-sync:provider says (its default is dynamic).
  setResourceFace(granularity === "account" ? "native" : provider);
  const file = path.resolve(projectRoot(), options.configFile ?? config.get("configFile") ?? "wavix.yaml");
  const state = loadStateOrThrow(file);
  checkFileGuards(state);
  return { state, file, granularity };
}

/** `wavix:index:Account` as the program declares it: the outputs it exports are registered as its own. */
class AccountResource extends sdk.CustomResource {
  declare readonly digest: pulumi.Output<string>;
  declare readonly declared: pulumi.Output<Record<string, number>>;
  constructor(name: string, props: pulumi.Inputs) {
    super("wavix:index:Account", name, props);
  }
}

/**
 * The whole file as ONE resource, `wavix:index:Account` of the native plugin (docs/PULUMI.md, "One
 * resource for a whole account"). The plugin reads the file itself, at every preview and update,
 * from the path given relative to its working directory, which the engine makes the program's own.
 */
function declareAccount(file: string): AccountProgramOutputs {
  const relative = path.relative(process.cwd(), file) || file;
  const props = { file: relative, accountId: undefined, digest: undefined, declared: undefined, lastApply: undefined };
  const account = new AccountResource("account", props);
  return { accountDigest: account.digest, declared: account.declared };
}

/**
 * The file's guard rails, carried to the providers' write gate (src/kit/gate/) through the stack
 * config they read, before any resource is declared — in the ready program and in a user's own
 * program (`declareResources(loadStateOrThrow(...))`, issue #33 item 1): the file's `account_id:`
 * must be the providers' `wavix:accountId` (they compare it before any write), and the file's
 * `safety.max_destructive_total`, when stricter than the providers' limit (`wavix:maxDestructive`,
 * default 20), must be set as that limit. Throws a RunError saying which command sets it.
 */
export function checkFileGuards(state: DesiredState): void {
  const file = state.file;
  const config = new sdk.Config("wavix");
  const pin = config.get("accountId");
  if (state.account_id !== undefined && pin?.trim() !== String(state.account_id)) {
    throw new sdk.RunError(
      pin === undefined
        ? `${file} pins account_id ${state.account_id}: set the same pin for the providers with \`pulumi config set wavix:accountId ${state.account_id}\`; nothing was declared or written`
        : `${file} pins account_id ${state.account_id}, but the stack config wavix:accountId is ${pin}: make them the same account; nothing was declared or written`,
    );
  }
  const fileLimit = state.safety?.max_destructive_total;
  const configured = config.get("maxDestructive");
  const limit = configured === undefined ? 20 : Number(configured);
  if (fileLimit !== undefined && !(limit <= fileLimit)) {
    throw new sdk.RunError(
      `${file} limits destructive changes to safety.max_destructive_total ${fileLimit}, but the providers' limit (wavix:maxDestructive) is ${configured ?? "20, the default"}: ` +
        `set it with \`pulumi config set wavix:maxDestructive ${fileLimit}\`; nothing was declared or written`,
    );
  }
}

/** The stack outputs of declared resources: each kind's, in file order, and the audit's. */
function outputsOf(state: DesiredState, declared: Record<string, Record<string, unknown>>): ProgramOutputs {
  // Each kind's stack outputs, in file order (subAccountIds, subAccountApiKeys, numberIds).
  const outputs = {} as ProgramOutputs;
  for (const kind of kindsInFileOrder()) {
    const part = kind.pulumi.program();
    if (part.outputs) Object.assign(outputs, part.outputs(declared[kind.pulumi.collection]));
  }
  const audit = state.audit;
  if (audit !== undefined) {
    const twoFa = audit.two_fa
      ? getTwoFaEventsOutput({
          sessions: audit.two_fa.sessions,
          services: audit.two_fa.services.map((s, i) => {
            // A stack has no run to give the period (the CLI's --last/--from/--to): each service needs its own.
            if (s.from === undefined || s.to === undefined) {
              throw new Error(
                `${state.file}: audit.two_fa.services[${i}] (2FA service ${s.service_id}) has no from/to; under Pulumi each service needs its window in the file (wavix-sync audit takes --last 30d or --from/--to instead)`,
              );
            }
            return { serviceId: s.service_id, from: s.from, to: s.to };
          }),
        }).apply((d) => ({
          chargeTotal: d.chargeTotal,
          eventsByStatus: { ...d.eventsByStatus },
          sessions: d.sessions.length,
          verifiedSessions: d.sessions.filter((s) => s.verified).length,
        }))
      : undefined;
    const tenDlc = audit.ten_dlc
      ? getBrandVettingsOutput({ brands: audit.ten_dlc.brands }).apply((d) => ({
          brands: d.brands.map((b) => ({ brandId: b.brandId, effectiveScore: b.effectiveScore, pending: b.pending })),
        }))
      : undefined;
    outputs.audit = sdk.all([twoFa, tenDlc]).apply(([t, b]) => {
      const summary: AuditSummary = {};
      if (t) summary.twoFa = t;
      if (b) summary.tenDlc = b;
      return summary;
    });
  }
  return outputs;
}
