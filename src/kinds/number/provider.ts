/**
 * The number kind's provider (src/kit/provider/contract.ts; served as `PhoneNumber` by
 * src/pulumi/provider-impl.ts): identity is the digits, a number is never
 * released unless `onDelete: release`, a sub-account's number is managed with that key.
 */
import type { WavixClient } from "../../client";
import type { WavixNumber } from "../../client/types";
import { canonicalDestinations } from "./destinations";
import { notFoundToUndefined } from "../../client/not-found";
import type { DesiredNumber, NormalDestination, NumberPart, PhoneNumberOutputs, PhoneNumberState } from "./types";
import { NumberReader } from "./reader";
import { UNKNOWN, compact, has, hasUnknown, unknownsOf, withoutUnknowns, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import {
  NUMBER_FIELDS,
  changedNumberFields,
  currentSettings,
  findOwnedNumber,
  searchNumber,
  settingsOf,
  writeNumber,
  type NumberField,
  type NumberSettings,
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
function checkDigits(id: string, stored: unknown, n: WavixNumber): void {
  if (stored === undefined || stored === null || stored === UNKNOWN) return;
  if (digitsOf(n.number) !== digitsOf(stored)) throw identityMismatch("PhoneNumber", id, `number ${digitsOf(stored)}`, `number ${digitsOf(n.number)}`);
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
        failures.push({ property: "subAccountId", reason: "subAccountId must be a positive integer (a sub-account's ID)" });
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
    const current = await findOwnedNumber(client, inputs.number, subAccountId === undefined ? undefined : `sub-account ${subAccountId}`);
    ctx.recordTakenOver("PhoneNumber", current.id);
    const written = await writeNumber(client, phoneSettings(inputs as unknown as Props), current);
    numberReader(ctx, client).invalidate();
    return { id: String(written.id), outs: compact({ ...inputs, wavixId: written.id }) };
  },

  async read(ctx, id, props) {
    const p = (props ?? {}) as Props;
    const subAccountId = subAccountIdOf(p.subAccountId);
    const client = await ctx.clientFor(subAccountId);
    const n = await numberReader(ctx, client).read(Number(id));
    if (!n) return {}; // released (or moved away): no id tells the engine it is gone
    checkDigits(id, p.number, n);
    const state = phoneStateFromAccount(n, p);
    return { id, props: { ...state, wavixId: n.id }, inputs: state as PhoneNumberOutputs };
  },

  async update(ctx, id, olds, news) {
    const subAccountId = subAccountIdOf(news.subAccountId);
    const client = await ctx.clientFor(subAccountId);
    // Moved to another organisation: found again by its digits with that organisation's key.
    const moved = subAccountIdOf(olds.subAccountId) !== subAccountId;
    const current = moved
      ? await findOwnedNumber(client, news.number, subAccountId === undefined ? undefined : `sub-account ${subAccountId}`)
      : await client.getNumber(Number(id));
    if (!moved) checkDigits(id, olds.number, current);
    const written = await writeNumber(client, phoneSettings(news as unknown as Props), current);
    numberReader(ctx, client).invalidate();
    if (moved) numberReader(ctx, await ctx.clientFor(subAccountIdOf(olds.subAccountId))).invalidate();
    return { outs: compact({ ...news, wavixId: written.id }) };
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
    return { id: String(n.id), props: { ...checked.inputs, wavixId: n.id }, inputs: checked.inputs as PhoneNumberOutputs };
  },

  async delete(ctx, id, props) {
    // docs/CONTRACT.md part 4: a number is never released unless `onDelete: release`.
    if (props.onDelete !== "release") return;
    if (ctx.keptForReplacement("PhoneNumber", id, `PhoneNumber ${digitsOf(props.number)}`, "released")) return;
    const client = await ctx.clientFor(subAccountIdOf(props.subAccountId));
    const current = await notFoundToUndefined(client.getNumber(Number(id)));
    if (!current) return; // already released
    checkDigits(id, props.number, current);
    await notFoundToUndefined(client.releaseNumbers([Number(id)]));
    numberReader(ctx, client).invalidate();
  },
};
