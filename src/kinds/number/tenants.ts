/**
 * Tenants' numbers (issue #20): a declared number with `sub_account:` belongs to that sub-account
 * and is read and written with the sub-account's own key (seed 5.11: each sub-account has its own
 * API key, and a key sees its own organisation's numbers only). The key comes from the master
 * key's sub-account listing at run time, lives only in a client in memory, and is never printed,
 * stored or put into a plan.
 *
 * Reading costs pages per tenant, not numbers: the sub-account listing is read once per plan
 * (shared with the sub-account kind), then each tenant's declared numbers are resolved with
 * `findNumbers` under its key (one listing page for a tenant of up to 100 numbers), tenants read
 * concurrently under the client's shared concurrency bound.
 */
import { concurrencyLimit } from "../../util/lazy-deps";
import { ForbiddenError, UnauthorizedError, type WavixClient } from "../../client";
import type { SubAccount, WavixNumber } from "../../client/types";
import type { DesiredSubAccount } from "../sub-account/public";
import type { DesiredNumber, TenantRef } from "./types";
import { findNumbers } from "./handler";

/** Tenants whose numbers are read at once (each under the client's own concurrency bound). */
export const TENANT_READ_CONCURRENCY = 16;

/** The file's numbers with `sub_account:` resolved against its `sub_accounts:` (name and pinned id). */
export function withTenants(numbers: DesiredNumber[], subs: readonly DesiredSubAccount[] | undefined): DesiredNumber[] {
  if (!numbers.some((n) => n.sub_account !== undefined)) return numbers;
  return numbers.map((n) => (n.sub_account === undefined ? n : { ...n, tenant: tenantRef(n.sub_account, subs) }));
}

function tenantRef(ref: string | number, subs: readonly DesiredSubAccount[] | undefined): TenantRef {
  const decl = typeof ref === "number" ? subs?.find((s) => s.id === ref) : subs?.find((s) => s.name === ref);
  if (!decl) return typeof ref === "number" ? { id: ref, declared: false } : { name: ref, declared: false };
  return { name: decl.name, ...(decl.id !== undefined ? { id: decl.id } : {}), declared: true, ...(decl.status ? { status: decl.status } : {}) };
}

/** One key per tenant the file names: by id when the file gives one, else by name. */
export function tenantKey(ref: TenantRef): string {
  return ref.id !== undefined ? `id:${ref.id}` : `name:${ref.name}`;
}

/** How the file refers to a tenant, for messages. */
export function tenantLabel(ref: TenantRef, account?: SubAccount): string {
  if (account) return `sub-account ${JSON.stringify(account.name)} (id ${account.id})`;
  return ref.name !== undefined ? `sub-account ${JSON.stringify(ref.name)}${ref.id !== undefined ? ` (id ${ref.id})` : ""}` : `sub-account id ${ref.id}`;
}

/** A tenant as read: its account and a client holding its key, and its declared numbers found; or why not. */
export type TenantRead =
  | { readonly ok: true; readonly ref: TenantRef; readonly account: SubAccount; readonly client: WavixClient; readonly numbers: Map<string, WavixNumber> }
  | { readonly ok: false; readonly ref: TenantRef; readonly account?: SubAccount; readonly problem: string };

/** Which existing sub-account a tenant reference names, or why none does. */
export function resolveTenant(ref: TenantRef, subs: readonly SubAccount[]): { account: SubAccount } | { problem: string } {
  if (ref.id !== undefined) {
    const account = subs.find((s) => s.id === ref.id);
    if (account) return { account };
    return { problem: `${tenantLabel(ref)} does not exist in the account` };
  }
  const named = subs.filter((s) => s.name === ref.name);
  if (named.length === 1) return { account: named[0] };
  if (named.length > 1) {
    return {
      problem:
        `sub-account ${JSON.stringify(ref.name)} matches ${named.length} existing sub-accounts (ids ${named.map((s) => s.id).join(", ")}): ` +
        "pin the one that owns the number with `id:` in sub_accounts (or write its id in sub_account:)",
    };
  }
  if (ref.declared) {
    // A sub-account this apply would create: it owns no numbers yet, and the API has no way to
    // move a number into one (the official document has no transfer operation).
    return {
      problem:
        `sub-account ${JSON.stringify(ref.name)} does not exist yet (this apply would create it), and a new sub-account owns no numbers: ` +
        "the API cannot move a number into a sub-account. Apply the sub-account first, buy the number in it, then declare the number",
    };
  }
  return { problem: `sub-account ${JSON.stringify(ref.name)} does not exist in the account` };
}

