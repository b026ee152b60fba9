/**
 * What a Pulumi delete may touch (docs/GUARD-RAILS.md, "Under Pulumi"; issue #27 item 7), for every
 * kind's provider and so for both faces (the dynamic provider and the native plugin):
 *
 * - **Adopted or made.** A create that finds the object already there adopts it; its outputs say
 *   so (`adopted: true`, never a secret), and a create that made it says `adopted: false`. A delete
 *   leaves an adopted object as it is — no delete, disable, unlink or release — and says so in one
 *   warning, unless the resource opts in with `onDelete: "delete"` (numbers: `onDelete: "release"`,
 *   as always). `onDelete: "retain"` leaves even what the stack made. State written before this
 *   was recorded says neither: its objects are left as they are too (it cannot be known).
 * - **The account.** The outputs record the account the object belongs to (`accountId`, from
 *   `GET /v1/profile`); a delete, update or read first compares it with the account the stack's key
 *   belongs to now, so a stack moved to another account touches nothing there.
 * - **Before the create.** `check` of a resource not in state yet may say that its create will adopt
 *   an existing object (the engine shows every create as `+ create`).
 *
 * Plain data and the provider context only: no engine type.
 */
import type { FieldDiff } from "../change/diff";
import { effectPhrases, orderedEffects, type EffectAction, type EffectsOf } from "../change/effects";
import type { CheckFailure } from "./checks";
import type { ProviderContext } from "./contract";
import { UNKNOWN, type Props } from "./props";
import { PULUMI_WORDS, type FaceWords } from "./words";

/** `onDelete` of every kind but numbers (numbers: `retain` | `release`). */
export const ON_DELETE = ["delete", "retain"] as const;
export type OnDelete = (typeof ON_DELETE)[number];

/** What a create records besides the kind's own outputs. */
export interface Origin {
  /** True when the create found the object and adopted it; false when it made it. */
  adopted: boolean;
  /** The account the object belongs to (absent when the key may not read `GET /v1/profile`). */
  accountId?: number;
}

/** The origin outputs of a create (the account read once per context). */
export async function originOf(ctx: ProviderContext, adopted: boolean): Promise<Origin> {
  const accountId = await ctx.account();
  return accountId === undefined ? { adopted } : { adopted, accountId };
}

/** The origin outputs of an import (`pulumi import`): adopted, and the key's account when it may read the profile. */
export function importedOrigin(ctx: ProviderContext): Promise<Origin> {
  return originOf(ctx, true);
}

/** The origin outputs a state already holds, carried by read and update unchanged. */
export function keptOrigin(stored: Props | undefined): Partial<Origin> {
  const out: Partial<Origin> = {};
  if (typeof stored?.adopted === "boolean") out.adopted = stored.adopted;
  if (typeof stored?.accountId === "number") out.accountId = stored.accountId;
  return out;
}

/** `onDelete` checked: one of {@link ON_DELETE}, or not given; named in the face's `words`. */
export function onDeleteFailures(news: Props, values: readonly string[] = ON_DELETE, words: FaceWords = PULUMI_WORDS): CheckFailure[] {
  const v = news.onDelete;
  if (v === undefined || v === UNKNOWN || (typeof v === "string" && values.includes(v))) return [];
  return [{ property: "onDelete", reason: `${words.prop("onDelete")} must be ${values.map((x) => JSON.stringify(x)).join(" or ")}, got ${JSON.stringify(v)}` }];
}

/** What a delete of the kind does to the object, for messages: `deleted`, `disabled`, `unlinked`. */
export type DeleteEffect = "deleted" | "disabled" | "unlinked";

const VERB: Record<DeleteEffect, string> = { deleted: "delete", disabled: "disable", unlinked: "unlink" };

/**
 * Whether a delete leaves the object as it is (then it has warned, once, saying why): the
 * resource says `onDelete: "retain"`; or it adopted the object (or its state does not say) and
 * does not say `onDelete: "delete"`. `what` names the object (`SubAccount "Acme Support" (id 2001)`).
 */
export function leavesOnDelete(ctx: ProviderContext, what: string, props: Props, effect: DeleteEffect): boolean {
  const onDelete = props.onDelete;
  if (onDelete === "delete") return false;
  const w = ctx.words;
  const optIn = `set ${w.setting("onDelete", "delete")} on the resource for a delete to ${VERB[effect]} it`;
  if (onDelete === "retain") {
    ctx.warn(`${what}: left as it is, not ${effect} (${w.setting("onDelete", "retain")})`);
    return true;
  }
  if (props.adopted === false) return false;
  if (props.adopted === true) {
    ctx.warn(`${what}: left as it is, not ${effect}: this ${w.holder} adopted it (it existed before the ${w.holder} took it on: found by its create, or imported); ${optIn}`);
    return true;
  }
  ctx.warn(`${what}: left as it is, not ${effect}: its state was written by a wavix-sync that did not record whether this ${w.holder} made it or adopted it; ${optIn}`);
  return true;
}

