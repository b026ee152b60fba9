/**
 * The SIP trunk kind's provider (src/kit/provider/contract.ts; served as `SipTrunk` by
 * src/pulumi/provider-impl.ts). The same rules as the CLI: identity the label (or a pinned id),
 * values compared as the API means them (src/kinds/sip-trunk/handler.ts `sameTrunkValue`: money as
 * decimals), `accessToken` a secret output. The password is write-only: sent when the create makes
 * the trunk, and with every PUT — the official PUT body (SIPTrunkCreateRequest) requires it, so an
 * ordinary edit sends the resource's secret `password` (no `passwordVersion` bump needed; a new
 * value or `passwordVersion` sends one even when no setting changes). A create that adopts an
 * existing trunk already showing the declared settings writes nothing, so its password is kept; one
 * that must PUT sends the configured password. A preview whose update would PUT without a password
 * fails, naming the trunk (nothing is written). A delete leaves an adopted trunk, and one numbers
 * still route to, as it is (src/kit/provider/guards.ts).
 */
import { sipTrunkEffects } from "./effects";
import type { SipTrunk as WireTrunk, SipTrunkSummary } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import type { DesiredSipTrunk, SipTrunkInputs, SipTrunkOutputs, SipTrunkPart } from "./types";
import { UNKNOWN, compact, has, hasUnknown, snakeToCamel, unknownsOf, withoutUnknowns, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures, type CheckFailure } from "../../kit/provider/checks";
import type { FaceWords } from "../../kit/provider/words";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { adoptionHint, keptByReplacement, handedToReplacement, checkAccount, keptOrigin, leavesOnDelete, leftInPlace, onDeleteFailures, originOf, warnDestructive } from "../../kit/provider/guards";
import { twinRemovedText } from "../../kit/twins";
import type { FieldDiff } from "../../kit/change/diff";
import { listAllNumbers } from "../number/public";
import { TRUNK_SETTING_KEYS, type TrunkSettingKey } from "./file";
import {
  AmbiguousTrunkError,
  createTrunk,
  currentValue,
  deleteTrunk,
  diffTrunk,
  listAllTrunks,
  matchTrunk,
  pinnedTrunkMissingMessage,
  sameTrunkValue,
  updateTrunk,
  type TrunkSettings,
} from "./handler";
import { trunkOf } from "./export";

const camel = (k: string) => snakeToCamel(k);
const SETTING_ARGS = TRUNK_SETTING_KEYS.map(camel);
/** Inputs state keeps that are not the trunk's settings. */
const EXTRA = ["passwordEnv", "password", "passwordVersion", "onDelete"] as const;
const KEYS: readonly string[] = ["label", "trunkId", ...EXTRA, ...SETTING_ARGS];

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

function checkIdentity(words: FaceWords, id: string, stored: Props, t: WireTrunk): void {
  if (stored.pinned !== true && typeof stored.label === "string" && stored.label !== t.label) {
    throw identityMismatch("SipTrunk", id, `"${stored.label}"`, `"${t.label}"`, words);
  }
}

const named = (p: { label?: unknown }): string => `SipTrunk ${JSON.stringify(String(p.label))}`;

const noPassword = (words: FaceWords, label: string, doing = "create it with") => `SipTrunk "${label}": no password to ${doing}: ${words.trunkPassword(label)}`;

/** The update's reason to need one: a PUT replaces the trunk and the API requires its password. */
const FOR_PUT = "update it with (PUT /v1/trunks/{id} replaces the trunk, and the API requires the password with it); nothing was written";

/** The resource's password, when it has one. */
const passwordOf = (p: Props): string | undefined => (typeof p.password === "string" && p.password !== "" ? p.password : undefined);

/** `passwordVersion`: any text or whole number; it asks for a password to send. */
function passwordVersionFailures(raw: Props, words: FaceWords): CheckFailure[] {
  const v = raw.passwordVersion;
  if (v === undefined || v === UNKNOWN) return [];
  if (!(typeof v === "string" && v !== "") && !(typeof v === "number" && Number.isSafeInteger(v))) {
    return [{ property: "passwordVersion", reason: `${words.prop("passwordVersion")} must be a non-empty string or a whole number, got ${JSON.stringify(v)}` }];
  }
  if (raw.password === undefined || raw.password === "") {
    return [{ property: "passwordVersion", reason: `${words.prop("passwordVersion")} asks for the password to be sent again, but no ${words.prop("password")} is given` }];
  }
  return [];
}

