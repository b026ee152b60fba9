/**
 * Collect the raw audit data through the typed client (PRODUCT.md part 2: 2FA events and sessions,
 * 10DLC vettings and brands). Concurrency is bounded by the client itself (its `concurrency` option),
 * so every request is started at once here and the client queues them.
 */
import type { Brand, BrandVetting, TwoFaEvent, TwoFaSession } from "../client/types";
import { NotFoundError } from "../client/errors";
import type { TwoFaServiceWindow } from "../config/types";
import type { CollectedBrand, CollectedSession } from "./types";

/**
 * The part of `WavixClient` the audit reads. A structural type so the audit can be handed any
 * client built by the front ends (the real `WavixClient` satisfies it).
 */
export interface AuditClient {
  listTwoFaEvents(sessionUuid: string): Promise<TwoFaEvent[]>;
  listTwoFaSessions(serviceId: string, from: string, to: string): Promise<TwoFaSession[]>;
  listBrandVettings(brandId: string): Promise<BrandVetting[]>;
  iterateBrandPages(): AsyncIterable<{ items: Brand[] }>;
}

/** What to collect for 2FA: listed sessions, and every session of listed services in their windows. */
export interface TwoFaSelection {
  /** Session UUIDs. @default [] */
  sessions?: readonly string[];
  /** Services with a date window (YYYY-MM-DD, inclusive). @default [] */
  services?: readonly TwoFaServiceWindow[];
}

/** What to collect for 10DLC: listed brand IDs, or `"all"` to page through every brand. */
export interface TenDlcSelection {
  /** @default [] */
  brands?: readonly string[] | "all";
}

/** One thing named in the selection that the account does not have. */
export interface MissingItem {
  kind: "two_fa_session" | "two_fa_service" | "brand";
  id: string;
  message: string;
}

/**
 * Thrown when named sessions, services or brands do not exist: every one of them is in `missing`
 * (and one per line in `message`), so a run reports all at once.
 */
export class AuditCollectionError extends Error {
  constructor(readonly missing: readonly MissingItem[]) {
    super(missing.map((m) => m.message).join("\n"));
    this.name = "AuditCollectionError";
  }
}

/** Result of a collection: data for what exists, and what was named but not found. */
export interface Collected<T> {
  items: T[];
  missing: MissingItem[];
}

const NOT_FOUND = Symbol("not found");

/**
 * Sessions named directly, then the sessions of each service window, deduplicated by session ID
 * (first occurrence wins, so the report keeps the file's order), each with its events.
 */
export async function collectTwoFa(client: AuditClient, selection: TwoFaSelection): Promise<Collected<CollectedSession>> {
  const missing: MissingItem[] = [];
  // A 404 becomes a MissingItem; any other error (auth, network after retries) propagates: it is
  // not about one item, and repeating it per item would only bury it.
  const track = async <T>(fn: () => Promise<T>, item: () => MissingItem): Promise<T | typeof NOT_FOUND> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof NotFoundError) {
        missing.push(item());
        return NOT_FOUND;
      }
      throw err;
    }
  };

  const ids: string[] = [];
  const seen = new Set<string>();
  const add = (id: string): void => {
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  };
  for (const id of selection.sessions ?? []) add(id);

  const windows = selection.services ?? [];
  const listed = await Promise.all(
    windows.map((w) =>
      track(
        () => client.listTwoFaSessions(w.service_id, w.from, w.to),
        () => ({
          kind: "two_fa_service",
          id: w.service_id,
          message: `2FA service ${w.service_id} not found`,
        }),
      ),
    ),
  );
  for (const result of listed) {
    if (result === NOT_FOUND) continue;
    for (const s of result) add(s.session_id);
  }

  const results = await Promise.all(
    ids.map((id) =>
      track(
        () => client.listTwoFaEvents(id),
        () => ({ kind: "two_fa_session", id, message: `2FA session ${id} not found` }),
      ),
    ),
  );
  const items: CollectedSession[] = [];
  results.forEach((events, i) => {
    if (events !== NOT_FOUND) items.push({ session_id: ids[i], events });
  });
  return { items, missing };
}

/**
 * Vettings of the listed brands (deduplicated, file order kept), or of every brand when `"all"`:
 * brand pages are walked and each brand's vettings requested as soon as its page arrives.
 */
export async function collectTenDlc(client: AuditClient, selection: TenDlcSelection): Promise<Collected<CollectedBrand>> {
  const missing: MissingItem[] = [];
  const ids: string[] = [];
  const pending: Promise<BrandVetting[] | typeof NOT_FOUND>[] = [];
  const seen = new Set<string>();
  const start = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    ids.push(id);
    const p = client.listBrandVettings(id).then(
      (v): BrandVetting[] | typeof NOT_FOUND => v,
      (err: unknown): typeof NOT_FOUND => {
        if (err instanceof NotFoundError) {
          missing.push({ kind: "brand", id, message: `10DLC brand ${id} not found` });
          return NOT_FOUND;
        }
        throw err;
      },
    );
    // Handled below by Promise.all; this keeps an early rejection from being reported as unhandled
    // while the brand pages are still being walked.
    p.catch(() => undefined);
    pending.push(p);
  };

  const brands = selection.brands ?? [];
  if (brands === "all") {
    for await (const page of client.iterateBrandPages()) {
      for (const b of page.items) start(b.brand_id);
    }
  } else {
    for (const id of brands) start(id);
  }
  const results = await Promise.all(pending);
  const items: CollectedBrand[] = [];
  results.forEach((vettings, i) => {
    if (vettings !== NOT_FOUND) items.push({ brand_id: ids[i], vettings });
  });
  return { items, missing };
}
