/**
 * The account as a desired state on which `plan` reports no changes: the way to start a GitOps
 * repo from an existing account. No secrets: sub-account keys are never exported.
 *
 * Each kind of the registry (src/kinds) exports its own part (`kind.export`); this module puts the
 * parts together in file order. `streamExport` writes the file text as it goes (issue #15: 100,000
 * numbers in bounded memory): a kind whose list is `chunked` is written a chunk of items at a
 * time. `exportAccount` gives the same content as a DesiredState.
 */
import type { WavixClient } from "../client";
import type { DesiredState } from "../config/types";
import { schemaHeader, topLevelYaml } from "../kit/file/yaml-emit";
import { kindsInFileOrder } from "../kinds";

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
  /** What was left out of the file (e.g. an event type the file cannot declare). @default ignored */
  onWarning?: (message: string) => void;
  /**
   * The account the file describes, written as its pin (`account_id:`) right after `version:`, as
   * the digits given (never through a JavaScript number); `null`: not known (the key may not read
   * the profile), said in a comment where the pin would be. @default undefined (no pin, no comment)
   */
  accountId?: string | null;
  /**
   * Ends the file with a starter `audit:` section (every 10DLC brand's vettings, no threshold), so
   * the first scheduled `audit` has something to audit and runs green; the comment above it says
   * what to add. Audits are not account state: plan and apply ignore the section.
   * @default false
   */
  starterAudit?: boolean;
}

/** The starter `audit:` section `export` ends with (`starterAudit`). */
export const STARTER_AUDIT =
  "# What `wavix-sync audit` checks (docs/AUDIT.md); plan and apply ignore this section. A start: the\n" +
  "# vettings of every 10DLC brand. Add 2FA services (two_fa: services: [{ service_id: ... }]) and\n" +
  "# thresholds (ten_dlc: min_vetting_score: 75, two_fa: max_failure_ratio: 0.2) to fail on findings.\n" +
  "audit:\n  ten_dlc:\n    brands: all\n";

/** The `account_id:` line of an export (or the comment saying why there is none). */
function accountLine(accountId: string | null | undefined): string {
  if (accountId === undefined) return "";
  if (accountId === null) return "# account_id: not written: the key may not read GET /v1/profile; pin the account here (account_id: <id>) so plan and apply check it\n";
  if (!/^[1-9][0-9]*$/.test(accountId)) throw new Error(`account id ${JSON.stringify(accountId)} is not a positive whole number`);
  return `account_id: ${accountId}\n`;
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
  const kinds = kindsInFileOrder();
  const parts = await Promise.all(kinds.map((k) => k.export.text(client)));
  for (const part of parts) for (const w of part.warnings ?? []) options.onWarning?.(w);
  const chunkItems = options.chunkItems ?? 1000;
  const items: Record<string, number> = {};
  let buffer = `${schemaHeader(options.schemaPath)}version: 1\n${accountLine(options.accountId)}`;
  for (const [i, kind] of kinds.entries()) {
    const part = parts[i];
    const key = kind.file.key;
    if (part.form === "value") {
      // Nothing the kind can show (a write-only setting, a key without the scope): the key is left out.
      if (part.value !== undefined) buffer += topLevelYaml(key, part.value);
      continue;
    }
    items[key] = part.items.length;
    for (const note of part.notes ?? []) buffer += `# ${note.replace(/[\r\n]+/g, " ")}\n`;
    buffer += part.items.length === 0 ? `${key}: []\n` : `${key}:\n`;
    if (!part.chunked) {
      buffer += part.items.join("");
      continue;
    }
    await write(buffer);
    buffer = "";
    for (let j = 0; j < part.items.length; j += chunkItems) await write(part.items.slice(j, j + chunkItems).join(""));
  }
  if (options.starterAudit) buffer += STARTER_AUDIT;
  if (buffer !== "") await write(buffer);
  // The summary's public shape (the CLI's "Wrote FILE (N sub-accounts, M numbers)"), by file key.
  return { subAccounts: items.sub_accounts ?? 0, numbers: items.numbers ?? 0 };
}

/** The account as a DesiredState (all in memory; `streamExport` for large accounts). */
export async function exportAccount(client: WavixClient): Promise<DesiredState> {
  const kinds = kindsInFileOrder();
  const parts = await Promise.all(kinds.map((k) => k.export.state(client)));
  const state: Record<string, unknown> = { version: 1, file: "(export)" };
  kinds.forEach((k, i) => {
    if (parts[i] !== undefined) state[k.file.key] = parts[i];
  });
  return state as unknown as DesiredState;
}
