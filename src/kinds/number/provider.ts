/**
 * The number kind's provider (src/kit/provider/contract.ts; served as `PhoneNumber` by
 * src/pulumi/provider-impl.ts): identity is the digits, a number is never bought (every create
 * adopts: `adopted: true`) and never released unless `onDelete: release` (after checking the
 * account, the id and the digits), a sub-account's number is managed with that key, and a number
 * found under another owner is reported naming it.
 */
import { numberEffects } from "./effects";
import type { WavixClient } from "../../client";
import type { WavixNumber } from "../../client/types";
import { canonicalDestinations } from "./destinations";
import { transportName } from "../../kit/file/transport";
import { notFoundToUndefined } from "../../client/not-found";
import type { DesiredNumber, NormalDestination, NumberPart, PhoneNumberOutputs, PhoneNumberState } from "./types";
import { NumberReader } from "./reader";
import { UNKNOWN, compact, has, hasUnknown, unknownsOf, withoutUnknowns, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { FaceWords } from "../../kit/provider/words";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { checkAccount, warnDestructive } from "../../kit/provider/guards";
import { isNotFoundError } from "../../client";
import { findNumberOwners } from "./owners";
import { ownerLabel, type FoundOwner } from "./tenants";
import {
  NUMBER_FIELDS,
  changedNumberFields,
  currentSettings,
  numberNotOwnedMessage,
  findOwnedNumber,
  searchNumber,
  settingsOf,
  writeNumber,
  type NumberField,
  type NumberSettings,
  diffNumber,
} from "./handler";

const NUMBER_CAMEL: Readonly<Record<NumberField | "on_delete" | "number", keyof PhoneNumberState>> = {
  number: "number",
  sms_enabled: "smsEnabled",
  sms_relay_url: "smsRelayUrl",
  call_status_url: "callStatusUrl",
  call_recording_enabled: "callRecordingEnabled",
  transcription_enabled: "transcriptionEnabled",
  transcription_threshold: "transcriptionThreshold",
  destinations: "destinations",
  on_delete: "onDelete",
};
const PHONE_KEYS: readonly string[] = [...Object.values(NUMBER_CAMEL), "subAccountId"];

function destinationsToFile(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((d: unknown) => {
    if (d === null || typeof d !== "object") return d;
    const { trunkId, ...rest } = d as Props;
    return trunkId === undefined ? rest : { ...rest, trunk_id: trunkId };
  });
}

function normalDestinations(list: ReadonlyArray<Parameters<typeof canonicalDestinations>[0][number]>): NormalDestination[] {
  return canonicalDestinations(list).map((d) =>
    d.transport === 5 && d.trunk_id !== null
      ? { destination: d.destination, transport: d.transport, priority: d.priority, trunkId: d.trunk_id }
      : { destination: d.destination, transport: d.transport, priority: d.priority },
  );
}

/** The resolved args (camelCase) as the file's number entry (snake_case), keys present only. */
function phoneToFile(news: Props): Props {
  const entry: Props = {};
  for (const [snake, camel] of Object.entries(NUMBER_CAMEL)) {
    if (!has(news, camel)) continue;
    entry[snake] = camel === "destinations" ? destinationsToFile(news[camel]) : news[camel];
  }
  return entry;
}

/** Normalised state inputs from a checked DesiredNumber. */
function phoneFromDesired(d: DesiredNumber, subAccountId: number | undefined): PhoneNumberState {
  return compact<PhoneNumberState>({
    number: d.number,
    subAccountId,
    smsEnabled: d.sms_enabled,
    smsRelayUrl: d.sms_relay_url,
    callStatusUrl: d.call_status_url,
    callRecordingEnabled: d.call_recording_enabled,
    transcriptionEnabled: d.transcription_enabled,
    transcriptionThreshold: d.transcription_threshold,
    destinations: d.destinations === undefined ? undefined : normalDestinations(d.destinations),
    onDelete: d.on_delete,
  });
}

/** The managed settings of normalised state (undefined: not managed), in the resources' form. */
function phoneSettings(s: Props): NumberSettings {
  const desired = { number: String(s.number), path: "" } as DesiredNumber;
  const fileForm = phoneToFile(s);
  for (const f of NUMBER_FIELDS) {
    if (!has(fileForm, f)) continue;
    if (f === "destinations") {
      desired.destinations = canonicalDestinations(
        (fileForm.destinations as Array<Props>).map((d) => ({
          destination: String(d.destination),
          transport: d.transport as 1 | 4 | 5,
          priority: Number(d.priority),
          trunk_id: d.trunk_id === undefined || d.trunk_id === null ? null : Number(d.trunk_id),
        })),
      );
    } else (desired as unknown as Props)[f] = fileForm[f];
  }
  return settingsOf(desired);
}

/** The managed fields (those present in `managed`) as the account now holds them. */
function phoneStateFromAccount(n: WavixNumber, managed: Props): PhoneNumberState {
  const cur = currentSettings(n);
  const state: PhoneNumberState = { number: n.number };
  if (typeof managed.subAccountId === "number") state.subAccountId = managed.subAccountId;
  for (const f of NUMBER_FIELDS) {
    const camel = NUMBER_CAMEL[f];
    if (!has(managed, camel)) continue;
    if (f === "destinations") state.destinations = normalDestinations(cur.destinations);
    else (state as unknown as Props)[camel] = cur[f];
  }
  if (managed.onDelete === "retain" || managed.onDelete === "release") state.onDelete = managed.onDelete;
  return state;
}

/**
 * The context's page reader of `client`: reads of many numbers cost pages, not one GET each
 * (docs/CONTRACT.md part 8); one per client for as long as the configuration holds.
 */
function numberReader(ctx: ProviderContext, client: WavixClient): NumberReader {
  return ctx.perClient(client, "number-reader", (c) => new NumberReader(c));
}

const digitsOf = (v: unknown): string => String(v ?? "").replace(/^\+/, "");

/** Refuses a number whose stored id now names other digits (issue #19: a PATCH would land on an undeclared number). */
function checkDigits(words: FaceWords, id: string, stored: unknown, n: WavixNumber): void {
  if (stored === undefined || stored === null || stored === UNKNOWN) return;
  if (digitsOf(n.number) !== digitsOf(stored)) throw identityMismatch("PhoneNumber", id, `number ${digitsOf(stored)}`, `number ${digitsOf(n.number)}`, words);
}

/**
 * The number with these digits as the key of `subAccountId` (the master's when undefined) sees it.
 * When it does not, who does (the account itself, or which sub-account) is named with what to
 * write, as the CLI names it (src/kinds/number/owners.ts): never "buy it first" for a number the
 * account already has under another owner.
 */
async function findOwned(ctx: ProviderContext, digits: string, subAccountId: number | undefined): Promise<WavixNumber> {
  const client = await ctx.clientFor(subAccountId);
  const n = await searchNumber(client, digits);
  if (n) return n;
  throw new Error(await notOwnedMessage(ctx, digits, subAccountId));
}

async function notOwnedMessage(ctx: ProviderContext, digits: string, subAccountId: number | undefined): Promise<string> {
  const declared = subAccountId === undefined ? "the account itself" : `sub-account ${subAccountId}`;
  let owner: FoundOwner | undefined;
  try {
    owner = (await findNumberOwners(ctx.masterClient(), [digits], undefined, { master: subAccountId !== undefined })).get(digits);
  } catch {
    // A hint only: the plain message stands.
  }
  if (owner === undefined || (owner.kind === "sub_account" && owner.account.id === subAccountId)) {
    return `PhoneNumber ${digits}: ${numberNotOwnedMessage(digits, declared)}`;
  }
  const fix =
    owner.kind === "master"
      ? "remove subAccountId from the resource (in the file: its sub_account:)"
      : `set subAccountId: ${owner.account.id} on the resource (in the file: sub_account: ${JSON.stringify(owner.account.name)})`;
  return `PhoneNumber ${digits}: the number belongs to ${ownerLabel(owner)}, not to ${declared}: ${fix}; the API cannot move a number between the account and its sub-accounts`;
}

function subAccountIdOf(v: unknown): number | undefined {
  return typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined;
}

export const numberProvider: KindProvider<PhoneNumberState, PhoneNumberOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, PHONE_KEYS);
    if (has(raw, "subAccountId") && raw.subAccountId !== UNKNOWN && raw.subAccountId !== undefined) {
      const id = subAccountIdOf(raw.subAccountId);
      if (id === undefined || !Number.isInteger(id) || id <= 0) {
        failures.push({ property: "subAccountId", reason: `${ctx.words.prop("subAccountId")} must be a positive integer (a sub-account's ID)` });
      }
    }
    const known = withoutUnknowns(raw);
    if (!has(known, "number")) {
      if (has(raw, "number")) return { inputs: news, failures }; // not known yet (preview)
      failures.push({ property: "number", reason: "number is required (the digits of a number the account owns)" });
      return { inputs: news, failures };
    }
    const result = ctx.checkEntry<NumberPart>({ numbers: [phoneToFile(known)] }, "PhoneNumber");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^numbers\[0\]\.?/)));
      return { inputs: news, failures };
    }
    if (failures.length > 0) return { inputs: news, failures };
    // During preview some values are unknown: the known ones are normalised all the same (digits
    // without `+`, transport codes), so the diff against state compares like with like.
    const d = result.state.numbers![0];
    const normal = phoneFromDesired(d, subAccountIdOf(known.subAccountId)) as unknown as Props;
    return { inputs: { ...normal, ...unknownsOf(raw) } as unknown as PhoneNumberState, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const o = olds as unknown as Props;
    const n = news as unknown as Props;
    // Identity is the digits alone (docs/CONTRACT.md part 4). Another `subAccountId` is the same number
    // managed with another key: an update, never a replace, whose delete could release it.
    const replaces = n.number === UNKNOWN || String(o.number) !== String(n.number) ? ["number"] : [];
    const known = withoutUnknowns(n);
    const changed: string[] = changedNumberFields(phoneSettings(o), phoneSettings(known)).map((f) => NUMBER_CAMEL[f]);
    for (const k of Object.keys(n)) if (n[k] === UNKNOWN || (hasUnknown(n[k]) && !changed.includes(k))) changed.push(k);
    if (n.subAccountId !== UNKNOWN && (o.subAccountId ?? null) !== (n.subAccountId ?? null)) changed.push("subAccountId");
    if ((o.onDelete ?? "retain") !== (n.onDelete ?? "retain") || has(o, "onDelete") !== has(n, "onDelete")) changed.push("onDelete");
    const changes = replaces.length > 0 || changed.length > 0;
    // Every managed field the new inputs set and the change touches, in the file's names: the
    // kind's effects (numberEffects) name what it does — routing removed, narrowed or diverted, a
    // callback cleared, SMS turned off. A field the inputs drop is left as it is (not managed).
    // Destinations not known yet (a trunk being replaced: its login and id come from its create)
    // say nothing about what the update removes: no warning for them until they are known.
    const before = phoneSettings(o);
    const after = phoneSettings(known);
    const fields = changedNumberFields(before, after)
      .filter((f) => after[f] !== undefined)
      .filter((f) => f !== "destinations" || !hasUnknown(n.destinations))
      .map((f) => ({ path: f, before: before[f] ?? null, after: after[f] ?? null }));
    if (replaces.length === 0 && fields.length > 0) warnDestructive(ctx, `PhoneNumber ${digitsOf(o.number)}`, numberEffects, "update", fields);
    return {
      changes,
      diffs: [...replaces, ...changed],
      replaces,
      stables: replaces.length === 0 ? ["number", "wavixId"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(ctx, inputs) {
    const subAccountId = subAccountIdOf(inputs.subAccountId);
    const client = await ctx.clientFor(subAccountId);
    const current = await findOwned(ctx, inputs.number, subAccountId);
    ctx.recordTakenOver("PhoneNumber", current.id);
    const settings = phoneSettings(inputs as unknown as Props);
    const what = `PhoneNumber ${digitsOf(inputs.number)}`;
    const written = await writeNumber(ctx.writer(client, { what, effects: numberEffects({ action: "update", diff: diffNumber(settings, current) }) }), settings, current);
    numberReader(ctx, client).invalidate();
    return { id: String(written.id), outs: compact({ ...inputs, wavixId: written.id, adopted: true as const, ...(await releaseAccount(ctx, inputs)) }) };
  },

  async read(ctx, id, props) {
    const p = (props ?? {}) as Props;
    const subAccountId = subAccountIdOf(p.subAccountId);
    const client = await ctx.clientFor(subAccountId);
    await checkAccount(ctx, `PhoneNumber ${digitsOf(p.number)}`, p, "read");
    const n = await numberReader(ctx, client).read(Number(id));
    if (!n) return {}; // released (or moved away): no id tells the engine it is gone
    checkDigits(ctx.words, id, p.number, n);
    const state = phoneStateFromAccount(n, p);
    return { id, props: compact({ ...state, wavixId: n.id, adopted: p.adopted === true ? (true as const) : undefined, accountId: typeof p.accountId === "number" ? p.accountId : undefined }), inputs: state as PhoneNumberOutputs };
  },

  async update(ctx, id, olds, news) {
    const subAccountId = subAccountIdOf(news.subAccountId);
    const client = await ctx.clientFor(subAccountId);
    // Moved to another organisation: found again by its digits with that organisation's key.
    await checkAccount(ctx, `PhoneNumber ${digitsOf(olds.number)}`, olds as unknown as Props, "updated");
    const moved = subAccountIdOf(olds.subAccountId) !== subAccountId;
    const current = moved ? await findOwned(ctx, news.number, subAccountId) : await gotten(ctx, client, id, news.number, subAccountId);
    if (!moved) checkDigits(ctx.words, id, olds.number, current);
    const settings = phoneSettings(news as unknown as Props);
    const what = `PhoneNumber ${digitsOf(news.number)}`;
    const written = await writeNumber(ctx.writer(client, { what, effects: numberEffects({ action: "update", diff: diffNumber(settings, current) }), stored: recordedOnly(olds) }), settings, current);
    numberReader(ctx, client).invalidate();
    if (moved) numberReader(ctx, await ctx.clientFor(subAccountIdOf(olds.subAccountId))).invalidate();
    const recorded = typeof olds.accountId === "number" ? { accountId: olds.accountId } : await releaseAccount(ctx, news);
    return { outs: compact({ ...news, wavixId: written.id, adopted: true as const, ...recorded }) };
  },

  /**
   * Import id: the number's digits (`15551230001`; a leading + is dropped), or
   * `<subAccountId>/<digits>` for a tenant's number (read with that sub-account's key). Every setting
   * the API shows comes back as an input (an unset URL is left out: not managed).
   */
  async import(ctx, importId) {
    const m = /^(?:([1-9][0-9]{0,15})\/)?\+?([0-9]+)$/.exec(importId.trim());
    if (!m) throw new Error(`a PhoneNumber is imported by its digits (15551230001), or SUBACCOUNTID/DIGITS for a sub-account's number, not ${JSON.stringify(importId)}`);
    const subAccountId = m[1] === undefined ? undefined : Number(m[1]);
    const n = await searchNumber(await ctx.clientFor(subAccountId), m[2]);
    if (!n) return {};
    const cur: Props = { ...currentSettings(n) };
    for (const k of ["sms_relay_url", "call_status_url"]) if (cur[k] === null) delete cur[k];
    const given = phoneFromDesired({ number: n.number, path: "", ...cur } as DesiredNumber, subAccountId);
    const checked = await numberProvider.check(ctx, {} as PhoneNumberState, given);
    if (checked.failures.length > 0) throw new Error(`PhoneNumber ${n.number} cannot be imported: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    // The inputs are what `pulumi import` writes into the program it generates: a transport by its
    // name (`sip`, the schema's enum), as a person writes it, not its code; state keeps the code.
    const inputs = checked.inputs.destinations === undefined ? checked.inputs : { ...checked.inputs, destinations: checked.inputs.destinations.map((x) => ({ ...x, transport: transportName(x.transport) })) };
    return { id: String(n.id), props: { ...checked.inputs, wavixId: n.id }, inputs: inputs as unknown as PhoneNumberOutputs };
  },

  async delete(ctx, id, props) {
    // docs/CONTRACT.md part 4: a number is never released unless `onDelete: release`.
    if (props.onDelete !== "release") return;
    if (ctx.keptForReplacement("PhoneNumber", id, `PhoneNumber ${digitsOf(props.number)}`, "released")) return;
    await checkAccount(ctx, `PhoneNumber ${digitsOf(props.number)} (id ${id})`, props as unknown as Props, "released");
    const client = await ctx.clientFor(subAccountIdOf(props.subAccountId));
    const current = await notFoundToUndefined(client.getNumber(Number(id)));
    if (!current) return; // already released
    checkDigits(ctx.words, id, props.number, current);
    await notFoundToUndefined(ctx.writer(client, { what: `PhoneNumber ${digitsOf(props.number)} (id ${id})`, effects: ["release"], stored: recordedOnly(props) }).releaseNumbers([Number(id)]));
    numberReader(ctx, client).invalidate();
  },
};

/**
 * What the write gate compares a number's write with: the account its state recorded, when it
 * recorded one. A number whose state recorded none (numbers record it only when their delete
 * releases them) is confirmed otherwise: it was just read by its id with the key it is written
 * with, and its digits checked (`gotten`, `checkDigits`), so it is the key's account's number.
 */
function recordedOnly(stored: object): object | undefined {
  return typeof (stored as { accountId?: unknown }).accountId === "number" ? stored : undefined;
}

/** The account recorded for a number whose delete releases it (the only delete that writes). */
async function releaseAccount(ctx: ProviderContext, inputs: { onDelete?: string }): Promise<{ accountId?: number }> {
  if (inputs.onDelete !== "release") return {};
  const accountId = await ctx.account();
  return accountId === undefined ? {} : { accountId };
}

/** The number by its id; gone from this key's view (404): who has it now is named. */
async function gotten(ctx: ProviderContext, client: WavixClient, id: string, digits: string, subAccountId: number | undefined): Promise<WavixNumber> {
  try {
    return await client.getNumber(Number(id));
  } catch (err) {
    if (isNotFoundError(err)) throw new Error(await notOwnedMessage(ctx, digitsOf(digits), subAccountId));
    throw err;
  }
}
