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
  /** Write-only: sent on create, and on update when it changes. Pass a secret. */
  password?: pulumi.Input<string>;
}

/** A Wavix SIP trunk. `password` and `accessToken` are always secret. */
export class SipTrunk extends WavixDynamicResource {
  declare public readonly label: pulumi.Output<string>;
  /** The trunk's Wavix ID. */
  declare public readonly trunkId: pulumi.Output<number>;
  /** The system-generated login (what a number's trunk destination names). */
  declare public readonly login: pulumi.Output<string>;
  /** The trunk's static authentication token (secret). */
  declare public readonly accessToken: pulumi.Output<string | null>;

  constructor(name: string, args: SipTrunkArgs, opts: pulumi.CustomResourceOptions = {}) {
    const secrets = ["password", "accessToken"];
    super(
      shimFor("SipTrunk"),
      name,
      { ...args, ...(args.password !== undefined ? { password: sdk.secret(args.password) } : {}), trunkId: args.trunkId, login: undefined, accessToken: undefined },
      { ...opts, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), ...secrets])] },
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

/** A file's trunk as camelCase args; keys the file omits stay absent (not managed). */
export function sipTrunkArgs(d: DesiredSipTrunk, password?: pulumi.Input<string>): SipTrunkArgs {
  const args: Record<string, unknown> = { label: d.label };
  if (d.id !== undefined) args.trunkId = d.id;
  if (d.password_env !== undefined) args.passwordEnv = d.password_env;
  for (const k of TRUNK_SETTING_KEYS) if (d[k] !== undefined) args[camel(k)] = d[k];
  if (password !== undefined) args.password = password;
  return args as unknown as SipTrunkArgs;
}

export const sipTrunkProgram: PulumiProgramPart<DesiredSipTrunk[], SipTrunk> = {
  declare(declared, opts) {
    const out: Record<string, SipTrunk> = {};
    for (const t of declared) out[t.label] = new SipTrunk(sipTrunkLogicalName(t.label, t.id), sipTrunkArgs(t, trunkPassword(t)), { ...opts });
    return out;
  },
  outputs(resources) {
    const sipTrunkIds: Record<string, pulumi.Output<number>> = {};
    for (const [label, t] of Object.entries(resources)) sipTrunkIds[label] = t.trunkId;
    return Object.keys(sipTrunkIds).length > 0 ? { sipTrunkIds } : {};
  },
};
