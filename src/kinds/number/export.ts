/**
 * Numbers as an export writes them (issue #15: 100,000 numbers in bounded memory): the pages are
 * read concurrently through the client's checked walk (a few read ahead; an incomplete listing is
 * an IncompleteListingError), each number becomes its few lines of text as its page arrives (the
 * page is then dropped), and the lines are sorted by number.
 *
 * Tenants' numbers (issue #20) are read with each sub-account's own key (from the master key's
 * listing, in memory only) and written with `sub_account:` naming their sub-account (its id when
 * two share the name). A sub-account whose key the API refuses (a disabled one) has its numbers
 * left out, with a comment saying so: they are then not managed, so a plan of the export is clean.
 */
import { concurrencyLimit } from "../../util/lazy-deps";
import { ForbiddenError, readAll, UnauthorizedError, type WavixClient } from "../../client";
import type { SubAccount, WavixNumber } from "../../client/types";
import type { DesiredNumber } from "./types";
import { emitItem } from "../../kit/file/yaml-emit";
import { numberFileObject } from "./file";
import type { KindExport } from "../../kit/contract";
import { currentSettings, LISTING_PREFETCH, NUMBERS_PER_PAGE } from "./handler";
import { sharedSubAccountListing } from "../sub-account/public";
import { TENANT_READ_CONCURRENCY } from "./tenants";

const byFirst = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** One owner's numbers read as `[digits, T]`; `sub_account` is the file's reference to the owner (absent: the account's own). */
type Exported<T> = { entries: [string, T][]; skipped: string[] };

async function exportAll<T>(client: WavixClient, each: (n: WavixNumber, subAccount: string | number | undefined) => T): Promise<Exported<T>> {
  const walk = (c: WavixClient, ref: string | number | undefined) =>
    readAll(
      () => c.iterateNumberPages({ perPage: NUMBERS_PER_PAGE }, { prefetch: LISTING_PREFETCH }),
      (n: WavixNumber): [string, T] => [n.number, each(n, ref)],
    );
  const [own, subs] = await Promise.all([walk(client, undefined), sharedSubAccountListing(client)]);
  const names = new Map<string, number>();
  for (const s of subs) names.set(s.name, (names.get(s.name) ?? 0) + 1);
  const limit = concurrencyLimit(TENANT_READ_CONCURRENCY);
  const skipped: string[] = [];
  const tenants = await Promise.all(
    subs.map((s: SubAccount) =>
      limit(async () => {
        if (typeof s.api_key !== "string" || s.api_key === "") {
          skipped.push(`sub-account ${JSON.stringify(s.name)} (id ${s.id}): the API gave no key`);
          return [];
        }
        try {
          return await walk(client.withApiKey(s.api_key), (names.get(s.name) ?? 0) > 1 ? s.id : s.name);
        } catch (err) {
          if (!(err instanceof ForbiddenError || err instanceof UnauthorizedError)) throw err;
          skipped.push(`sub-account ${JSON.stringify(s.name)} (id ${s.id}): the API refused its key${s.status === "disabled" ? " (it is disabled)" : ""}`);
          return [];
        }
      }),
    ),
  );
  return { entries: own.concat(...tenants).sort(byFirst), skipped };
}

export const numberExport: KindExport<DesiredNumber[]> = {
  async text(client: WavixClient) {
    const { entries, skipped } = await exportAll(client, (n, ref) =>
      emitItem(numberFileObject({ number: n.number, ...(ref !== undefined ? { sub_account: ref } : {}), ...currentSettings(n) }), "  "),
    );
    const notes = skipped.map((s) => `numbers not exported: ${s}`);
    return { form: "list", items: entries.map((e) => e[1]), chunked: true, ...(notes.length > 0 ? { notes } : {}) };
  },
  async state(client: WavixClient) {
    const { entries } = await exportAll(client, (n, ref) => ({ number: n.number, ...(ref !== undefined ? { sub_account: ref } : {}), ...currentSettings(n) }));
    return entries.map(([, n], i) => ({ ...n, path: `numbers[${i}]` }));
  },
};
