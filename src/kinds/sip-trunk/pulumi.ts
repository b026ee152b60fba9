/**
 * The SIP trunk kind in a Pulumi program: the dynamic resource `pulumi-nodejs:dynamic/wavix:SipTrunk`
 * (its provider, run in the host, is ./provider.ts), its logical name and arguments from the file,
 * and the stack outputs (ids). The password comes from secret config
 * (`pulumi config set --secret --path 'wavix:trunkPasswords.<label>' …`) or the environment variable
 * `password_env` names, and is passed as a secret input; `accessToken` is a secret output.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../kit/pulumi/sdk";
import { RESOURCE_MODULE } from "../../kit/pulumi/module";
import { WavixDynamicResource, shimFor } from "../../kit/pulumi/shim";
import type { DesiredSipTrunk, SipTrunkSettingsInputs } from "./types";
import type { PulumiProgramPart } from "../../kit/contract";
import { TRUNK_SETTING_KEYS } from "./file";

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export interface SipTrunkArgs extends Inputs<SipTrunkSettingsInputs> {
  /** Identity within the account: an existing trunk with this label is adopted. */
  label: pulumi.Input<string>;
  /** Pins one trunk by its Wavix ID (the file's `id:`); a new `label` then renames it. */
  trunkId?: pulumi.Input<number>;
  /** Where the password came from (the file's `password_env`). */
  passwordEnv?: pulumi.Input<string>;
  /**
   * Write-only, a secret: sent when the create makes the trunk, and on update when its value or
   * `passwordVersion` changes. Never sent when the create adopts an existing trunk (adopting never
   * rotates a password), nor when a replacement finds its trunk in place (see {@link SipTrunk}).
   */
  password?: pulumi.Input<string>;
  /**
   * Asks for the password to be sent again: any text or whole number; when it differs from the
   * value in state, the update sends `password` (after adopting a trunk, or to send the same value
   * again). In the file-driven program: `pulumi config set --path 'wavix:trunkPasswordVersions.<label>' 2`.
   */
  passwordVersion?: pulumi.Input<string | number>;
  /**
   * What deleting the resource does: `"delete"` deletes the trunk even when this stack adopted it;
   * `"retain"` never deletes it. Not given: a trunk the stack created is deleted, one it adopted is
   * left as it is. A trunk numbers still route to is never deleted (left, with a warning).
   */
  onDelete?: pulumi.Input<"delete" | "retain">;
}

/**
 * A Wavix SIP trunk. `password` and `accessToken` are always secret.
 *
 * Replaced delete first (`deleteBeforeReplace: true` unless the options say otherwise): the engine
 * tells the create of a replacement nothing of what it replaces (a targeted `up --replace` passes no
 * old state and asks no diff), so the old half's delete goes first, leaves the trunk the
 * replacement will look up, and tells the provider its origin: made stays made, adopted stays
 * adopted (docs/GUARD-RAILS.md).
 */
export class SipTrunk extends WavixDynamicResource {
  declare public readonly label: pulumi.Output<string>;
  /** The trunk's Wavix ID. */
  declare public readonly trunkId: pulumi.Output<number>;
  /** The system-generated login (what a number's trunk destination names). */
  declare public readonly login: pulumi.Output<string>;
  /** The trunk's static authentication token (secret). */
  declare public readonly accessToken: pulumi.Output<string | null>;
  /** True when the create found the trunk in place and adopted it (its password not sent); false when it made it. */
  declare public readonly adopted: pulumi.Output<boolean>;
  /** The account the trunk belongs to (a delete first checks the stack's key still belongs to it). */
  declare public readonly accountId: pulumi.Output<number | undefined>;

  constructor(name: string, args: SipTrunkArgs, opts: pulumi.CustomResourceOptions = {}) {
    const secrets = ["password", "accessToken"];
    super(
      shimFor("SipTrunk"),
      name,
      { ...args, ...(args.password !== undefined ? { password: sdk.secret(args.password) } : {}), trunkId: args.trunkId, login: undefined, accessToken: undefined, adopted: undefined, accountId: undefined },
      { ...opts, deleteBeforeReplace: opts.deleteBeforeReplace ?? true, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), ...secrets])] },
      RESOURCE_MODULE,
      "SipTrunk",
    );
  }
}

/** Logical name: `sip-trunk:<label>`, or `sip-trunk:id:<id>` when the file pins it (a rename stays in place). */
export const sipTrunkLogicalName = (label: string, id?: number): string => (id === undefined ? `sip-trunk:${label}` : `sip-trunk:id:${id}`);

const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The password for a declared trunk: secret config first, else the variable `password_env` names. */
export function trunkPassword(d: DesiredSipTrunk, env: NodeJS.ProcessEnv = process.env): pulumi.Output<string> | undefined {
  const fromConfig = new sdk.Config("wavix").getSecretObject<Record<string, string>>("trunkPasswords");
  const fromEnv = d.password_env !== undefined && env[d.password_env] ? env[d.password_env] : undefined;
  if (fromConfig === undefined) return fromEnv === undefined ? undefined : sdk.secret(fromEnv);
  return sdk.secret(fromConfig.apply((m) => (m && typeof m[d.label] === "string" ? m[d.label] : fromEnv ?? "")));
}

/**
 * The password version for a declared trunk (`SipTrunkArgs.passwordVersion`): stack config
 * `wavix:trunkPasswordVersions.<label>`; a new value there sends the password again.
 */
export function trunkPasswordVersion(d: DesiredSipTrunk): string | number | undefined {
  const versions = new sdk.Config("wavix").getObject<Record<string, unknown>>("trunkPasswordVersions");
  const v = versions?.[d.label];
  return typeof v === "string" || typeof v === "number" ? v : undefined;
}

/** A file's trunk as camelCase args; keys the file omits stay absent (not managed). */
export function sipTrunkArgs(d: DesiredSipTrunk, password?: pulumi.Input<string>, passwordVersion?: string | number): SipTrunkArgs {
  const args: Record<string, unknown> = { label: d.label };
  if (d.id !== undefined) args.trunkId = d.id;
  if (d.password_env !== undefined) args.passwordEnv = d.password_env;
  for (const k of TRUNK_SETTING_KEYS) if (d[k] !== undefined) args[camel(k)] = d[k];
  if (password !== undefined) args.password = password;
  if (passwordVersion !== undefined) args.passwordVersion = passwordVersion;
  return args as unknown as SipTrunkArgs;
}

export const sipTrunkProgram: PulumiProgramPart<DesiredSipTrunk[], SipTrunk> = {
  declare(declared, opts) {
    const out: Record<string, SipTrunk> = {};
    for (const t of declared) out[t.label] = new SipTrunk(sipTrunkLogicalName(t.label, t.id), sipTrunkArgs(t, trunkPassword(t), trunkPasswordVersion(t)), { ...opts });
    return out;
  },
  outputs(resources) {
    const sipTrunkIds: Record<string, pulumi.Output<number>> = {};
    for (const [label, t] of Object.entries(resources)) sipTrunkIds[label] = t.trunkId;
    return Object.keys(sipTrunkIds).length > 0 ? { sipTrunkIds } : {};
  },
};