/**
 * Reads each tenant's declared numbers with the tenant's own key. A key the API refuses (a disabled
 * sub-account, a revoked key) is a problem for that tenant's numbers only; any other failure fails
 * the read, as a failure to read the account's own numbers does.
 */
export async function readTenants(
  client: WavixClient,
  groups: ReadonlyMap<string, { ref: TenantRef; digits: string[] }>,
  listSubAccounts: () => Promise<readonly SubAccount[]>,
  describe: (err: unknown) => string,
): Promise<Map<string, TenantRead>> {
  const out = new Map<string, TenantRead>();
  if (groups.size === 0) return out;
  const subs = await listSubAccounts();
  const limit = concurrencyLimit(TENANT_READ_CONCURRENCY);
  await Promise.all(
    [...groups].map(([key, { ref, digits }]) =>
      limit(async () => {
        const resolved = resolveTenant(ref, subs);
        if ("problem" in resolved) {
          out.set(key, { ok: false, ref, problem: resolved.problem });
          return;
        }
        let account = resolved.account;
        const label = tenantLabel(ref, account);
        if (ref.status === "disabled" && account.status !== "disabled") {
          out.set(key, { ok: false, ref, account, problem: `${label} is disabled by this file, and a disabled sub-account's key is refused: its numbers cannot be managed. Keep it enabled while its numbers are declared, or remove them from the file` });
          return;
        }
        if (typeof account.api_key !== "string" || account.api_key === "") {
          // The listing left the key out: ask for the one record (seed 2.8: api_key is required there).
          account = await client.getSubAccount(account.id);
          if (typeof account.api_key !== "string" || account.api_key === "") {
            out.set(key, { ok: false, ref, account, problem: `the API gives no key for ${label}, so its numbers cannot be read` });
            return;
          }
        }
        const tenantClient = client.withApiKey(account.api_key);
        try {
          const numbers = await findNumbers(tenantClient, digits);
          out.set(key, { ok: true, ref, account, client: tenantClient, numbers });
        } catch (err) {
          if (!(err instanceof ForbiddenError || err instanceof UnauthorizedError)) throw err;
          const why = account.status === "disabled" ? " (it is disabled: enable it with status: enabled, apply, then plan again)" : "";
          out.set(key, { ok: false, ref, account, problem: `the API refused ${label}'s key${why}: ${describe(err)}` });
        }
      }),
    ),
  );
  return out;
}

/** Where a number was found when it was not under the owner the file gives. */
export type FoundOwner = { readonly kind: "master" } | { readonly kind: "sub_account"; readonly account: SubAccount };

export function ownerLabel(owner: FoundOwner): string {
  return owner.kind === "master" ? "the account itself" : `sub-account ${JSON.stringify(owner.account.name)} (id ${owner.account.id})`;
}

/** The message for a number found under another owner than the file gives: the API cannot move it. */
export function ownerMismatchMessage(digits: string, declared: string, found: FoundOwner): string {
  const fix =
    found.kind === "master"
      ? "remove its sub_account: to manage it as the account's own"
      : `write sub_account: ${JSON.stringify(found.account.name)} (or id ${found.account.id})`;
  return (
    `number ${digits} is declared under ${declared}, but it belongs to ${ownerLabel(found)}: the API cannot move a number to another ` +
    `owner (the account or a sub-account), so nothing is written. ${fix[0].toUpperCase()}${fix.slice(1)}, or move it in the Wavix portal first`
  );
}
