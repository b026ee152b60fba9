/**
 * Numbers as an export writes them (issue #15: 100,000 numbers in bounded memory): the pages are
 * read concurrently through the client's checked walk (a few read ahead; an incomplete listing is
 * an IncompleteListingError), each number becomes its few lines of text as its page arrives (the
 * page is then dropped), and the lines are sorted by number.
 */
import { readAll, type WavixClient } from "../../client";
import type { WavixNumber } from "../../client/types";
import type { DesiredNumber } from "../../config/types";
import { emitItem } from "../../config/yaml-emit";
import { numberFileObject } from "./file";
import type { KindExport } from "../contract";
import { currentSettings, listAllNumbers, LISTING_PREFETCH, NUMBERS_PER_PAGE } from "./handler";

const byFirst = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export const numberExport: KindExport<DesiredNumber[]> = {
  async text(client: WavixClient) {
    const lines = await readAll(
      () => client.iterateNumberPages({ perPage: NUMBERS_PER_PAGE }, { prefetch: LISTING_PREFETCH }),
      (n: WavixNumber): [string, string] => [n.number, emitItem(numberFileObject({ number: n.number, ...currentSettings(n) }), "  ")],
    );
    return { form: "list", items: lines.sort(byFirst).map((e) => e[1]), chunked: true };
  },
  async state(client: WavixClient) {
    const numbers = await listAllNumbers(client);
    const sorted = [...numbers].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
    return sorted.map((n, i) => ({ number: n.number, ...currentSettings(n), path: `numbers[${i}]` }));
  },
};
