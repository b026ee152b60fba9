/**
 * The Sender ID kind's provider (src/kit/provider/contract.ts; served as `SenderId` by
 * src/pulumi/provider-impl.ts): the resource id is the Sender ID's Wavix id. The API
 * has no update, so a change of any field it shows is a replacement, allowed only with
 * `replace: true` (as in the file); `monthlyVolume`, `replace` and `onDelete` change in state only.
 * A create adopts an equal Sender ID that exists; a delete leaves an adopted one as it is unless
 * `onDelete: "delete"` (a deleted Sender ID must be approved again: src/kit/provider/guards.ts).
 */
import { actionEffects } from "../../kit/change/effects";
import type { SenderId as WireSenderId } from "../../client/types";
import type { DesiredSenderId, SenderIdInputs, SenderIdOutputs, SenderIdPart } from "./types";
import { UNKNOWN, compact, has, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider, ProviderContext } from "../../kit/provider/contract";
import { adoptionHint, keptByReplacement, checkAccount, keptOrigin, leavesOnDelete, onDeleteFailures, originOf, warnDestructive } from "../../kit/provider/guards";
import { twinRemovedText } from "../../kit/twins";
import { createSenderId, currentIdentity, currentKey, deleteSenderId, diffSenderId, listAllSenderIds } from "./handler";
import { senderIdIdentity } from "./file";
import { senderIdsOf } from "./export";
import type { FaceWords } from "../../kit/provider/words";

const KEYS: readonly string[] = ["senderId", "type", "countries", "usecase", "monthlyVolume", "samples", "replace", "onDelete"];
const SNAKE: Record<string, string> = { senderId: "sender_id", monthlyVolume: "monthly_volume" };
const CAMEL: Record<string, string> = { sender_id: "senderId", monthly_volume: "monthlyVolume" };
/** The fields the API shows: a change of one is a replacement. */
const REPLACING = ["senderId", "type", "countries", "usecase", "samples"];
/**
 * The fields an answer may leave out (the official SenderID and SenderIDResponse require only `id`,
 * `sender_id`, `type` and, listed, `allowlisted_in`): state that never held one (an import of an
 * answer without it) does not know it, so a declared value is no difference to replace for — it
 * is recorded, in place, with no write (handler.ts `diffSenderId` reads the answer the same way).
 */
const MAY_BE_UNSHOWN = new Set(["usecase", "samples"]);

function toFileEntry(news: Props): Props {
  const entry: Props = {};
  for (const [k, v] of Object.entries(news)) if (k !== "__provider" && k !== "onDelete") entry[SNAKE[k] ?? k] = v;
  return entry;
}

function fromDesired(d: DesiredSenderId, onDelete: unknown): SenderIdInputs {
  return compact<SenderIdInputs>({
    senderId: d.sender_id,
    type: d.type,
    countries: d.countries,
    usecase: d.usecase,
    monthlyVolume: d.monthly_volume,
    samples: d.samples === undefined ? undefined : [...new Set(d.samples)].sort(),
    replace: d.replace,
    onDelete: onDelete === "delete" || onDelete === "retain" ? onDelete : undefined,
  });
}

function toDesired(i: SenderIdInputs): DesiredSenderId {
  const d: DesiredSenderId = { sender_id: i.senderId, type: i.type, countries: [...i.countries], usecase: i.usecase, path: "sender_ids[0]" };
  if (i.monthlyVolume !== undefined) d.monthly_volume = i.monthlyVolume;
  if (i.samples !== undefined) d.samples = [...i.samples];
  if (i.replace !== undefined) d.replace = i.replace;
  return d;
}

const outputs = (i: SenderIdInputs, id: string): SenderIdOutputs => compact({ ...i, wavixId: id });

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const named = (senderId: unknown): string => `SenderId ${String(senderId)}`;

/** State whose id and sender ID disagree names another Sender ID. */
function checkIdentity(words: FaceWords, id: string, stored: Props | undefined, found: WireSenderId): void {
  const want = stored?.senderId;
  if (typeof want === "string" && want !== UNKNOWN && senderIdIdentity(want) !== currentIdentity(found)) {
    throw identityMismatch("SenderId", id, `sender ID ${want}`, `sender ID ${currentKey(found)}`, words);
  }
}

