/**
 * The sub-account kind's provider (src/kit/provider/contract.ts; served as `SubAccount` by
 * src/pulumi/provider-impl.ts): deleting one disables it (the API has no delete).
 */
import { twinRemovedText } from "../../kit/twins";
import { subAccountEffects } from "./effects";
import type { SubAccount as WireSubAccount } from "../../client/types";
import { notFoundToUndefined } from "../../client/not-found";
import type { DesiredSubAccount, SubAccountInputs, SubAccountOutputs, SubAccountPart } from "./types";
import { UNKNOWN, compact, has, hasUnknown, snakeToCamel, unknownsOf, withoutUnknowns, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { FaceWords } from "../../kit/provider/words";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { adoptionHint, keptByReplacement, checkAccount, keptOrigin, leavesOnDelete, onDeleteFailures, originOf, warnDestructive } from "../../kit/provider/guards";
import {
  AmbiguousSubAccountError,
  diffSubAccount,
  disableSubAccount,
  endpointOrNull,
  ensureSubAccount,
  listAllSubAccounts,
  matchSubAccount,
  updateSubAccount,
  type SubAccountSettings,
} from "./handler";
import { subAccountsOf } from "./export";

const SUB_ACCOUNT_KEYS: readonly string[] = ["name", "subAccountId", "status", "defaultDestinations", "onDelete"];

/** The account's sub-accounts, listed once per context for the hints `check` gives before creates. */
function listedOnce(ctx: ProviderContext): Promise<WireSubAccount[]> {
  return ctx.perClient(ctx.masterClient(), "sub-accounts", (c) => listAllSubAccounts(c));
}

const named = (s: { name?: unknown }): string => `SubAccount ${JSON.stringify(String(s.name))}`;

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

/** The inputs state keeps besides the settings: `onDelete`, when given. */
const onDeleteOf = (p: Props): Pick<SubAccountInputs, "onDelete"> => (p.onDelete === "delete" || p.onDelete === "retain" ? { onDelete: p.onDelete } : {});

/** The file's names of a sub-account entry as the resource's arguments (`id` is `subAccountId` here). */
function subAccountProperty(path: string): string {
  return path === "id" ? "subAccountId" : path.startsWith("id.") ? `subAccountId${path.slice(2)}` : snakeToCamel(path);
}

/**
 * Refuses a sub-account whose stored id now names another one (issue #19): another master account
 * (the stack points at another account), or — unless an id pins it, when a new name is a rename —
 * another name.
 */
function checkIdentity(words: FaceWords, id: string, stored: Props, acc: WireSubAccount): void {
  const org = stored.masterOrganization;
  if (typeof org === "number" && typeof acc.master_organization === "number" && org !== acc.master_organization) {
    throw identityMismatch("SubAccount", id, `a sub-account of master account ${org}`, `a sub-account of master account ${acc.master_organization}`, words);
  }
  const pinned = stored.pinned === true;
  if (!pinned && typeof stored.name === "string" && stored.name !== acc.name) {
    throw identityMismatch("SubAccount", id, `"${stored.name}"`, `"${acc.name}"`, words);
  }
}

export const subAccountProvider: KindProvider<SubAccountInputs, SubAccountOutputs> = {
  async check(ctx, olds, news) {
    const raw = news as unknown as Props;
    const failures = [...unknownKeyFailures(raw, SUB_ACCOUNT_KEYS), ...onDeleteFailures(raw, undefined, ctx.words)];
    const known = withoutUnknowns(raw);
    if (!has(known, "name")) {
      if (!has(raw, "name")) failures.push({ property: "name", reason: "name is required (the sub-account's identity)" });
      return { inputs: news, failures };
    }
    const { onDelete: _onDelete, ...settings } = known;
    const result = ctx.checkEntry<SubAccountPart>({ sub_accounts: [subAccountToFile(settings)] }, "SubAccount");
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
    const normal = { ...subAccountFromDesired(result.state.sub_accounts![0]), ...onDeleteOf(known) } as unknown as Props;
    if (!hasUnknown(raw)) {
      const d = subAccountSettings(normal);
      await adoptionHint(ctx, olds, normal, named(d), "disabled", async () => {
        const hit = d.id !== undefined ? (await listedOnce(ctx)).find((s) => s.id === d.id) : matchSubAccount(d, await listedOnce(ctx));
        return hit ? `the sub-account (id ${hit.id})` : undefined;
      });
    }
    return { inputs: { ...normal, ...unknownsOf(raw) } as unknown as SubAccountInputs, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
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
    if (raw.onDelete === UNKNOWN || ((olds as unknown as Props).onDelete ?? null) !== (raw.onDelete ?? null)) changed.push("onDelete");
    if (replaces.length > 0) warnDestructive(ctx, named(o), subAccountEffects, "replace", []);
    else if (changed.includes("status")) warnDestructive(ctx, named(o), subAccountEffects, "update", [{ path: "status", before: o.status ?? null, after: n.status ?? null }]);
    return {
      changes: replaces.length > 0 || changed.length > 0,
      diffs: [...replaces, ...changed],
      replaces,
      stables: replaces.length === 0 ? ["subAccountId", "masterOrganization"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    const { account, adopted, twin } = await ensureSubAccount(ctx.writer(client, { what: named(inputs), effects: [] }), subAccountSettings(inputs as unknown as Props));
    if (twin) ctx.warn(`${named(inputs)}: ${twinRemovedText(twin, account.id)}`);
    ctx.recordTakenOver("SubAccount", account.id);
    return { id: String(account.id), outs: { ...subAccountOutputs(inputs, account, inputs.subAccountId !== undefined), ...(await originOf(ctx, adopted)) } };
  },

  async read(ctx, id, props) {
    const p = (props ?? {}) as Props;
    await checkAccount(ctx, named(p), p, "read");
    const acc = await notFoundToUndefined(ctx.masterClient().getSubAccount(Number(id)));
    if (!acc) return {};
    checkIdentity(ctx.words, id, p, acc);
    const state: Omit<SubAccountOutputs, "subAccountId" | "apiKey" | "masterOrganization"> = { name: acc.name, ...onDeleteOf(p) };
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
    const outs = { ...subAccountOutputs(state, acc, pinned), ...keptOrigin(p) };
    const inputs: Props = { ...state };
    if (pinned) inputs.subAccountId = acc.id;
    return { id, props: outs, inputs: inputs as unknown as SubAccountOutputs };
  },

  async update(ctx, id, olds, news) {
    const client = ctx.masterClient();
    const desired = subAccountSettings(news as unknown as Props);
    // This read is the fresh read the PUT is merged onto (updateSubAccount does not read it again).
    await checkAccount(ctx, named(olds), olds as unknown as Props, "updated");
    let account = await client.getSubAccount(Number(id));
    checkIdentity(ctx.words, id, olds as unknown as Props, account);
    // Includes a rename of a pinned sub-account (diffSubAccount compares the name when an id pins it).
    const diff = diffSubAccount(desired, account);
    if (diff.length > 0) {
      const gated = ctx.writer(client, { what: `${named(olds)} (id ${id})`, effects: subAccountEffects({ action: "update", diff }), stored: olds });
      account = await updateSubAccount(gated, account, desired, { currentIsFresh: true });
    }
    return { outs: { ...subAccountOutputs(news, account, news.subAccountId !== undefined), ...keptOrigin(olds as unknown as Props) } };
  },

  /**
   * Import id: the sub-account's exact name (its identity), or `id:<Wavix id>` to pin one — as the
   * file pins it with `id:`, and then the inputs pin `subAccountId`. Every setting the API shows is
   * given back as an input, as `wavix-sync export` writes it.
   */
  async import(ctx, importId) {
    const client = ctx.masterClient();
    const pin = /^id:([1-9][0-9]{0,15})$/.exec(importId);
    let acc: WireSubAccount | undefined;
    if (pin) acc = await notFoundToUndefined(client.getSubAccount(Number(pin[1])));
    else {
      if (importId.trim() === "") throw new Error("a SubAccount is imported by its exact name, or by id:<Wavix id>");
      try {
        acc = matchSubAccount({ name: importId }, await listAllSubAccounts(client));
      } catch (err) {
        if (!(err instanceof AmbiguousSubAccountError)) throw err;
        throw new Error(`SubAccount "${importId}": ${err.ids.length} sub-accounts have this name (ids ${err.ids.join(", ")}): import one by id:<Wavix id>`);
      }
    }
    if (!acc) return {};
    const entry = subAccountsOf([acc])[0];
    if (!pin) delete entry.id;
    const checked = await subAccountProvider.check(ctx, {} as SubAccountInputs, subAccountFromDesired(entry));
    if (checked.failures.length > 0) throw new Error(`SubAccount "${acc.name}" cannot be imported: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    const inputs = checked.inputs;
    return { id: String(acc.id), props: subAccountOutputs(inputs, acc, pin !== null), inputs: inputs as unknown as SubAccountOutputs };
  },

  async delete(ctx, id, props) {
    // The API has no delete: deleting a sub-account disables it (docs/CONTRACT.md part 4).
    const what = `${named(props)} (id ${id})`;
    if (keptByReplacement(ctx, "SubAccount", id, `SubAccount "${String(props.name)}"`, "disabled", props as unknown as Props)) return;
    if (leavesOnDelete(ctx, what, props as unknown as Props, "disabled")) return;
    await checkAccount(ctx, what, props as unknown as Props, "disabled");
    const client = ctx.masterClient();
    const acc = await notFoundToUndefined(client.getSubAccount(Number(id)));
    if (acc) checkIdentity(ctx.words, id, props as unknown as Props, acc);
    if (acc) await disableSubAccount(ctx.writer(client, { what, effects: ["disable"], stored: props }), acc, { currentIsFresh: true });
  },
};
