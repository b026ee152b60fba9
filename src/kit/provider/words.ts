/**
 * How a face names things in the messages the kinds raise through it (docs/ARCHITECTURE.md, "The
 * provider kit"): a resource's settings (`onDelete` under Pulumi, `on_delete` under Terraform), what
 * holds the resources (a stack, a configuration), the provider's settings, and the commands that
 * forget, adopt again or refresh a resource. The kinds say what happened and what to do; the face
 * that serves the engine says it in the engine's words — as the write gate's settings are named by
 * `SessionGateNames` (./session.ts). Plain text only: no engine type.
 */

/** A face's vocabulary, for the kinds' messages. */
export interface FaceWords {
  /** A resource setting as written on the resource: `onDelete` (Pulumi), `on_delete` (Terraform). */
  prop(name: string): string;
  /** A setting with its value, as written on the resource: `onDelete: "delete"`, `on_delete = "delete"`. */
  setting(name: string, value: string | boolean): string;
  /** What holds the resources, after "this"/"the": `stack`, `configuration`. */
  readonly holder: string;
  /** The engine by name: `Pulumi`, `OpenTofu/Terraform`. */
  readonly engine: string;
  /** The command the engine runs as (where an environment variable is set): `` `pulumi` ``. */
  readonly command: string;
  /** Where a provider setting is set: `wavix:apiKey`, `api_key in the provider "wavix" block`. */
  config(name: "apiKey" | "baseUrl"): string;
  /** Where to look when the provider settings are in doubt: `the stack's config`, `the provider "wavix" block`. */
  readonly configPlace: string;
  /** How to forget a resource and leave its object: `` `pulumi state delete` the resource ``. */
  readonly forget: string;
  /** How to take an object on again after {@link forget}: `` run `pulumi up` to adopt it again ``. */
  readonly adoptAgain: string;
  /** How to take a change made outside into state: `` `pulumi refresh` ``. */
  readonly refresh: string;
  /** How to give a SIP trunk (by label) the password its create or PUT needs. */
  trunkPassword(label: string): string;
}

/** Pulumi's words (the dynamic providers and the native plugin): the resource args are camelCase. */
export const PULUMI_WORDS: FaceWords = {
  prop: (name) => name,
  setting: (name, value) => `${name}: ${JSON.stringify(value)}`,
  holder: "stack",
  engine: "Pulumi",
  command: "`pulumi`",
  config: (name) => `wavix:${name}`,
  configPlace: "the stack's config",
  forget: "`pulumi state delete` the resource",
  adoptAgain: "run `pulumi up` to adopt it again",
  refresh: "`pulumi refresh`",
  trunkPassword: (label) => `set it with \`pulumi config set --secret --path 'wavix:trunkPasswords.${label}' <PASSWORD>\`, or set the environment variable its passwordEnv names`,
};
