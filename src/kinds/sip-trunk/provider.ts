/**
 * The SIP trunk kind's provider (src/kit/provider/contract.ts; served as `SipTrunk` by
 * src/pulumi/provider-impl.ts). The same rules as the CLI: identity the label (or a
 * pinned id), the password write-only (a secret input, sent on create and when it changes),
 * `accessToken` a secret output, and no delete while a number routes to the trunk.
 */
import type { SipTrunk as WireTrunk } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import type { DesiredSipTrunk, SipTrunkInputs, SipTrunkOutputs, SipTrunkPart } from "./types";
import { UNKNOWN, compact, has, hasUnknown, snakeToCamel, unknownsOf, withoutUnknowns, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider } from "../../kit/provider/contract";
import { listAllNumbers } from "../number/public";
import { TRUNK_SETTING_KEYS } from "./file";
import {
  AmbiguousTrunkError,
  createTrunk,
  currentValue,
  deleteTrunk,
  diffTrunk,
  listAllTrunks,
  matchTrunk,
  pinnedTrunkMissingMessage,
  updateTrunk,
  type TrunkSettings,
} from "./handler";
import { trunkOf } from "./export";

const camel = (k: string) => snakeToCamel(k);
const SETTING_ARGS = TRUNK_SETTING_KEYS.map(camel);
const KEYS: readonly string[] = ["label", "trunkId", "passwordEnv", "password", ...SETTING_ARGS];

/** The resource's arguments as a file entry (for the file's own checks); never the password. */
function toFile(news: Props): Props {
  const entry: Props = {};
  if (has(news, "label")) entry.label = news.label;
  if (has(news, "trunkId")) entry.id = news.trunkId;
  if (has(news, "passwordEnv")) entry.password_env = news.passwordEnv;
  for (const k of TRUNK_SETTING_KEYS) if (has(news, camel(k))) entry[k] = news[camel(k)];
  return entry;
}

function fromDesired(d: DesiredSipTrunk): Props {
  const out: Props = { label: d.label, trunkId: d.id, passwordEnv: d.password_env };
  for (const k of TRUNK_SETTING_KEYS) out[camel(k)] = d[k];
  return compact(out);
}

/** Inputs or outputs as the handler's settings. */
function settingsOf(p: Props, pinned: boolean): TrunkSettings {
  const s: TrunkSettings = { label: String(p.label) };
  if (pinned && typeof p.trunkId === "number") s.id = p.trunkId;
  for (const k of TRUNK_SETTING_KEYS) if (p[camel(k)] !== undefined && p[camel(k)] !== null) (s as unknown as Props)[k] = p[camel(k)];
  return s;
}

function outputsOf(inputs: Props, t: WireTrunk, pinned: boolean): SipTrunkOutputs {
  const state: Props = { ...inputs, trunkId: t.id, login: t.name, accessToken: t.access_token ?? null, pinned: pinned || undefined };
  return compact(state) as unknown as SipTrunkOutputs;
}

function checkIdentity(id: string, stored: Props, t: WireTrunk): void {
  if (stored.pinned !== true && typeof stored.label === "string" && stored.label !== t.label) {
    throw identityMismatch("SipTrunk", id, `"${stored.label}"`, `"${t.label}"`);
  }
}

const noPassword = (label: string) =>
  `SipTrunk "${label}": no password to create it with: set it with \`pulumi config set --secret --path 'wavix:trunkPasswords.${label}' <PASSWORD>\`, or set the environment variable its passwordEnv names`;