function refusal(words: FaceWords, senderId: string, paths: string[]): Error {
  return new Error(
    `Sender ID ${senderId} differs (${paths.map((p) => words.prop(p)).join(", ")}), but the API has no update: it can only be replaced (deleted, then created again, ` +
      `and approved again); set \`${words.setting("replace", true)}\` on the resource to allow that`,
  );
}

/** The account's Sender IDs, listed once per context for the hints `check` gives before creates. */
function listedOnce(ctx: ProviderContext): Promise<WireSenderId[]> {
  return ctx.perClient(ctx.masterClient(), "sender-ids", (c) => listAllSenderIds(c));
}

export const senderIdProvider: KindProvider<SenderIdInputs, SenderIdOutputs> = {
  async check(ctx, olds, news) {
    const raw = news as unknown as Props;
    const failures = [...unknownKeyFailures(raw, KEYS), ...onDeleteFailures(raw, undefined, ctx.words)];
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const result = ctx.checkEntry<SenderIdPart>({ sender_ids: [toFileEntry(raw)] }, "SenderId");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^sender_ids\[0\]\.?/, (path) => CAMEL[path.split(/[.[]/)[0]] ?? path.split(/[.[]/)[0])));
      return { inputs: news, failures };
    }
    const inputs = fromDesired(result.state.sender_ids![0], raw.onDelete);
    await adoptionHint(ctx, olds, inputs as unknown as Props, named(inputs.senderId), "deleted", async () => {
      const hit = (await listedOnce(ctx)).find((s) => currentKey(s) === inputs.senderId);
      return hit && diffSenderId(toDesired(inputs), hit).length === 0 ? `the Sender ID (id ${hit.id})` : undefined;
    });
    return { inputs, failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const o = olds as unknown as Props;
    const replaces = REPLACING.filter((k) => !sameJson(o[k], (news as unknown as Props)[k]) && !(MAY_BE_UNSHOWN.has(k) && o[k] === undefined));
    if (replaces.length > 0 && news.replace !== true) throw refusal(ctx.words, news.senderId, replaces);
    const diffs = KEYS.filter((k) => !sameJson((olds as unknown as Props)[k], (news as unknown as Props)[k]));
    if (replaces.length > 0) warnDestructive(ctx, named(olds.senderId), actionEffects, "replace", []);
    // The same name cannot be held twice: the old one goes first.
    return { changes: replaces.length > 0 || diffs.length > 0, diffs, replaces, stables: replaces.length === 0 ? ["senderId", "wavixId", "adopted", "accountId"] : [], deleteBeforeReplace: true };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    const desired = toDesired(inputs);
    const existing = (await listAllSenderIds(client)).find((s) => currentIdentity(s) === senderIdIdentity(inputs.senderId));
    if (existing) {
      const diff = diffSenderId(desired, existing);
      if (diff.length === 0) {
        // Adopted: it is already as declared.
        ctx.recordTakenOver("SenderId", existing.id);
        return { id: existing.id, outs: { ...outputs(inputs, existing.id), ...(await originOf(ctx, true)) } };
      }
      if (inputs.replace !== true) throw refusal(ctx.words, inputs.senderId, diff.map((f) => f.path));
      // It exists and differs, and this stack did not make it: replacing it deletes it (and it must be
      // approved again), which only an explicit onDelete: "delete" allows.
      if (inputs.onDelete !== "delete") {
        throw new Error(
          `Sender ID ${inputs.senderId} exists (id ${existing.id}) and differs (${diff.map((f) => f.path).join(", ")}); this ${ctx.words.holder} did not make it, and replacing it ` +
            `deletes it (it must then be approved again): nothing was written. Declare it as it is, or set ${ctx.words.setting("onDelete", "delete")} to allow replacing it`,
        );
      }
      await deleteSenderId(ctx.writer(client, { what: `${named(inputs.senderId)} (id ${existing.id})`, effects: ["replace"] }), existing.id);
    }
    const { created, twin } = await createSenderId(ctx.writer(client, { what: named(inputs.senderId), effects: [] }), desired);
    if (twin) ctx.warn(`${named(inputs.senderId)}: ${twinRemovedText(twin, created.id)}`);
    ctx.recordTakenOver("SenderId", created.id);
    return { id: created.id, outs: { ...outputs(inputs, created.id), ...(await originOf(ctx, twin !== undefined)) } };
  },

  async read(ctx, id, props) {
    await checkAccount(ctx, named(props?.senderId ?? id), props as unknown as Props, "read");
    const found = (await listAllSenderIds(ctx.masterClient())).find((s) => s.id === id);
    if (!found) return {};
    checkIdentity(ctx.words, id, props as unknown as Props, found);
    const p = (props ?? {}) as unknown as Partial<SenderIdOutputs>;
    const state = compact<SenderIdOutputs>({
      // The identity as declared when the service holds it in another case (`acme` kept as `ACME`).
      senderId: typeof p.senderId === "string" && senderIdIdentity(p.senderId) === currentIdentity(found) ? p.senderId : currentKey(found),
      type: found.type as SenderIdInputs["type"],
      countries: [...new Set(found.allowlisted_in ?? [])].sort(),
      usecase: (found.usecase ?? p.usecase) as SenderIdInputs["usecase"],
      // Not shown back: kept as the state had it.
      monthlyVolume: p.monthlyVolume,
      // Not in every answer (the official response does not require it): kept as the state had it then.
      samples: has(p, "samples") ? (found.samples === undefined ? p.samples : [...new Set(found.samples)].sort()) : undefined,
      replace: p.replace,
      onDelete: p.onDelete,
      wavixId: found.id,
    });
    const { wavixId: _w, ...inputs } = state;
    return { id, props: { ...state, ...keptOrigin(props as unknown as Props) }, inputs: inputs as SenderIdOutputs };
  },

  async update(ctx, id, olds, news) {
    // Only monthlyVolume, replace or onDelete changed, or a usecase or samples the API never showed
    // is recorded as declared (diff): nothing the API holds changes.
    return { outs: { ...outputs(news, id), ...keptOrigin(olds as unknown as Props) } };
  },

  /**
   * Import id: the Sender ID itself (`ACME`, its identity), or its Wavix id. Every field the API
   * shows comes back as an input, as `wavix-sync export` writes it (`monthlyVolume` is not shown).
   * A `usecase` the answer leaves out is left out, not guessed (export's stand-in is for a file,
   * which must name one): the resource's declared value is then recorded by the next update, with
   * no write (`diff`, MAY_BE_UNSHOWN).
   */
  async import(ctx, importId) {
    const all = await listAllSenderIds(ctx.masterClient());
    const found = all.find((s) => s.id === importId) ?? all.find((s) => currentKey(s) === importId);
    if (!found) return {};
    const checked = await senderIdProvider.check(ctx, {} as SenderIdInputs, fromDesired(senderIdsOf([found])[0], undefined));
    if (checked.failures.length > 0) throw new Error(`SenderId ${currentKey(found)} cannot be imported: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    const inputs = found.usecase === undefined ? (({ usecase: _u, ...rest }) => rest)(checked.inputs) : checked.inputs;
    return { id: found.id, props: outputs(inputs as SenderIdInputs, found.id), inputs: inputs as SenderIdOutputs };
  },

  async delete(ctx, id, props) {
    const what = `${named(props.senderId ?? id)} (id ${id})`;
    if (keptByReplacement(ctx, "SenderId", id, `SenderId ${props.senderId ?? id}`, "deleted", props as unknown as Props)) return;
    if (leavesOnDelete(ctx, what, props as unknown as Props, "deleted")) return;
    await checkAccount(ctx, what, props as unknown as Props, "deleted");
    const client = ctx.masterClient();
    const found = (await listAllSenderIds(client)).find((s) => s.id === id);
    if (!found) return; // already gone
    checkIdentity(ctx.words, id, props as unknown as Props, found);
    await deleteSenderId(ctx.writer(client, { what, effects: ["delete"], stored: props }), id);
  },
};
