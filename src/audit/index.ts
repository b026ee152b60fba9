/**
 * The audit (docs/AUDIT.md): 2FA verification sessions of the file's services over a period (with
 * the previous period of the same length, per day and per service), sessions named directly, and
 * 10DLC brand vettings, collected through the typed client, totalled exactly and checked against the
 * file's thresholds. The CLI (`src/cli/audit.ts`) and the Pulumi data sources call these.
 */
import type { AuditConfig } from "../config/types";
import { AccountMismatchError } from "../kit/provider/account-pin";
import type { AccountProfile, TwoFaEvent } from "../client/types";
import { AuditCollectionError, collectNamedSessions, collectTenDlc, DEFAULT_WINDOW, listingAnswers, listingLacksFigures, listSessionBatches, withEventsBatched, type AuditClient } from "./collect";
import { AuditBuilder } from "./compute";
import { MemorySessions, type SessionSink } from "./store";
import type { AuditReport, AuditReportHead, AuditRunner, AuditSource, Finding } from "./types";
import { AuditWindowError, nothingToAudit, previousPeriod, requireServicePeriods, type RunWindow } from "./window";

export * from "./types";
export {
  computeAudit,
  computeTwoFa,
  computeTenDlc,
  AuditBuilder,
  toolInfo,
  ratioText,
  subtractDecimal,
  changeOf,
  describePeriod,
  RATIO_PLACES,
  REPORT_FORMAT_VERSION,
  methodology,
  runnerInfo,
  keyFingerprint,
} from "./compute";
export type { ComputeAuditOptions, AuditContext } from "./compute";
export { AuditCollectionError, collectTenDlc, collectNamedSessions, listSessions, listSessionBatches, withEvents, withEventsBatched, orderedPool, orderedBatches, listingLacksFigures, BRANDS_PER_PAGE } from "./collect";
export type { AuditClient, TenDlcSelection, MissingItem, Collected, ServiceListing } from "./collect";
export * from "./window";
export { MemorySessions, SpooledSessions, SampleCollector, sampleOf, SAMPLE_LIMIT } from "./store";
export type { SessionSource, SessionSink, SessionSample } from "./store";
export { parseTimestamp, normaliseTimestamp, formatUtc } from "./time";
export { renderJson, writeJson, writeJsonAround, writeJsonSessions } from "./render/json";
export { completenessText } from "./render/summary";
export { renderMarkdown, renderMarkdownHead } from "./render/md";
export { renderHtml, renderHtmlHead } from "./render/html";
export { CSV_TABLES, renderCsvTable, writeCsvTable, writeCsvSessionsTable, sameCsvMeta, csvField } from "./render/csv";
export type { CsvTable, CsvMeta } from "./render/csv";
export * from "./data-sources";

/** Options of {@link runAudit} and {@link audit}. */
export interface AuditOptions {
  /** The report's `generated_at`, and the "now" of vetting ages. @default new Date() */
  now?: Date;
  /** The run's window (`--last`, `--from/--to`), overriding each service's own. @default each service's from/to */
  window?: RunWindow;
  /**
   * The account the key must belong to (`account_id:` of the file): checked with the first request,
   * before anything else is read ({@link AccountMismatchError}). @default no pin
   */
  accountPin?: { id: number; source: string };
  /** Sessions whose events may be in flight (or read, waiting for an earlier one) at once: the memory bound. @default 64 */
  inFlight?: number;
  /** @default this package's name and version */
  tool?: { name: string; version: string };
  /**
   * Read every session's events (the per-event tables). Without it the headline figures come from
   * the sessions listings alone, and events are read only for a session the listing leaves
   * unread. Never for the previous period. @default false
   */
  events?: boolean;
  /** Where the data comes from, asked once the collection is done (request counts). @default unknown */
  source?: () => AuditSource;
  /** Who makes the report. @default {@link runnerInfo} of the environment */
  runner?: AuditRunner;
  /**
   * The account's profile, already asked of `client` (the CLI sends it before it loads the
   * audit's own modules, which then load while it is answered). @default asked here, first
   */
  profile?: Promise<AccountProfile>;
  /**
   * Called once every session of the report has gone to the sink, before the brands and the
   * previous period are waited on: the sessions are final then, and so is what `fixed` holds
   * (`audit --out` writes the sessions' tables while the last requests are out). @default none
   */
  sessionsDone?: (fixed: Pick<AuditReportHead, "account" | "period" | "generated_at" | "tool">) => void;
}

/**
 * Listing answers asked ahead of the one being read (with the one being read, at most this many
 * plus one held): enough to keep the client's connections busy with listings while one is read.
 */
const LISTINGS_AHEAD = 4;

