/**
 * The account as a desired state on which `plan` reports no changes: the way to start a GitOps
 * repo from an existing account. No secrets: sub-account keys are never exported.
 *
 * `streamExport` writes the file text as it goes (issue #15: 100,000 numbers in bounded memory):
 * the pages of numbers are read concurrently (the client's bound and pacing apply), each number
 * becomes its few lines of text as soon as its page arrives (the page is then dropped), and the
 * lines are written sorted by number. `exportAccount` gives the same content as a DesiredState.
 */
import { readAll, type WavixClient } from "../client";
import type { SubAccount, WavixNumber } from "../client/types";
import type { DesiredState, DesiredSubAccount } from "../config/types";
import { numberItemYaml, schemaHeader, subAccountItemYaml, topLevelYaml } from "../config/serialize";
import { currentSettings, listAllNumbers, LISTING_PREFETCH, NUMBERS_PER_PAGE } from "../kinds/number/handler";
import { listAllSubAccounts } from "../kinds/sub-account/handler";
import { listWebhooks } from "../kinds/call-webhook/handler";

/** Options of `streamExport`. */
export interface StreamExportOptions {
  /**
   * Schema path for the editor header (`# yaml-language-server: $schema=`); `null` for none.
   * @default "schemas/wavix.schema.json"
   */
  schemaPath?: string | null;
  /**
   * Numbers written per chunk handed to `write`.
   * @default 1000
   */
  chunkItems?: number;
}

/** What an export wrote. */
export interface ExportSummary {
  subAccounts: number;
  numbers: number;
}

/**
 * Writes the account as file text through `write` (awaited chunk by chunk, so a slow sink holds
 * the export back instead of filling memory). Nothing is written before every page has been read:
 * a failed listing leaves no partial file behind.
 */
export async function streamExport(
  client: WavixClient,
  write: (chunk: string) => Promise<void> | void,
  options: StreamExportOptions = {},
): Promise<ExportSummary> {
  const [subs, numberLines, hooks] = await Promise.all([listAllSubAccounts(client), numberItems(client), listWebhooks(client)]);
  const chunkItems = options.chunkItems ?? 1000;
  const subAccounts = subAccountsOf(subs);
  let head = `${schemaHeader(options.schemaPath)}version: 1\n`;
  head += subAccounts.length === 0 ? "sub_accounts: []\n" : `sub_accounts:\n${subAccounts.map(subAccountItemYaml).join("")}`;
  head += numberLines.length === 0 ? "numbers: []\n" : "numbers:\n";
  await write(head);
  for (let i = 0; i < numberLines.length; i += chunkItems) {
    await write(numberLines.slice(i, i + chunkItems).map((e) => e[1]).join(""));
  }
  await write(topLevelYaml("call_webhooks", Object.fromEntries([...hooks.entries()].sort())));
  return { subAccounts: subAccounts.length, numbers: numberLines.length };
}

/**
 * `[number, its lines of text]`, sorted by number. Pages go through the client's checked walk (a
 * few read ahead; nothing allocated from a claimed count; an incomplete listing is an
 * IncompleteListingError), and each number becomes its text as its page arrives.
 */
async function numberItems(client: WavixClient): Promise<[string, string][]> {
  const lines = await readAll(
    () => client.iterateNumberPages({ perPage: NUMBERS_PER_PAGE }, { prefetch: LISTING_PREFETCH }),
    (n: WavixNumber): [string, string] => [n.number, numberItemYaml({ number: n.number, ...currentSettings(n) })],
  );
  return lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function subAccountsOf(subs: SubAccount[]): DesiredSubAccount[] {
  const nameCount = new Map<string, number>();
  for (const s of subs) nameCount.set(s.name, (nameCount.get(s.name) ?? 0) + 1);
  return subs.map((s, i): DesiredSubAccount => {
    const dd: { sms_endpoint?: string; dlr_endpoint?: string } = {};
    if (s.default_destinations?.sms_endpoint) dd.sms_endpoint = s.default_destinations.sms_endpoint;
    if (s.default_destinations?.dlr_endpoint) dd.dlr_endpoint = s.default_destinations.dlr_endpoint;
    return {
      name: s.name,
      // Two sub-accounts of one name can only be told apart by id (PRODUCT.md part 4, Identity).
      ...((nameCount.get(s.name) ?? 0) > 1 ? { id: s.id } : {}),
      status: s.status,
      ...(Object.keys(dd).length > 0 ? { default_destinations: dd } : {}),
      path: `sub_accounts[${i}]`,
    };
  });
}

/** The account as a DesiredState (all in memory; `streamExport` for large accounts). */
export async function exportAccount(client: WavixClient): Promise<DesiredState> {
  const [subs, numbers, hooks] = await Promise.all([listAllSubAccounts(client), listAllNumbers(client), listWebhooks(client)]);
  const sub_accounts = subAccountsOf(subs);
  const sorted = [...numbers].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  return {
    version: 1,
    file: "(export)",
    sub_accounts,
    numbers: sorted.map((n, i) => ({ number: n.number, ...currentSettings(n), path: `numbers[${i}]` })),
    call_webhooks: Object.fromEntries([...hooks.entries()].sort()),
  };
}
