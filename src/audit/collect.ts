/**
 * Collect the raw audit data through the typed client (docs/CONTRACT.md part 2: 2FA events and sessions,
 * 10DLC vettings and brands). Concurrency is bounded by the client itself (its `concurrency` option),
 * so every request is started at once here and the client queues them.
 */
import type { Brand, BrandVetting, TwoFaEvent, TwoFaSession } from "../client/types";
import { NotFoundError } from "../client/errors";
import type { TwoFaServiceWindow } from "../config/types";
import type { CollectedBrand, CollectedSession, Finding } from "./types";

/** Brands read per page with `brands: all` (the API's default is 25; its maximum 100). */
export const BRANDS_PER_PAGE = 100;

/**
 * The part of `WavixClient` the audit reads. A structural type so the audit can be handed any
 * client built by the front ends (the real `WavixClient` satisfies it).
 */
export interface AuditClient {
  listTwoFaEvents(sessionUuid: string): Promise<TwoFaEvent[]>;
  listTwoFaSessions(serviceId: string, from: string, to: string): Promise<TwoFaSession[]>;
  listBrandVettings(brandId: string): Promise<BrandVetting[]>;
  /** Walked with `per_page` so the walk can tell a short last page from a page the server cut. */
  iterateBrandPages(params: { perPage: number }): AsyncIterable<{ items: Brand[] }>;
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
  /** What the API sent that could not be read (e.g. a session without `session_id`), as report findings. */
  findings: Finding[];
}

const NOT_FOUND = Symbol("not found");

/**
 * A 404 becomes `NOT_FOUND`; any other error (auth, network after retries) propagates: it is not
 * about one item, and repeating it per item would only bury it. The returned promise is marked
 * handled at once, because it may reject before the collector awaits it (while pages are walked).
 */
function settle<T>(request: Promise<T>): Promise<T | typeof NOT_FOUND> {
  const p = request.then(
    (value): T | typeof NOT_FOUND => value,
    (err: unknown): typeof NOT_FOUND => {
      if (err instanceof NotFoundError) return NOT_FOUND;
      throw err;
    },
  );
  p.catch(() => undefined);
  return p;
}

/**
 * Sessions named directly, then the sessions of each service window, deduplicated by session ID
 * (first occurrence wins, so the report keeps the file's order), each with its events. Events of
 * the named sessions are requested while the service windows are still being listed. Missing
 * items are reported in file order, whatever order the answers came in.
 */
export async function collectTwoFa(client: AuditClient, selection: TwoFaSelection): Promise<Collected<CollectedSession>> {
  const ids: string[] = [];
  const requests: Promise<TwoFaEvent[] | typeof NOT_FOUND>[] = [];
  const seen = new Set<string>();
  // The service a session was listed under (first window wins), for per-service rates in reports.
  const serviceOf = new Map<string, string>();
  // The service's name as the sessions listing gives it (`service_name`), for reports to name it by.
  const serviceNames = new Map<string, string>();
  const add = (id: string, serviceId?: string): void => {
    if (serviceId !== undefined && !serviceOf.has(id)) serviceOf.set(id, serviceId);
    if (seen.has(id)) return;
    seen.add(id);
    ids.push(id);
    requests.push(settle(client.listTwoFaEvents(id)));
  };
  for (const id of selection.sessions ?? []) add(id);

  const windows = selection.services ?? [];
  const listed = await Promise.all(windows.map((w) => settle(client.listTwoFaSessions(w.service_id, w.from, w.to))));
  const missing: MissingItem[] = [];
  const findings: Finding[] = [];
  const skipped: TwoFaSession[] = [];
  listed.forEach((result, i) => {
    const id = windows[i].service_id;
    if (result === NOT_FOUND) {
      missing.push({ kind: "two_fa_service", id, message: `2FA service ${id} not found` });
      return;
    }
    for (const s of result) {
      if (typeof s.service_name === "string" && s.service_name.trim() !== "" && !serviceNames.has(id)) serviceNames.set(id, s.service_name.trim());
      // `session_id` is optional in the official ListSessionsResponseItem: without it there are no
      // events to ask for (never `/session/undefined/events`).
      if (typeof s.session_id === "string" && s.session_id.trim() !== "") add(s.session_id, id);
      else skipped.push(s);
    }
    if (skipped.length > 0) {
      findings.push({
        severity: "warning",
        code: "session_without_id",
        subject: id,
        message: `2FA service ${id}: ${skipped.length} session(s) listed without a session_id (${skipped
          .slice(0, 3)
          .map((s) => `created ${JSON.stringify(s.created_at ?? null)}`)
          .join(", ")}${skipped.length > 3 ? ", …" : ""}); their events cannot be read and are not in the report`,
      });
      skipped.length = 0;
    }
  });

  const results = await Promise.all(requests);
  const items: CollectedSession[] = [];
  const missingSessions: MissingItem[] = [];
  results.forEach((events, i) => {
    const id = ids[i];
    if (events === NOT_FOUND) missingSessions.push({ kind: "two_fa_session", id, message: `2FA session ${id} not found` });
    else {
      const serviceId = serviceOf.get(id);
      const serviceName = serviceId !== undefined ? serviceNames.get(serviceId) : undefined;
      items.push({
        session_id: id,
        ...(serviceId !== undefined ? { service_id: serviceId } : {}),
        ...(serviceName !== undefined ? { service_name: serviceName } : {}),
        events,
      });
    }
  });
  return { items, missing: [...missingSessions, ...missing], findings };
}

/**
 * Vettings of the listed brands (deduplicated, file order kept), or of every brand when `"all"`:
 * brand pages are walked and each brand's vettings requested as soon as its page arrives.
 */
export async function collectTenDlc(client: AuditClient, selection: TenDlcSelection): Promise<Collected<CollectedBrand>> {
  const ids: string[] = [];
  const requests: Promise<BrandVetting[] | typeof NOT_FOUND>[] = [];
  const seen = new Set<string>();
  const start = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    ids.push(id);
    requests.push(settle(client.listBrandVettings(id)));
  };

  const brands = selection.brands ?? [];
  if (brands === "all") {
    for await (const page of client.iterateBrandPages({ perPage: BRANDS_PER_PAGE })) {
      for (const b of page.items) start(b.brand_id);
    }
  } else {
    for (const id of brands) start(id);
  }
  const results = await Promise.all(requests);
  const items: CollectedBrand[] = [];
  const missing: MissingItem[] = [];
  results.forEach((vettings, i) => {
    const id = ids[i];
    if (vettings === NOT_FOUND) missing.push({ kind: "brand", id, message: `10DLC brand ${id} not found` });
    else items.push({ brand_id: id, vettings });
  });
  return { items, missing, findings: [] };
}
