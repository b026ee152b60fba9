/**
 * The Sender ID kind's provider (src/kit/provider/contract.ts; served as `SenderId` by
 * src/pulumi/provider-impl.ts): the resource id is the Sender ID's Wavix id. The API
 * has no update, so a change of any field it shows is a replacement, allowed only with
 * `replace: true` (as in the file); `monthlyVolume` and `replace` change in state only.
 */
import type { SenderId as WireSenderId } from "../../client/types";
import type { DesiredSenderId, SenderIdInputs, SenderIdOutputs, SenderIdPart } from "./types";
import { UNKNOWN, compact, has, hasUnknown, type Props } from "../../kit/provider/props";
import { failureOf, identityMismatch, unknownKeyFailures } from "../../kit/provider/checks";
import type { KindProvider } from "../../kit/provider/contract";
import { createSenderId, currentKey, deleteSenderId, diffSenderId, listAllSenderIds } from "./handler";
import { senderIdsOf } from "./export";

const KEYS: readonly string[] = ["senderId", "type", "countries", "usecase", "monthlyVolume", "samples", "replace"];
const SNAKE: Record<string, string> = { senderId: "sender_id", monthlyVolume: "monthly_volume" };
const CAMEL: Record<string, string> = { sender_id: "senderId", monthly_volume: "monthlyVolume" };
/** The fields the API shows: a change of one is a replacement. */
const REPLACING = ["senderId", "type", "countries", "usecase", "samples"];

function toFileEntry(news: Props): Props {
  const entry: Props = {};
  for (const [k, v] of Object.entries(news)) if (k !== "__provider") entry[SNAKE[k] ?? k] = v;
  return entry;
}

function fromDesired(d: DesiredSenderId): SenderIdInputs {
  return compact<SenderIdInputs>({
    senderId: d.sender_id,
    type: d.type,
    countries: d.countries,
    usecase: d.usecase,
    monthlyVolume: d.monthly_volume,
    samples: d.samples === undefined ? undefined : [...new Set(d.samples)].sort(),
    replace: d.replace,
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

/** State whose id and sender ID disagree names another Sender ID. */
function checkIdentity(id: string, stored: Props | undefined, found: WireSenderId): void {
  const want = stored?.senderId;
  if (typeof want === "string" && want !== UNKNOWN && want !== currentKey(found)) {
    throw identityMismatch("SenderId", id, `sender ID ${want}`, `sender ID ${currentKey(found)}`);
  }
}

function refusal(senderId: string, paths: string[]): Error {
  return new Error(
    `Sender ID ${senderId} differs (${paths.join(", ")}), but the API has no update: it can only be replaced (deleted, then created again, ` +
      "and approved again); set `replace: true` on the resource to allow that",
  );
}

export const senderIdProvider: KindProvider<SenderIdInputs, SenderIdOutputs> = {
  async check(ctx, _olds, news) {
    const raw = news as unknown as Props;
    const failures = unknownKeyFailures(raw, KEYS);
    if (failures.length > 0 || hasUnknown(raw)) return { inputs: news, failures };
    const result = ctx.checkEntry<SenderIdPart>({ sender_ids: [toFileEntry(raw)] }, "SenderId");
    if (!result.ok) {
      failures.push(...result.problems.map((p) => failureOf(p, /^sender_ids\[0\]\.?/, (path) => CAMEL[path.split(/[.[]/)[0]] ?? path.split(/[.[]/)[0])));
      return { inputs: news, failures };
    }
    return { inputs: fromDesired(result.state.sender_ids![0]), failures: [] };
  },

  async diff(ctx, _id, olds, news) {
    const replaces = REPLACING.filter((k) => !sameJson((olds as unknown as Props)[k], (news as unknown as Props)[k]));
    if (replaces.length > 0 && news.replace !== true) throw refusal(news.senderId, replaces);
    const diffs = KEYS.filter((k) => !sameJson((olds as unknown as Props)[k], (news as unknown as Props)[k]));
    // The same name cannot be held twice: the old one goes first.
    return { changes: diffs.length > 0, diffs, replaces, stables: replaces.length === 0 ? ["senderId"] : [], deleteBeforeReplace: true };
  },

  async create(ctx, inputs) {
    const client = ctx.masterClient();
    const desired = toDesired(inputs);
    const existing = (await listAllSenderIds(client)).find((s) => currentKey(s) === inputs.senderId);
    if (existing) {
      const diff = diffSenderId(desired, existing);
      if (diff.length === 0) {
        // Adopted: it is already as declared.
        ctx.recordTakenOver("SenderId", existing.id);
        return { id: existing.id, outs: outputs(inputs, existing.id) };
      }
      if (inputs.replace !== true) throw refusal(inputs.senderId, diff.map((f) => f.path));
      await deleteSenderId(client, existing.id);
    }
    const { created } = await createSenderId(client, desired);
    ctx.recordTakenOver("SenderId", created.id);
    return { id: created.id, outs: outputs(inputs, created.id) };
  },

  async read(ctx, id, props) {
    const found = (await listAllSenderIds(ctx.masterClient())).find((s) => s.id === id);
    if (!found) return {};
    checkIdentity(id, props as unknown as Props, found);
    const p = (props ?? {}) as unknown as Partial<SenderIdOutputs>;
    const state = compact<SenderIdOutputs>({
      senderId: currentKey(found),
      type: found.type as SenderIdInputs["type"],
      countries: [...new Set(found.allowlisted_in ?? [])].sort(),
      usecase: (found.usecase ?? p.usecase) as SenderIdInputs["usecase"],
      // Not shown back: kept as the state had it.
      monthlyVolume: p.monthlyVolume,
      samples: has(p, "samples") ? [...new Set(found.samples ?? [])].sort() : undefined,
      replace: p.replace,
      wavixId: found.id,
    });
    const { wavixId: _w, ...inputs } = state;
    return { id, props: state, inputs: inputs as SenderIdOutputs };
  },

  async update(ctx, id, _olds, news) {
    // Only monthlyVolume or replace changed (diff): nothing the API holds.
    return { outs: outputs(news, id) };
  },

  /**
   * Import id: the Sender ID itself (`ACME`, its identity), or its Wavix id. Every field the API
   * shows comes back as an input, as `wavix-sync export` writes it (`monthlyVolume` is not shown).
   */
  async import(ctx, importId) {
    const all = await listAllSenderIds(ctx.masterClient());
    const found = all.find((s) => s.id === importId) ?? all.find((s) => currentKey(s) === importId);
    if (!found) return {};
    const checked = await senderIdProvider.check(ctx, {} as SenderIdInputs, fromDesired(senderIdsOf([found])[0]));
    if (checked.failures.length > 0) throw new Error(`SenderId ${currentKey(found)} cannot be imported: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    return { id: found.id, props: outputs(checked.inputs, found.id), inputs: checked.inputs as SenderIdOutputs };
  },

  async delete(ctx, id, props) {
    if (ctx.keptForReplacement("SenderId", id, `SenderId ${props.senderId ?? id}`, "deleted")) return;
    await deleteSenderId(ctx.masterClient(), id);
  },
};
