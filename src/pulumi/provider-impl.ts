/**
 * The real dynamic providers, loaded at run time inside the Pulumi dynamic-provider host by the
 * tiny shims of `shim.ts` (PRODUCT.md part 6: the serialized provider captures no key and no client).
 *
 * Thin adapters over `src/resources`: validation reuses the desired-state file's own checks
 * (`parseDesiredState`), diffs use the shared equality rules, writes go through the same handlers
 * as the CLI. Credentials come from `configure` (stack config `wavix:apiKey`, `wavix:baseUrl`) or
 * the environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`); the client is built lazily, once per host.
 */
import type * as pulumi from "@pulumi/pulumi";
import { WavixClient } from "../client";
import { warnEngine } from "./engine-log";
import type { CallWebhookEventType, SubAccount as WireSubAccount, WavixNumber } from "../client/types";
import { parseDesiredState, type LoadResult } from "../config";
import type { ConfigProblem, DesiredNumber, DesiredSubAccount } from "../config/types";
import { canonicalDestinations } from "../resources/diff";
import {
  NUMBER_FIELDS,
  changedNumberFields,
  currentSettings,
  findOwnedNumber,
  settingsOf,
  writeNumber,
  type NumberField,
  type NumberSettings,
} from "../kinds/number/handler";
import {
  diffSubAccount,
  disableSubAccount,
  endpointOrNull,
  ensureSubAccount,
  updateSubAccount,
  type SubAccountSettings,
} from "../kinds/sub-account/handler";
import { EVENT_TYPES, deleteWebhook, listWebhooks, upsertWebhook } from "../kinds/call-webhook/handler";
import { NumberReader } from "../kinds/number/reader";
import { notFoundToUndefined } from "../resources/not-found";
import type {
  CallWebhookInputs,
  CallWebhookOutputs,
  NormalDestination,
  PhoneNumberOutputs,
  PhoneNumberState,
  SubAccountInputs,
  SubAccountOutputs,
} from "./types";

/** What the engine sends for a value not known during preview (`@pulumi/pulumi` runtime/rpc). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

type Props = Record<string, unknown>;

// ---- credentials and the client ----------------------------------------------------------------

interface Credentials {
  apiKey?: string;
  baseUrl?: string;
}

let credentials: Credentials = {};
let master: WavixClient | undefined;
/** Per host process: clients holding sub-account keys (memory only, never state). */
let subClients = new Map<number, WavixClient>();
/** Per client: reads of many numbers cost pages, not one GET each (PRODUCT.md part 8). */
let readers = new WeakMap<WavixClient, NumberReader>();

/**
 * Stores the credentials of the stack config, synchronously (the frozen loader of `shim.ts` does
 * not wait). The engine sends the whole stack config with full keys (`wavix:apiKey`); some engines
 * nest provider config as `wavix:config:apiKey`, so both are read. Empty values count as unset, so
 * the environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`) applies.
 */
export function applyConfig(req: pulumi.dynamic.ConfigureRequest): void {
  const get = (k: string): string | undefined => {
    const v = req.config.get(`wavix:${k}`) ?? req.config.get(`wavix:config:${k}`);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  };
  const next: Credentials = { apiKey: get("apiKey"), baseUrl: get("baseUrl") };
  if (next.apiKey !== credentials.apiKey || next.baseUrl !== credentials.baseUrl) {
    credentials = next;
    master = undefined;
    subClients = new Map();
    readers = new WeakMap();
  }
}

/** The provider's `configure` (state written before the version-1 loader calls it directly). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  applyConfig(req);
}

/** Under Pulumi, stack config is the documented place for the key (PRODUCT.md part 6). */
export const MISSING_KEY_HINT = "set it with `pulumi config set --secret wavix:apiKey <KEY>` (or WAVIX_API_KEY)";

