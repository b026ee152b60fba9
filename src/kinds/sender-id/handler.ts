/**
 * Sender IDs: identity is `sender_id` (digits for a numeric one); the API has list, create,
 * retrieve and delete, no update, so a changed Sender ID is replaced (delete, then create).
 */
import { isWavixApiError, type WavixClient } from "../../client";
import type { SenderId, SenderIdCreate } from "../../client/types";
import type { DesiredSenderId } from "./types";
import type { FieldDiff } from "../../kit/change/diff";
import { notFoundToUndefined } from "../../client/not-found";
import { senderIdKey } from "./file";

export async function listAllSenderIds(client: WavixClient): Promise<SenderId[]> {
  return client.listSenderIds();
}

/** The identity of a Sender ID the API shows. */
export const currentKey = (s: SenderId): string => senderIdKey(s.sender_id, s.type);

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
  if (d.type !== c.type) out.push({ path: "type", before: c.type, after: d.type });
  const countries = sortedSet(c.allowlisted_in);
  if (!sameList(d.countries, countries)) out.push({ path: "countries", before: countries, after: d.countries });
  if (d.usecase !== (c.usecase ?? null)) out.push({ path: "usecase", before: c.usecase ?? null, after: d.usecase });
  if (d.samples !== undefined) {
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

/**
 * Creates the Sender ID. When the outcome is unknown (no answer, a 5xx), the listing says whether
 * it was created before anything is sent again (a second POST could make a twin).
 */
export async function createSenderId(client: WavixClient, d: DesiredSenderId): Promise<{ created: SenderId; reconciled: boolean }> {
  try {
    return { created: await client.createSenderId(createBody(d)), reconciled: false };
  } catch (err) {
    if (!(isWavixApiError(err) && err.outcomeUnknown)) throw err;
    const found = (await listAllSenderIds(client)).find((s) => currentKey(s) === d.sender_id);
    if (found) return { created: found, reconciled: true };
    throw err;
  }
}

/** Deletes by id; already gone (404) is done. */
export async function deleteSenderId(client: WavixClient, id: string): Promise<void> {
  await notFoundToUndefined(client.deleteSenderId(id));
}