/** Two managed values equal as the API means them (`sameTrunkValue`), for values from state and inputs. */
function sameSetting(k: TrunkSettingKey, a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return sameTrunkValue(k, a, b);
}

/** Whether this update sends the password: a new value (rotation), or a new `passwordVersion`. */
function rotates(o: Props, n: Props): boolean {
  if (typeof n.password !== "string" || n.password === "") return false;
  return n.password !== o.password || (n.passwordVersion ?? null) !== (o.passwordVersion ?? null);
}

/** The account's trunks, listed once per context for the hints `check` gives before creates. */
function listedOnce(ctx: ProviderContext): Promise<SipTrunkSummary[]> {
  return ctx.perClient(ctx.masterClient(), "sip-trunks", (c) => listAllTrunks(c));
}


/**
 * The identity a trunk's create looks it up by, as one string: its pinned Wavix id, else its label.
 * Check records the one a create of this deployment will use (`recordToCreate`); the old half of a
 * replace asks whether either of its own is among them (`handedToReplacement`).
 */
const lookupById = (id: unknown): string => `id:${String(id)}`;
const lookupByLabel = (label: unknown): string => `label:${String(label)}`;

export const sipTrunkProvider: KindProvider<SipTrunkInputs, SipTrunkOutputs> = {
  async check(ctx, olds, news) {
    const raw = news as unknown as Props;
    const failures = [...unknownKeyFailures(raw, KEYS), ...onDeleteFailures(raw, undefined, ctx.words), ...passwordVersionFailures(raw, ctx.words)];
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
    for (const k of ["passwordVersion", "onDelete"]) if (has(known, k)) normal[k] = known[k];
    // A trunk to be created (no old state: a new one, or the replacement of a targeted replace) is
    // looked up by its pinned id, else its label: a delete-first replace leaves that trunk for it.
    if (Object.keys(olds).length === 0 && !hasUnknown(raw)) ctx.recordToCreate("SipTrunk", normal.trunkId !== undefined ? lookupById(normal.trunkId) : lookupByLabel(normal.label));
    if (!hasUnknown(raw)) {
      const d = settingsOf(normal, normal.trunkId !== undefined);
      const note = typeof normal.password === "string" ? `its password will not be sent (adopting never rotates a password; set ${ctx.words.prop("passwordVersion")} to send it)` : undefined;
      await adoptionHint(
        ctx,
        olds,
        normal,
        named(d),
        "deleted",
        async () => {
          const all = await listedOnce(ctx);
          const hit = d.id !== undefined ? all.find((t) => t.id === d.id) : matchTrunk(d, all);
          return hit ? `the trunk (id ${hit.id})` : undefined;
        },
        note,
      );
    }
    return { inputs: { ...normal, ...unknownsOf(raw) } as unknown as SipTrunkInputs, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const o = olds as unknown as Props;
    const raw = news as unknown as Props;
    const pinned = raw.trunkId !== undefined;
    const changed: string[] = [];
    const replaces: string[] = [];
    const fields: FieldDiff[] = [];
    if (raw.label === UNKNOWN || o.label !== raw.label) (pinned ? changed : replaces).push("label");
    if (raw.trunkId !== undefined && raw.trunkId !== UNKNOWN && raw.trunkId !== o.trunkId) replaces.push("trunkId");
    TRUNK_SETTING_KEYS.forEach((k, i) => {
      const arg = SETTING_ARGS[i];
      if (hasUnknown(raw[arg])) changed.push(arg);
      else if (!sameSetting(k, o[arg], raw[arg])) {
        changed.push(arg);
        fields.push({ path: k, before: o[arg] ?? null, after: raw[arg] ?? null });
      }
    });
    // Write-only: a new password value, or a new passwordVersion, is a rotation; never compared with the account.
    if (raw.password !== undefined && (hasUnknown(raw.password) || raw.password !== o.password)) changed.push("password");
    if (hasUnknown(raw.passwordVersion) || (raw.passwordVersion ?? null) !== (o.passwordVersion ?? null)) changed.push("passwordVersion");
    if (raw.onDelete === UNKNOWN || (raw.onDelete ?? null) !== (o.onDelete ?? null)) changed.push("onDelete");
    if (raw.passwordEnv !== UNKNOWN && (raw.passwordEnv ?? null) !== (o.passwordEnv ?? null)) changed.push("passwordEnv");
    if (replaces.length > 0) warnDestructive(ctx, named(o), sipTrunkEffects, "replace", []);
    else warnDestructive(ctx, named(o), sipTrunkEffects, "update", fields);
    // A setting changes: the update PUTs, and the PUT must carry a password. Without one the
    // preview fails here, before anything is written (a password not known yet, preview: not judged).
    if (replaces.length === 0 && fields.length > 0 && raw.password === undefined) throw new Error(noPassword(ctx.words, String(raw.label ?? o.label), FOR_PUT));
    return {
      changes: replaces.length > 0 || changed.length > 0,
      diffs: [...replaces, ...changed],
      replaces,
      stables: replaces.length === 0 ? ["trunkId", "login", "adopted", "accountId"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    const p = inputs as unknown as Props;
    const desired = settingsOf(p, p.trunkId !== undefined);
    const password = passwordOf(p);
    let trunk: WireTrunk;
    let adopted = true;
    // An existing trunk (a pinned id, else this label) is adopted, never duplicated. One that shows
    // the declared settings is not written, and keeps its password; one that differs is PUT, and a
    // PUT carries the password (the API requires it): the configured one.
    const found = desired.id !== undefined ? await notFoundToUndefined(client.getTrunk(desired.id)) : await adoptable(client, desired);
    if (desired.id !== undefined && !found) throw new Error(pinnedTrunkMissingMessage(desired));
    if (found) {
      // The replacement of a trunk the stack made, whose delete (first: delete-before-replace) left
      // it in place (src/kit/provider/session.ts recordLeftMade): made stays made, and a setting the
      // record does not show (the official SIPTrunkResponse requires few) is the one the stack
      // last wrote when the file still declares that value, not a reason to PUT the whole trunk.
      const handedOver = ctx.leftMadeInPlace("SipTrunk", found.id);
      const held = handedOver === undefined ? undefined : settingsOf(handedOver, false);
      const stillWritten = (d: FieldDiff) => held !== undefined && d.unreadable === true && sameSetting(d.path as TrunkSettingKey, held[d.path as TrunkSettingKey], desired[d.path as TrunkSettingKey]);
      const diff = diffTrunk(desired, found).filter((d) => !stillWritten(d));
      const puts = diff.length > 0;
      if (puts && password === undefined) throw new Error(noPassword(ctx.words, desired.label, FOR_PUT));
      trunk = held && !puts ? found : await updateTrunk(ctx.writer(client, { what: `${named(desired)} (id ${found.id})`, effects: sipTrunkEffects({ action: "update", diff }) }), found, desired, { fresh: found, rotate: false, password });
      if (held) {
        adopted = false;
        ctx.warn(`${named(desired)} (id ${found.id}): the replacement holds the trunk the ${ctx.words.holder} made, which the delete before it left in place; it stays one the ${ctx.words.holder} made (a later delete deletes it unless numbers route to it)`);
      } else if (password !== undefined && !puts) {
        ctx.warn(`${named(desired)} (id ${found.id}): adopted an existing trunk; its password was not sent (adopting never rotates a password): set ${ctx.words.prop("passwordVersion")} to send the configured one`);
      } else if (puts) {
        ctx.warn(`${named(desired)} (id ${found.id}): adopted an existing trunk whose settings differed; the PUT that made it as declared carried the configured password (the API requires it with every PUT)`);
      }
    } else {
      if (password === undefined) throw new Error(noPassword(ctx.words, desired.label));
      const made = await createTrunk(ctx.writer(client, { what: named(desired), effects: [] }), desired, { password });
      trunk = made.trunk;
      adopted = made.adopted;
      if (made.twin) ctx.warn(`${named(desired)}: ${twinRemovedText(made.twin, trunk.id)}`);
    }
    ctx.recordTakenOver("SipTrunk", trunk.id);
    return { id: String(trunk.id), outs: { ...outputsOf(p, trunk, desired.id !== undefined), ...(await originOf(ctx, adopted)) } };
  },

  async read(ctx, id, props) {
    const p = (props ?? {}) as Props;
    await checkAccount(ctx, named(p), p, "read");
    const t = await notFoundToUndefined(ctx.masterClient().getTrunk(Number(id)));
    if (!t) return {};
    checkIdentity(ctx.words, id, p, t);
    const state: Props = { label: t.label };
    for (const k of EXTRA) if (has(p, k)) state[k] = p[k];
    for (const k of TRUNK_SETTING_KEYS) {
      if (!has(p, camel(k))) continue;
      // The value as the state spells it when the account means the same ("0.25" for "0.2500"):
      // a refresh must not turn an equal value into a perpetual diff.
      const current = currentValue(t, k);
      state[camel(k)] = sameSetting(k, p[camel(k)], current) ? p[camel(k)] : current;
    }
    const pinned = p.pinned === true;
    const inputs: Props = { ...state };
    if (pinned) inputs.trunkId = t.id;
    return { id, props: { ...outputsOf(state, t, pinned), ...keptOrigin(p) }, inputs: inputs as unknown as SipTrunkOutputs };
  },

  async update(ctx, id, olds, news) {
    const client = ctx.masterClient();
    const n = news as unknown as Props;
    const o = olds as unknown as Props;
    await checkAccount(ctx, named(o), o, "updated");
    const desired = settingsOf(n, n.trunkId !== undefined);
    const fresh = await client.getTrunk(Number(id));
    checkIdentity(ctx.words, id, o, fresh);
    const rotate = rotates(o, n);
    let trunk = fresh;
    const diff = diffTrunk(desired, fresh);
    if (rotate || diff.length > 0) {
      // Every PUT carries the password (the official body requires it): the resource's secret one.
      const password = passwordOf(n);
      if (password === undefined) throw new Error(noPassword(ctx.words, desired.label, FOR_PUT));
      const gated = ctx.writer(client, { what: `${named(o)} (id ${id})`, effects: sipTrunkEffects({ action: "update", diff }), stored: o });
      trunk = await updateTrunk(gated, fresh, desired, { fresh, rotate, password });
    }
    return { outs: { ...outputsOf(n, trunk, n.trunkId !== undefined), ...keptOrigin(o) } };
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
    const what = `${named(p)} (id ${id})`;
    if (keptByReplacement(ctx, "SipTrunk", id, `SipTrunk "${String(p.label)}"`, "deleted", p)) return;
    if (handedToReplacement(ctx, "SipTrunk", id, [lookupById(id), lookupByLabel(p.label)], what, "deleted", p)) return;
    if (leavesOnDelete(ctx, what, p, "deleted")) return leftInPlace(ctx, "SipTrunk", id, p);
    await checkAccount(ctx, what, p, "deleted");
    const client = ctx.masterClient();
    const t = await notFoundToUndefined(client.getTrunk(Number(id)));
    if (!t) return;
    checkIdentity(ctx.words, id, p, t);
    // Never while a number routes to it (the CLI's rule) — but a delete never blocks a destroy
    // either: the numbers may have left the state long ago. The trunk is left as it is, saying which.
    const routed = (await listAllNumbers(client)).filter((x) => (x.destination ?? []).some((d) => Number(d.transport) === 5 && d.trunk_id === t.id)).map((x) => x.number);
    if (routed.length > 0) {
      const list = `${routed.slice(0, 10).join(", ")}${routed.length > 10 ? ` and ${routed.length - 10} more` : ""}`;
      ctx.warn(`${what}: left as it is, not deleted: number${routed.length === 1 ? "" : "s"} ${list} route${routed.length === 1 ? "s" : ""} to it; route them elsewhere, then delete the trunk`);
      return leftInPlace(ctx, "SipTrunk", id, p);
    }
    await deleteTrunk(ctx.writer(client, { what, effects: ["delete"], stored: p }), t);
  },
};

/** The trunk a create of `desired` (no pinned id) would adopt: the one of its label, read whole. */
async function adoptable(client: ReturnType<ProviderContext["masterClient"]>, desired: TrunkSettings): Promise<WireTrunk | undefined> {
  const hit = matchTrunk(desired, await listAllTrunks(client));
  return hit ? client.getTrunk(hit.id) : undefined;
}
