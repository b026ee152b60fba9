/**
 * Sender IDs: identity is `sender_id` (digits for a numeric one, a name without case: file.ts
 * `senderIdIdentity`); the API has list, create, retrieve and delete, no update, so a changed
 * Sender ID is replaced (delete, then create). Only what the API shows is compared: the official
 * SenderID requires `id`, `sender_id`, `type` and `allowlisted_in` only, so a field it leaves out
 * (`usecase`, `samples`) is not known, never a difference (a replace is destructive).
 */
import type { GatedClient } from "../../kit/gate";
import { isValidationError, isWavixApiError, type WavixClient } from "../../client";
import type { SenderId, SenderIdCreate } from "../../client/types";
import type { DesiredSenderId } from "./types";
import type { FieldDiff } from "../../kit/change/diff";
import { notFoundToUndefined } from "../../client/not-found";
import { settleTwins, type TwinRemoved } from "../../kit/twins";
import { senderIdIdentity, senderIdKey } from "./file";

export async function listAllSenderIds(client: WavixClient): Promise<SenderId[]> {
  return client.listSenderIds();
}

/** The key of a Sender ID the API shows (what plans name it by). */
export const currentKey = (s: SenderId): string => senderIdKey(s.sender_id, s.type);

/** The identity of a Sender ID the API shows, as the service compares it. */
export const currentIdentity = (s: SenderId): string => senderIdIdentity(s.sender_id);

/** The Sender IDs of one identity. */
export const withIdentity = (all: readonly SenderId[], senderId: string): SenderId[] => all.filter((s) => currentIdentity(s) === senderIdIdentity(senderId));

const sortedSet = (xs: readonly string[] | undefined): string[] => [...new Set(xs ?? [])].sort();
const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** What a create shows: every field sent. */
export function createDiff(d: DesiredSenderId): FieldDiff[] {
  const out: FieldDiff[] = [
    { path: "type", before: null, after: d.type },
    { path: "countries", before: null, after: d.countries },
    { path: "usecase", before: null, after: d.usecase },
  ];
  if (d.monthly_volume !== undefined) out.push({ path: "monthly_volume", before: null, after: d.monthly_volume });
  if (d.samples !== undefined) out.push({ path: "samples", before: null, after: sortedSet(d.samples) });
  return out;
}

/**
 * The fields that differ. Countries are compared with `allowlisted_in` as sets, samples as a set
 * when the file declares them; `monthly_volume` never (the API does not show it back).
 */
export function diffSenderId(d: DesiredSenderId, c: SenderId): FieldDiff[] {
  const out: FieldDiff[] = [];
  if (c.type !== undefined && d.type !== c.type) out.push({ path: "type", before: c.type, after: d.type });
  if (c.allowlisted_in !== undefined) {
    const countries = sortedSet(c.allowlisted_in);
    if (!sameList(d.countries, countries)) out.push({ path: "countries", before: countries, after: d.countries });
  }
  if (c.usecase !== undefined && d.usecase !== (c.usecase ?? null)) out.push({ path: "usecase", before: c.usecase ?? null, after: d.usecase });
  if (d.samples !== undefined && c.samples !== undefined) {
    const want = sortedSet(d.samples);
    const have = sortedSet(c.samples);
    if (!sameList(want, have)) out.push({ path: "samples", before: have, after: want });
  }
  return out;
}

export function createBody(d: DesiredSenderId): SenderIdCreate {
  const body: SenderIdCreate = { sender_id: d.sender_id, type: d.type, countries: [...d.countries], usecase: d.usecase };
  if (d.monthly_volume !== undefined) body.monthly_volume = d.monthly_volume;
  if (d.samples !== undefined) body.samples = [...d.samples];
  return body;
}

/** What {@link createSenderId} did. */
export interface CreatedSenderId {
  created: SenderId;
  /** The POST's outcome was unknown and the listing showed it had committed. */
  reconciled: boolean;
  /** It already existed (read right before the POST, or refused as taken by a concurrent create, or made by another run at the same moment): adopted. */
  adopted?: boolean;
  /** This run's create was a twin of another run's, older one, and was deleted again (src/kit/twins.ts). */
  twin?: TwinRemoved;
}

/** One of this identity that exists already: adopted when it is as declared, else an error (no replace is asked here). */
function adoptable(d: DesiredSenderId, found: SenderId): SenderId {
  const diff = diffSenderId(d, found);
  if (diff.length > 0) {
    throw new Error(
      `Sender ID ${d.sender_id} appeared in the account since it was planned (id ${found.id}, made by another run or a person) and differs (${diff.map((f) => f.path).join(", ")}); not replaced: plan again`,
    );
  }
  return found;
}

/**
 * Creates the Sender ID, never a twin (issue #27; the sub-accounts' rule): right before the POST the
 * listing is read and one of this identity that exists by now is adopted (when it is as declared).
 * When the outcome is unknown (no answer, a 5xx), or the POST is refused because the name is taken
 * (another run created it a moment ago), the listing says whether it exists before anything else is
 * done. After the create the identity must be held once (src/kit/twins.ts): when another run made
 * it at the same moment (the official document lets a server keep two), the one listed first — the
 * API lists Sender IDs as created — is kept; a run whose own is not it deletes its own and adopts
 * that one (when it is as declared).
 */
export async function createSenderId(client: GatedClient, d: DesiredSenderId): Promise<CreatedSenderId> {
  const before = withIdentity(await listAllSenderIds(client), d.sender_id);
  if (before.length > 1) throw new Error(twinMessage(d.sender_id, before));
  if (before.length === 1) return { created: adoptable(d, before[0]), reconciled: false, adopted: true };
  let created: SenderId;
  let reconciled = false;
  try {
    created = await client.createSenderId(createBody(d));
  } catch (err) {
    const taken = isValidationError(err) && (err.errors.sender_id !== undefined || /taken|exists/i.test(err.message));
    if (!(isWavixApiError(err) && err.outcomeUnknown) && !taken) throw err;
    const found = withIdentity(await listAllSenderIds(client), d.sender_id);
    if (found.length === 0) throw err;
    if (found.length > 1) throw new Error(twinMessage(d.sender_id, found));
    if (taken) return { created: adoptable(d, found[0]), reconciled: false, adopted: true };
    return { created: found[0], reconciled: true };
  }
  const settled = await settleTwins<SenderId>({
    made: created,
    idOf: (s) => s.id,
    holders: async () => withIdentity(await listAllSenderIds(client), d.sender_id),
    removeOwn: async (own) => {
      await deleteSenderId(client, own.id);
      return "deleted";
    },
  });
  if (settled.twin === undefined) return { created, reconciled };
  return { created: adoptable(d, settled.kept), reconciled, adopted: true, twin: settled.twin };
}

/** The message for an identity held more than once. */
export function twinMessage(senderId: string, found: readonly SenderId[]): string {
  return `Sender ID ${senderId} is in the account ${found.length} times (ids ${found.map((s) => s.id).join(", ")}): another run or a person created it at the same moment. Delete all but one (each must be approved), then plan again`;
}

/** Deletes by id; already gone (404) is done. */
export async function deleteSenderId(client: GatedClient, id: string): Promise<void> {
  await notFoundToUndefined(client.deleteSenderId(id));
}
