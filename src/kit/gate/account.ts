/**
 * The account rail of the write gate (docs/GUARD-RAILS.md, "The account"): before a write leaves,
 * the account the key belongs to (`GET /v1/profile`) is compared with every pin that applies — the
 * file's `account_id:`, the engine's `wavix:accountId`, and the account a Pulumi state recorded for
 * the object written. A write whose account cannot be confirmed is refused, saying what to do.
 */
import { ForbiddenError, WavixApiError, type WavixClient } from "../../client";

/** One pin: the account a write must go to, and where that was said (for messages). */
export interface AccountPin {
  readonly account: number;
  /** `wavix.yaml account_id`, `wavix:accountId`. */
  readonly source: string;
}

/**
 * What the writer knows of the object a write touches:
 * - `undefined`: nothing to compare (a create, or a run that read the object with this very key);
 * - a number: the account recorded for it (a Pulumi state's `accountId`);
 * - `"unrecorded"`: it is held by a state that recorded no account (made with a key that could not
 *   read the profile, or by a wavix-sync that did not record it): only a pin can vouch for it.
 */
export type ObjectAccount = number | "unrecorded" | undefined;

/** The profile id each client has shown (the CLI's pin check reads it once; the gate reuses it). */
const seen = new WeakMap<WavixClient, number>();

/** Records the account a client's `GET /v1/profile` answered (src/kit/provider/account-pin.ts). */
export function rememberAccount(client: WavixClient, account: number): void {
  seen.set(client, account);
}

/** The account behind `client`'s key: remembered, else one `GET /v1/profile`; undefined on 403 (it may not read it). */
export async function keyAccount(client: WavixClient): Promise<number | undefined> {
  const known = seen.get(client);
  if (known !== undefined) return known;
  try {
    const id = (await client.getAccountProfile()).id;
    seen.set(client, id);
    return id;
  } catch (err) {
    if (err instanceof ForbiddenError) return undefined;
    throw err;
  }
}

/** The key belongs to another account than a pin names. Never retried; holds no key. */
export class AccountMismatchError extends WavixApiError {
  constructor(
    readonly expected: number,
    readonly actual: number,
    /** Where the pin comes from, for the message (`wavix.yaml account_id`, `wavix:accountId`). */
    readonly source: string,
    /** What the key is called where it was set (`WAVIX_API_KEY`, `wavix:apiKey`). */
    keyName = "WAVIX_API_KEY",
  ) {
    super(
      `the API key belongs to account ${actual}, but ${source} pins account ${expected}; stopped before reading or writing anything else (check ${keyName}, or the pin)`,
      { method: "GET", path: "/v1/profile", status: 0 },
    );
    this.name = "AccountMismatchError";
  }
}

/** A write whose account cannot be confirmed: refused, nothing sent. Holds no key. */
export class AccountUnconfirmedError extends WavixApiError {
  constructor(message: string) {
    super(message, { method: "GET", path: "/v1/profile", status: 0 });
    this.name = "AccountUnconfirmedError";
  }
}

/** The object's recorded account is not the key's. Holds no key. */
export class ObjectAccountError extends WavixApiError {
  constructor(message: string) {
    super(message, { method: "GET", path: "/v1/profile", status: 0 });
    this.name = "ObjectAccountError";
  }
}

export interface AccountRuleOptions {
  /** The key's name where it was set, for messages (`WAVIX_API_KEY`, `wavix:apiKey`). */
  readonly keyName: string;
  /** How a person pins the account on this face (`account_id: N in the file`, `pulumi config set wavix:accountId N`). */
  readonly pinHint: (account: number | "N") => string;
  /** How to forget the object on this face. @default "`pulumi state delete` the resource" */
  readonly forget?: string;
}

/**
 * Compares the key's account with the pins and the object's recorded account. `account` is the
 * key's account (undefined: the key may not read the profile). Throws, naming what to do.
 */
export function compareAccounts(account: number | undefined, pins: readonly AccountPin[], object: ObjectAccount, what: string, o: AccountRuleOptions): void {
  const needed = pins.length > 0 || object !== undefined;
  if (!needed) return;
  if (account === undefined) {
    const against = [...pins.map((p) => `${p.source} ${p.account}`), ...(typeof object === "number" ? [`the account ${object} recorded for it`] : [])];
    throw new AccountUnconfirmedError(
      `${what}: not written: the API key (${o.keyName}) may not read GET /v1/profile, so the account it writes to cannot be confirmed${against.length > 0 ? ` against ${against.join(" and ")}` : ""}; nothing was written. Use a key that may read the profile (scope account:read)`,
    );
  }
  for (const p of pins) if (p.account !== account) throw new AccountMismatchError(p.account, account, p.source, o.keyName);
  if (typeof object === "number" && object !== account) {
    throw new ObjectAccountError(
      `${what}: not written: it belongs to account ${object} (recorded when it was taken on), but the API key (${o.keyName}) belongs to account ${account}; nothing was written. Point back at account ${object}'s key to act on it there, or forget the object (${o.forget ?? "`pulumi state delete` the resource"})`,
    );
  }
  if (object === "unrecorded" && pins.length === 0) {
    throw new AccountUnconfirmedError(
      `${what}: not written: its state recorded no account (it was taken on with a key that could not read GET /v1/profile, or by an older wavix-sync), so it cannot be confirmed that it belongs to account ${account}, the key's; nothing was written. If it does, pin that account (${o.pinHint(account)}): the account is then confirmed and recorded`,
    );
  }
}