/** The master account's client, built on first use (WavixClient falls back to the environment). */
function masterClient(): WavixClient {
  master ??= new WavixClient({
    apiKey: credentials.apiKey,
    baseUrl: credentials.baseUrl,
    missingApiKeyHint: MISSING_KEY_HINT,
    onWarning: warnEngine,
  });
  return master;
}

/**
 * A number that belongs to a sub-account is managed with that sub-account's own key (seed 5.11),
 * fetched with the master key at run time and never stored.
 */
async function clientFor(subAccountId: number | undefined): Promise<WavixClient> {
  const m = masterClient();
  if (subAccountId === undefined) return m;
  const known = subClients.get(subAccountId);
  if (known) return known;
  const sub = await m.getSubAccount(subAccountId);
  const client = m.withApiKey(sub.api_key);
  subClients.set(subAccountId, client);
  return client;
}

function readerFor(client: WavixClient): NumberReader {
  let r = readers.get(client);
  if (!r) readers.set(client, (r = new NumberReader(client)));
  return r;
}

// ---- small generic helpers -------------------------------------------------------------------

/** Drops keys whose value is undefined: the host's Struct conversion refuses undefined. */
function compact<T extends object>(o: T): T {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** Removes values not known yet (preview), so the known rest can still be validated. */
function withoutUnknowns(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (!hasUnknown(v)) out[k] = v;
  return out;
}

/** The values not known yet (preview), kept as the engine sent them. */
function unknownsOf(o: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (hasUnknown(v)) out[k] = v;
  return out;
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function snakeToCamel(s: string): string {
  return s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * A problem of the file's checks as a Pulumi check failure: the path inside the one entry,
 * with the file's snake_case names in their camelCase argument spelling.
 */
function failureOf(p: ConfigProblem, entryPrefix: RegExp, rename: (path: string) => string = snakeToCamel): pulumi.dynamic.CheckFailure {
  const path = p.path.replace(entryPrefix, "");
  const reason = p.message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, snakeToCamel);
  return { property: rename(path), reason };
}

function unknownKeyFailures(news: Props, allowed: readonly string[]): pulumi.dynamic.CheckFailure[] {
  return Object.keys(news)
    .filter((k) => k !== "__provider" && !allowed.includes(k))
    .map((k) => ({ property: k, reason: `unknown property ${JSON.stringify(k)} (expected one of ${allowed.join(", ")})` }));
}

/** Runs one entry through the desired-state file's own checks (PRODUCT.md part 3). */
function validateEntry(doc: Props, label: string): LoadResult {
  // JSON is YAML: the same parser, schema and semantic checks as the file, one rule set.
  return parseDesiredState(JSON.stringify({ version: 1, ...doc }), label);
}

// ---- PhoneNumber ------------------------------------------------------------------------------

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

function subAccountIdOf(v: unknown): number | undefined {
  return typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined;
}

export const PhoneNumber: pulumi.dynamic.ResourceProvider<PhoneNumberState, PhoneNumberOutputs> = {
  configure,

  async check(_olds, news) {
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
    const result = validateEntry({ numbers: [phoneToFile(known)] }, "PhoneNumber");
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

  async diff(_id, olds, news) {
    const o = olds as unknown as Props;
    const n = news as unknown as Props;
    // Identity is the digits alone (PRODUCT.md part 4). Another `subAccountId` is the same number
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
      replaces,
      stables: replaces.length === 0 ? ["number", "wavixId"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(inputs) {
    const subAccountId = subAccountIdOf(inputs.subAccountId);
    const client = await clientFor(subAccountId);
    const current = await findOwnedNumber(client, inputs.number, subAccountId === undefined ? undefined : `sub-account ${subAccountId}`);
    const written = await writeNumber(client, phoneSettings(inputs as unknown as Props), current);
    readerFor(client).invalidate();
    return { id: String(written.id), outs: compact({ ...inputs, wavixId: written.id }) };
  },

  async read(id, props) {
    const p = (props ?? {}) as Props;
    const subAccountId = subAccountIdOf(p.subAccountId);
    const client = await clientFor(subAccountId);
    const n = await readerFor(client).read(Number(id));
    if (!n) return {}; // released (or moved away): no id tells the engine it is gone
    const state = phoneStateFromAccount(n, p);
    return { id, props: { ...state, wavixId: n.id }, inputs: state as PhoneNumberOutputs };
  },

  async update(id, olds, news) {
    const subAccountId = subAccountIdOf(news.subAccountId);
    const client = await clientFor(subAccountId);
    // Moved to another organisation: found again by its digits with that organisation's key.
    const moved = subAccountIdOf(olds.subAccountId) !== subAccountId;
    const current = moved
      ? await findOwnedNumber(client, news.number, subAccountId === undefined ? undefined : `sub-account ${subAccountId}`)
      : await client.getNumber(Number(id));
    const written = await writeNumber(client, phoneSettings(news as unknown as Props), current);
    readerFor(client).invalidate();
    if (moved) readerFor(await clientFor(subAccountIdOf(olds.subAccountId))).invalidate();
    return { outs: compact({ ...news, wavixId: written.id }) };
  },

  async delete(id, props) {
    // PRODUCT.md part 4: a number is never released unless `onDelete: release`.
    if (props.onDelete !== "release") return;
    const client = await clientFor(subAccountIdOf(props.subAccountId));
    await notFoundToUndefined(client.releaseNumbers([Number(id)]));
    readerFor(client).invalidate();
  },
};

// ---- SubAccount -------------------------------------------------------------------------------

const SUB_ACCOUNT_KEYS: readonly string[] = ["name", "subAccountId", "status", "defaultDestinations"];

function subAccountToFile(news: Props): Props {
  const entry: Props = {};
  for (const k of ["name", "status"]) if (has(news, k)) entry[k] = news[k];
  if (has(news, "subAccountId")) entry.id = news.subAccountId;
  const dd = news.defaultDestinations;
  if (dd !== undefined) {
    if (dd !== null && typeof dd === "object") {
      const d = dd as Props;
      const out: Props = {};
      if (has(d, "smsEndpoint")) out.sms_endpoint = d.smsEndpoint;
      if (has(d, "dlrEndpoint")) out.dlr_endpoint = d.dlrEndpoint;
      for (const k of Object.keys(d)) if (k !== "smsEndpoint" && k !== "dlrEndpoint") out[k] = d[k];
      entry.default_destinations = out;
    } else entry.default_destinations = dd;
  }
  return entry;
}

function subAccountFromDesired(d: DesiredSubAccount): SubAccountInputs {
  const dd = d.default_destinations;
  return compact<SubAccountInputs>({
    name: d.name,
    subAccountId: d.id,
    status: d.status,
    defaultDestinations:
      dd === undefined ? undefined : compact({ smsEndpoint: dd.sms_endpoint, dlrEndpoint: dd.dlr_endpoint }),
  });
}

/** Normalised state as the resources' settings (a null endpoint, read back as unset, is not desired). */
function subAccountSettings(s: Props): SubAccountSettings {
  const out: SubAccountSettings = { name: String(s.name) };
  if (typeof s.subAccountId === "number") out.id = s.subAccountId;
  if (s.status === "enabled" || s.status === "disabled") out.status = s.status;
  const dd = (s.defaultDestinations ?? {}) as Props;
  if (typeof dd.smsEndpoint === "string") out.sms_endpoint = dd.smsEndpoint;
  if (typeof dd.dlrEndpoint === "string") out.dlr_endpoint = dd.dlrEndpoint;
  return out;
}

/**
 * Outputs always hold `subAccountId`; `pinned: true` records that the inputs pinned it, so a
 * refresh (`read` sees outputs only) gives the pin back in the inputs it returns.
 */
function subAccountOutputs(state: Omit<SubAccountOutputs, "subAccountId" | "apiKey" | "masterOrganization">, acc: WireSubAccount, pinned: boolean): SubAccountOutputs {
  return compact({ ...state, subAccountId: acc.id, apiKey: acc.api_key, masterOrganization: acc.master_organization, pinned: pinned || undefined });
}

/** The file's names of a sub-account entry as the resource's arguments (`id` is `subAccountId` here). */
function subAccountProperty(path: string): string {
  return path === "id" ? "subAccountId" : path.startsWith("id.") ? `subAccountId${path.slice(2)}` : snakeToCamel(path);
}

export const SubAccount: pulumi.dynamic.ResourceProvider<SubAccountInputs, SubAccountOutputs> = {
  configure,

  async check(_olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, SUB_ACCOUNT_KEYS);
    const known = withoutUnknowns(raw);
    if (!has(known, "name")) {
      if (!has(raw, "name")) failures.push({ property: "name", reason: "name is required (the sub-account's identity)" });
      return { inputs: news, failures };
    }
    const result = validateEntry({ sub_accounts: [subAccountToFile(known)] }, "SubAccount");
    if (!result.ok) {
      failures.push(
        ...result.problems.map((p) => {
          const f = failureOf(p, /^sub_accounts\[0\]\.?/, subAccountProperty);
          return { property: f.property, reason: f.reason.replace(/^id\b/, "subAccountId") };
        }),
      );
      return { inputs: news, failures };
    }
    if (failures.length > 0) return { inputs: news, failures };
    // Unknown values (preview) stay as sent; the known rest is normalised as in a real run.
    const normal = subAccountFromDesired(result.state.sub_accounts![0]) as unknown as Props;
    return { inputs: { ...normal, ...unknownsOf(raw) } as unknown as SubAccountInputs, failures: [] };
  },

  async diff(_id, olds, news) {
    const raw = news as unknown as Props;
    const o = subAccountSettings(olds as unknown as Props);
    const n = subAccountSettings(withoutUnknowns(raw));
    const pinned = raw.subAccountId !== undefined;
    const changed: string[] = [];
    const replaces: string[] = [];
    // Identity: the exact name, unless an id pins the sub-account (then a new name is a rename).
    if (raw.name === UNKNOWN || o.name !== n.name) (pinned ? changed : replaces).push("name");
    // A known pin (news) that differs from the sub-account held (olds, always known) is another
    // one; a pin not known yet (preview) is shown as an update.
    if (raw.subAccountId === UNKNOWN) changed.push("subAccountId");
    else if (n.id !== undefined && o.id !== n.id) replaces.push("subAccountId");
    if (raw.status === UNKNOWN || o.status !== n.status) changed.push("status");
    if (hasUnknown(raw.defaultDestinations)) changed.push("defaultDestinations");
    else {
      if (o.sms_endpoint !== n.sms_endpoint) changed.push("defaultDestinations.smsEndpoint");
      if (o.dlr_endpoint !== n.dlr_endpoint) changed.push("defaultDestinations.dlrEndpoint");
    }
    return {
      changes: replaces.length > 0 || changed.length > 0,
      replaces,
      stables: replaces.length === 0 ? ["subAccountId", "masterOrganization"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(inputs) {
    const client = masterClient();
    const account = await ensureSubAccount(client, subAccountSettings(inputs as unknown as Props));
    return { id: String(account.id), outs: subAccountOutputs(inputs, account, inputs.subAccountId !== undefined) };
  },

  async read(id, props) {
    const p = (props ?? {}) as Props;
    const acc = await notFoundToUndefined(masterClient().getSubAccount(Number(id)));
    if (!acc) return {};
    const state: Omit<SubAccountOutputs, "subAccountId" | "apiKey" | "masterOrganization"> = { name: acc.name };
    if (has(p, "status")) state.status = acc.status;
    const dd = (p.defaultDestinations ?? undefined) as Props | undefined;
    if (dd && typeof dd === "object") {
      const cur = acc.default_destinations ?? {};
      const out: { smsEndpoint?: string | null; dlrEndpoint?: string | null } = {};
      if (has(dd, "smsEndpoint")) out.smsEndpoint = endpointOrNull(cur.sms_endpoint);
      if (has(dd, "dlrEndpoint")) out.dlrEndpoint = endpointOrNull(cur.dlr_endpoint);
      state.defaultDestinations = out;
    }
    const pinned = p.pinned === true;
    const outs = subAccountOutputs(state, acc, pinned);
    const inputs: Props = { ...state };
    if (pinned) inputs.subAccountId = acc.id;
    return { id, props: outs, inputs: inputs as unknown as SubAccountOutputs };
  },

  async update(id, _olds, news) {
    const client = masterClient();
    const desired = subAccountSettings(news as unknown as Props);
    // This read is the fresh read the PUT is merged onto (updateSubAccount does not read it again).
    let account = await client.getSubAccount(Number(id));
    // Includes a rename of a pinned sub-account (diffSubAccount compares the name when an id pins it).
    if (diffSubAccount(desired, account).length > 0) account = await updateSubAccount(client, account, desired, { currentIsFresh: true });
    return { outs: subAccountOutputs(news, account, news.subAccountId !== undefined) };
  },

  async delete(id) {
    // The API has no delete: deleting a sub-account disables it (PRODUCT.md part 4).
    const client = masterClient();
    const acc = await notFoundToUndefined(client.getSubAccount(Number(id)));
    if (acc) await disableSubAccount(client, acc, { currentIsFresh: true });
  },
};

// ---- CallWebhook ------------------------------------------------------------------------------

function isEventType(v: unknown): v is CallWebhookEventType {
  return typeof v === "string" && (EVENT_TYPES as readonly string[]).includes(v);
}

export const CallWebhook: pulumi.dynamic.ResourceProvider<CallWebhookInputs, CallWebhookOutputs> = {
  configure,

  async check(_olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, ["eventType", "url"]);
    if (raw.eventType !== UNKNOWN && !isEventType(raw.eventType)) {
      failures.push({ property: "eventType", reason: `eventType must be ${EVENT_TYPES.join(" or ")}, got ${JSON.stringify(raw.eventType ?? null)}` });
    }
    if (raw.url !== UNKNOWN) {
      if (raw.url === undefined || raw.url === null) failures.push({ property: "url", reason: "url is required" });
      else {
        const result = validateEntry({ call_webhooks: { "on-call": raw.url } }, "CallWebhook");
        if (!result.ok) failures.push(...result.problems.map((p) => failureOf(p, /^call_webhooks\.on-call/, () => "url")));
      }
    }
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    return { inputs: { eventType: news.eventType, url: news.url }, failures: [] };
  },

  async diff(_id, olds, news) {
    const replaces = olds.eventType !== news.eventType ? ["eventType"] : [];
    const changed = olds.url !== news.url;
    return { changes: replaces.length > 0 || changed, replaces, stables: replaces.length === 0 ? ["eventType"] : [], deleteBeforeReplace: false };
  },

  async create(inputs) {
    await upsertWebhook(masterClient(), inputs.eventType, inputs.url);
    return { id: inputs.eventType, outs: { eventType: inputs.eventType, url: inputs.url } };
  },

  async read(id) {
    if (!isEventType(id)) return {};
    const url = (await listWebhooks(masterClient())).get(id);
    if (url === undefined) return {};
    const state = { eventType: id, url };
    return { id, props: state, inputs: state };
  },

  async update(_id, _olds, news) {
    await upsertWebhook(masterClient(), news.eventType, news.url);
    return { outs: { eventType: news.eventType, url: news.url } };
  },

  async delete(id) {
    if (!isEventType(id)) return;
    await notFoundToUndefined(deleteWebhook(masterClient(), id));
  },
};
