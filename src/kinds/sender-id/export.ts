/** Sender IDs as an export writes them: every one the account has, by `sender_id`. */
import { isForbiddenError, type WavixClient } from "../../client";
import type { SenderId } from "../../client/types";
import type { DesiredSenderId } from "./types";
import { emitItem } from "../../kit/file/yaml-emit";
import type { KindExport } from "../../kit/contract";
import { currentKey, listAllSenderIds } from "./handler";
import { senderIdFileObject } from "./file";

const USECASES = new Set(["transactional", "promo", "authentication"]);

/**
 * The file form of what the account has. `monthly_volume` is not shown back, so it is not written;
 * a usecase the file cannot declare is written as the API has it (validate then names it).
 */
export function senderIdsOf(list: SenderId[]): DesiredSenderId[] {
  return [...list]
    .sort((a, b) => (currentKey(a) < currentKey(b) ? -1 : currentKey(a) > currentKey(b) ? 1 : 0))
    .map((s, i): DesiredSenderId => ({
      sender_id: currentKey(s),
      type: s.type as DesiredSenderId["type"],
      countries: [...new Set(s.allowlisted_in ?? [])].sort(),
      usecase: (USECASES.has(s.usecase ?? "") ? s.usecase : (s.usecase ?? "transactional")) as DesiredSenderId["usecase"],
      ...(s.samples && s.samples.length > 0 ? { samples: [...s.samples] } : {}),
      path: `sender_ids[${i}]`,
    }));
}

/** The account's Sender IDs, or undefined when the key may not read them (the export then leaves `sender_ids` out). */
async function readable(client: WavixClient): Promise<DesiredSenderId[] | undefined> {
  try {
    return senderIdsOf(await listAllSenderIds(client));
  } catch (err) {
    if (isForbiddenError(err)) return undefined;
    throw err;
  }
}

export const senderIdExport: KindExport<DesiredSenderId[]> = {
  async text(client: WavixClient) {
    const list = await readable(client);
    if (list === undefined) return { form: "value", value: undefined };
    return { form: "list", items: list.map((d) => emitItem(senderIdFileObject(d), "  ")) };
  },
  state: readable,
};