/**
 * Collect and compute the report, handing each session of it to `sink` in report order (services in
 * file order, days ascending; then the named sessions) and returning the rest. Requests: the profile
 * (the account, the pin) first; then brands and named sessions (unknown ones reported all together
 * in one {@link AuditCollectionError} before the services are read; with `brands: all`, which names
 * none, the brands are read beside the services); then one sessions listing per service for the period (events only with `events`, or for a session the listing leaves unread),
 * and one per service for the previous period (never events).
 */
export async function runAudit(client: AuditClient, config: AuditConfig | undefined, sink: SessionSink | undefined, options: AuditOptions = {}): Promise<AuditReportHead> {
  const now = options.now ?? new Date();
  if (nothingToAudit(config)) {
    throw new AuditWindowError(
      "nothing to audit: declare audit.two_fa.services (2FA services, audited over the run's --last/--from/--to or their own from/to), audit.two_fa.sessions or audit.ten_dlc.brands",
    );
  }
  // Every period is settled before the first request (a service without one is refused here).
  const periods = requireServicePeriods(config?.two_fa?.services ?? [], options.window);

  const profile = await (options.profile ?? client.getAccountProfile());
  if (options.accountPin && profile.id !== options.accountPin.id) throw new AccountMismatchError(options.accountPin.id, profile.id, options.accountPin.source);

  const events = options.events ?? false;
  const builder = new AuditBuilder({ now, accountId: profile.id, config, window: options.window, tool: options.tool, events, runner: options.runner });
  const win = options.inFlight ?? DEFAULT_WINDOW;
  const brands = config?.ten_dlc?.brands ?? [];
  const tenDlcRead = collectTenDlc(client, { brands });
  // Observed below; until then a rejection must not count as unhandled.
  tenDlcRead.catch(() => undefined);
  const named = await collectNamedSessions(client, config?.two_fa?.sessions ?? [], win);
  // Named brands may be missing, which stops the run before any service is read (with the missing
  // named sessions, all together). `brands: all` names none: its walk goes on beside the services'
  // listings, sharing the client's requests in flight, rather than before them.
  const tenDlcFirst = named.missing.length > 0 || brands !== "all" ? await tenDlcRead : undefined;
  const missing = [...named.missing, ...(tenDlcFirst?.missing ?? [])];
  if (missing.length > 0) throw new AuditCollectionError(missing);

  // The services' sessions. A named session a service lists belongs to the service (read once).
  const cached = new Map<string, TwoFaEvent[]>(named.items.map((s) => [s.session_id, s.events]));
  const seen = new Set<string>();
  const note = (f: Finding[]) => builder.addFindings(f);
  const listings = periods.map((p) => ({ serviceId: p.service.service_id, period: p.period }));
  // The previous period's listings follow the period's in one sequence of answers, asked
  // LISTINGS_AHEAD ahead of the one being read, so they are on their way while the period's are read.
  const previous = periods.map((p) => ({ serviceId: p.service.service_id, period: previousPeriod(p.period) }));
  const answers = listingAnswers(client, [...listings, ...previous], LISTINGS_AHEAD);
  const needEvents = events ? () => true : listingLacksFigures;
  for await (const batch of withEventsBatched(client, listSessionBatches(client, listings, seen, note, "", answers), note, { window: win, cached, needEvents })) {
    for (const s of batch) {
      const kept = builder.addSession(s);
      if (kept && sink) {
        // Awaited only when the sink has to wait (a spool writing to its file): no step per session.
        const wait = sink.add(kept);
        if (wait) await wait;
      }
    }
  }
  for (const s of named.items) {
    if (seen.has(s.session_id)) continue;
    const kept = builder.addSession(s);
    if (kept && sink) await sink.add(kept);
  }
  cached.clear();
  options.sessionsDone?.(builder.fixed());
  const tenDlc = tenDlcFirst ?? (await tenDlcRead);
  builder.setBrands(tenDlc.items);
  builder.addFindings(tenDlc.findings);

  // The previous period: the listings' figures only (never events), nothing kept.
  const prefix = "previous period: ";
  for await (const batch of listSessionBatches(client, previous, new Set(), note, prefix, (i) => answers(listings.length + i))) {
    for (const s of batch) builder.addPreviousSession(s);
  }
  if (options.source) builder.setSource(options.source());
  return builder.head();
}

/** The whole report in memory (sessions included): {@link runAudit} with an in-memory sink. */
export async function audit(client: AuditClient, config: AuditConfig | undefined, options: AuditOptions = {}): Promise<AuditReport> {
  const sessions = new MemorySessions();
  const head = await runAudit(client, config, sessions, options);
  return withSessions(head, sessions.sessions);
}

/** The report object from its head and its sessions (key order as `audit --format json` prints it). */
export function withSessions(head: AuditReportHead, sessions: AuditReport["two_fa"]["sessions"]): AuditReport {
  // Spread keeps the head's key order; two_fa's sessions come last in it.
  return { ...head, two_fa: { ...head.two_fa, sessions } };
}