export const sipTrunkProvider: KindProvider<SipTrunkInputs, SipTrunkOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, KEYS);
    const known = withoutUnknowns(raw);
    if (!has(known, "label")) {
      if (!has(raw, "label")) failures.push({ property: "label", reason: "label is required (the trunk's identity)" });
      return { inputs: news, failures };
    }
    const result = ctx.checkEntry<SipTrunkPart>({ sip_trunks: [toFile(known)] }, "SipTrunk");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^sip_trunks\[0\]\.?/, (path) => (path === "id" ? "trunkId" : snakeToCamel(path)))));
      return { inputs: news, failures };
    }
    if (failures.length > 0) return { inputs: news, failures };
    const normal = fromDesired(result.state.sip_trunks![0]);
    if (has(raw, "password") && raw.password !== "") normal.password = raw.password;
    return { inputs: { ...normal, ...unknownsOf(raw) } as unknown as SipTrunkInputs, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const o = olds as unknown as Props;
    const raw = news as unknown as Props;
    const pinned = raw.trunkId !== undefined;
    const changed: string[] = [];
    const replaces: string[] = [];
    if (raw.label === UNKNOWN || o.label !== raw.label) (pinned ? changed : replaces).push("label");
    if (raw.trunkId !== undefined && raw.trunkId !== UNKNOWN && raw.trunkId !== o.trunkId) replaces.push("trunkId");
    for (const k of SETTING_ARGS) {
      if (hasUnknown(raw[k])) changed.push(k);
      else if (JSON.stringify(o[k] ?? null) !== JSON.stringify(raw[k] ?? null)) changed.push(k);
    }
    // Write-only: a new password value (the secret input changed) is a rotation; never compared with the account.
    if (raw.password !== undefined && (hasUnknown(raw.password) || raw.password !== o.password)) changed.push("password");
    return {
      changes: replaces.length > 0 || changed.length > 0,
      diffs: [...replaces, ...changed],
      replaces,
      stables: replaces.length === 0 ? ["trunkId", "login"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    const p = inputs as unknown as Props;
    const desired = settingsOf(p, p.trunkId !== undefined);
    let trunk: WireTrunk;
    if (desired.id !== undefined) {
      const found = await notFoundToUndefined(client.getTrunk(desired.id));
      if (!found) throw new Error(pinnedTrunkMissingMessage(desired));
      trunk = await updateTrunk(client, found, desired, { fresh: found, rotate: typeof p.password === "string", password: p.password as string | undefined });
    } else {
      // An existing trunk of this label is adopted, never duplicated.
      const hit = matchTrunk(desired, await listAllTrunks(client));
      if (hit) {
        const found = await client.getTrunk(hit.id);
        trunk = await updateTrunk(client, found, desired, { fresh: found, rotate: typeof p.password === "string", password: p.password as string | undefined });
      } else {
        if (typeof p.password !== "string" || p.password === "") throw new Error(noPassword(desired.label));
        trunk = (await createTrunk(client, desired, process.env, p.password)).trunk;
      }
    }
    ctx.recordTakenOver("SipTrunk", trunk.id);
    return { id: String(trunk.id), outs: outputsOf(p, trunk, desired.id !== undefined) };
  },

  async read(ctx, id, props) {
    const p = (props ?? {}) as Props;
    const t = await notFoundToUndefined(ctx.masterClient().getTrunk(Number(id)));
    if (!t) return {};
    checkIdentity(id, p, t);
    const state: Props = { label: t.label };
    for (const k of ["passwordEnv", "password"]) if (has(p, k)) state[k] = p[k];
    for (const k of TRUNK_SETTING_KEYS) if (has(p, camel(k))) state[camel(k)] = currentValue(t, k);
    const pinned = p.pinned === true;
    const inputs: Props = { ...state };
    if (pinned) inputs.trunkId = t.id;
    return { id, props: outputsOf(state, t, pinned), inputs: inputs as unknown as SipTrunkOutputs };
  },

  async update(ctx, id, olds, news) {
    const client = ctx.masterClient();
    const n = news as unknown as Props;
    const o = olds as unknown as Props;
    const desired = settingsOf(n, n.trunkId !== undefined);
    const fresh = await client.getTrunk(Number(id));
    checkIdentity(id, o, fresh);
    const rotate = typeof n.password === "string" && n.password !== o.password;
    let trunk = fresh;
    if (rotate || diffTrunk(desired, fresh).length > 0) trunk = await updateTrunk(client, fresh, desired, { fresh, rotate, password: n.password as string | undefined });
    return { outs: outputsOf(n, trunk, n.trunkId !== undefined) };
  },

  /**
   * Import id: the trunk's exact label (its identity), or `id:<Wavix id>` to pin one (the inputs
   * then pin `trunkId`). Every setting the API shows comes back as an input, as `wavix-sync export`
   * writes it; never the password (write-only: the program gives one only to rotate it).
   */
  async import(ctx, importId) {
    const client = ctx.masterClient();
    const pin = /^id:([1-9][0-9]{0,15})$/.exec(importId);
    let trunkId: number | undefined;
    if (pin) trunkId = Number(pin[1]);
    else {
      if (importId.trim() === "") throw new Error("a SipTrunk is imported by its exact label, or by id:<Wavix id>");
      try {
        trunkId = matchTrunk({ label: importId }, await listAllTrunks(client))?.id;
      } catch (err) {
        if (!(err instanceof AmbiguousTrunkError)) throw err;
        throw new Error(`SipTrunk "${importId}": ${err.message.replace(/: add `id:`.*$/, "")}: import one by id:<Wavix id>`);
      }
    }
    const t = trunkId === undefined ? undefined : await notFoundToUndefined(client.getTrunk(trunkId));
    if (!t) return {};
    const { password_env: _placeholder, ...entry } = trunkOf(t, pin !== null, 0);
    const checked = await sipTrunkProvider.check(ctx, {} as SipTrunkInputs, fromDesired(entry) as unknown as SipTrunkInputs);
    if (checked.failures.length > 0) throw new Error(`SipTrunk "${t.label}" cannot be imported: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    const inputs = checked.inputs as unknown as Props;
    return { id: String(t.id), props: outputsOf(inputs, t, pin !== null), inputs: inputs as unknown as SipTrunkOutputs };
  },

  async delete(ctx, id, props) {
    const p = props as unknown as Props;
    if (ctx.keptForReplacement("SipTrunk", id, `SipTrunk "${String(p.label)}"`, "deleted")) return;
    const client = ctx.masterClient();
    const t = await notFoundToUndefined(client.getTrunk(Number(id)));
    if (!t) return;
    checkIdentity(id, p, t);
    // Never while a number routes to it (the CLI's rule): say which, delete nothing.
    const routed = (await listAllNumbers(client)).filter((x) => (x.destination ?? []).some((d) => Number(d.transport) === 5 && d.trunk_id === t.id)).map((x) => x.number);
    if (routed.length > 0) {
      throw new Error(`SipTrunk "${t.label}" (id ${t.id}) is not deleted: number${routed.length === 1 ? "" : "s"} ${routed.slice(0, 10).join(", ")}${routed.length > 10 ? ` and ${routed.length - 10} more` : ""} route${routed.length === 1 ? "s" : ""} to it; route them elsewhere first`);
    }
    await deleteTrunk(client, t);
  },
};