/** The error when the stack's key now belongs to another account than the object's. */
export class OtherAccountError extends Error {
  constructor(what: string, doing: string, recorded: number, now: number | undefined, words: FaceWords = PULUMI_WORDS) {
    const whose = now === undefined ? "an account it may not name (the key cannot read GET /v1/profile)" : `account ${now}`;
    const h = words.holder;
    super(
      `${what}: not ${doing}: it belongs to account ${recorded} (recorded when the ${h} took it on), but the ${h}'s API key (${words.config("apiKey")}) now belongs to ${whose}; nothing was written. ` +
        `Point the ${h} back at account ${recorded}'s key to act on it there, or ${words.forget} to forget it`,
    );
    this.name = "OtherAccountError";
  }
}

/**
 * Refuses (throws {@link OtherAccountError}) when the object's recorded account is not the one the
 * stack's key belongs to now. State that recorded no account (older state, or a key that may not
 * read the profile) is left to the kind's own identity checks.
 */
export async function checkAccount(ctx: ProviderContext, what: string, stored: Props | undefined, doing: "deleted" | "disabled" | "unlinked" | "released" | "read" | "updated"): Promise<void> {
  const recorded = stored?.accountId;
  if (typeof recorded !== "number") return;
  const now = await ctx.account();
  if (now !== recorded) throw new OtherAccountError(what, doing, recorded, now, ctx.words);
}

/** The words of {@link adoptionHint}: a face that knows no create follows (an import) leaves the warning out. */
export const ADOPTION_HINT = "the create will adopt it, not make it";

/**
 * Before a resource's first create (`olds` empty, every input known): says, as a warning, that the
 * create will adopt an existing object rather than make one (`find` names it, or gives undefined).
 * A hint only: a failed read says nothing (the create reads again and decides). `note` adds what
 * else the adoption means (a trunk's password is not sent).
 */
export async function adoptionHint(
  ctx: ProviderContext,
  olds: object,
  inputs: Props,
  what: string,
  effect: DeleteEffect,
  find: () => Promise<string | undefined>,
  note?: string,
): Promise<void> {
  if (Object.keys(olds).length > 0) return;
  let found: string | undefined;
  try {
    found = await find();
  } catch {
    return;
  }
  if (found === undefined) return;
  const optIn = ctx.words.setting("onDelete", "delete");
  const after = inputs.onDelete === "delete" ? `a delete will ${VERB[effect]} it (${optIn})` : `a destroy will leave it as it is (${optIn} to ${VERB[effect]} it)`;
  ctx.warn(`${what}: ${found} exists already: ${ADOPTION_HINT}${note ? `; ${note}` : ""}; ${after}`);
}


/**
 * In a diff: warns, naming the destructive effects of the change (src/kit/change/effects.ts), so the
 * preview says what an `~ update` or `+- replace` does. `kind` is the kind's name (`sub_account`).
 */
export function warnDestructive(ctx: ProviderContext, what: string, classify: EffectsOf, action: EffectAction, diff: readonly FieldDiff[]): void {
  const effects = effectPhrases(classify, action, diff);
  if (effects.length > 0) ctx.warn(`${what}: this ${action} ${effects.join("; ")}`);
  // Counted by the write gate: a preview past the deployment's limit fails here, before any write.
  ctx.forecast(what, orderedEffects(classify({ action, diff })));
}

/**
 * In a delete: true, after a warning, when a resource to be created in this deployment looks up the
 * same object (by one of `identities`, as its check recorded them: `ctx.recordToCreate`) — the old
 * half of a replacement deleted first — so the object is left for the replacement to find, and its
 * origin handed on (`leftInPlace`).
 */
export function handedToReplacement(ctx: ProviderContext, type: string, id: string, identities: readonly string[], what: string, not: "released" | "disabled" | "deleted", props: Props): boolean {
  if (!identities.some((k) => ctx.toCreate(type, k))) return false;
  ctx.warn(`${what}: not ${not}: its replacement in this deployment looks up the same Wavix object; only the old resource left the state`);
  leftInPlace(ctx, type, id, props);
  return true;
}

/**
 * After a delete that left its object in place: when the stack made it, says so to the context
 * (`recordLeftMade`), so that a replacement created next in this deployment keeps it as made.
 */
export function leftInPlace(ctx: ProviderContext, type: string, id: string, props: Props): void {
  if (props.adopted === false) ctx.recordLeftMade(type, id, props);
}

/**
 * `ctx.keptForReplacement`, and when the old resource was one the stack made, a second warning:
 * the engine creates a replacement (`up --replace`, `state taint`) without telling the provider what
 * it replaces (pulumi/pulumi pkg/resource/deploy/step_generator.go: no Diff, no old inputs for a
 * targeted replace), so a replacement created before the old half's delete found the object in
 * place and recorded it as adopted; from then on a delete leaves it unless the resource says
 * `onDelete: "delete"`. A kind replaced delete first (the SIP trunk) never gets here: its delete
 * goes first and `leftInPlace` tells the create.
 */
export function keptByReplacement(ctx: ProviderContext, type: string, id: string, what: string, not: "released" | "disabled" | "deleted", props: Props): boolean {
  if (!ctx.keptForReplacement(type, id, what, not)) return false;
  if (props.adopted === false && props.onDelete !== "delete" && props.onDelete !== "retain") {
    ctx.warn(`${what}: its replacement found it in place and records it as adopted: a later delete leaves it as it is unless the resource says ${ctx.words.setting("onDelete", "delete")}`);
  }
  return true;
}
