/**
 * The audited period (docs/AUDIT.md, "The period"). Every period is a half-open span of UTC time
 * `[from, to)`, whole days or whole hours:
 *
 * - `--last Nd`: the N full UTC days before today: from `today 00:00 − N days` to `today 00:00`.
 *   The current day is never part of it, so every run on the same UTC day audits the same, complete
 *   period (a scheduled job at 06:17 with `--last 1d` audits all of yesterday).
 * - `--last Nh`: the N full hours before the current hour (from `this hour − N h` to `this hour`).
 * - `--from A --to B` (and a service's `from`/`to` in the file): the days A to B inclusive, from
 *   `A 00:00` to `B+1 00:00`.
 *
 * The previous period is the span of the same length right before. The 2FA sessions listing takes
 * whole days (`from`/`to` as YYYY-MM-DD, inclusive): the audit asks it for every UTC day the period
 * touches, in pieces (src/audit/collect.ts), and keeps the sessions created inside the period.
 */
import { MAX_WINDOW_DAYS } from "../config/semantic";
import type { AuditConfig, TwoFaServiceWindow } from "../config/types";

export { MAX_WINDOW_DAYS };

/** True when the audit section declares nothing to check (then a run refuses: nothing would pass silently). */
export function nothingToAudit(config: AuditConfig | undefined): boolean {
  const t = config?.two_fa;
  const b = config?.ten_dlc?.brands;
  return (t === undefined || (t.sessions.length === 0 && t.services.length === 0)) && (b === undefined || (b !== "all" && b.length === 0));
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A span of time, milliseconds since the epoch, `from` included and `to` excluded. */
export interface Period {
  from: number;
  to: number;
}

/** What the run (or the file) asked for, as the report states it. */
export interface RunWindow {
  /**
   * How it was asked, as reports state it: `last 30d`, `2026-11-01 to 2026-11-21` (no leading dash,
   * so a spreadsheet never reads it as a formula).
   */
  label: string;
  period: Period;
}

/** A window that cannot be used: bad text, conflicting flags, reversed, too long. The message is for users. */
export class AuditWindowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuditWindowError";
  }
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Milliseconds of `YYYY-MM-DD` 00:00 UTC, or null when it is not a real calendar day. */
export function parseDay(text: string): number | null {
  if (!CALENDAR_DATE.test(text)) return null;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== text ? null : t;
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  // Sessions come in time order: most share the day of the one before.
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(ms).toISOString().slice(0, 10);
  }
  return lastDayText;
}

let lastDay = Number.NaN;
let lastDayText = "";

/** `--last` text: a whole number of days or hours, `30d`, `7d`, `24h`. */
export function parseLast(text: string): { amount: number; unit: "d" | "h" } {
  const m = /^\s*(\d{1,6})\s*([dDhH])\s*$/.exec(text);
  if (!m || Number(m[1]) < 1) {
    throw new AuditWindowError(`--last takes a whole number of days or hours, like 30d, 7d or 24h; got ${JSON.stringify(text)}`);
  }
  const amount = Number(m[1]);
  const unit = m[2].toLowerCase() as "d" | "h";
  const hours = unit === "d" ? amount * 24 : amount;
  if (hours > MAX_WINDOW_DAYS * 24) {
    throw new AuditWindowError(
      `--last ${amount}${unit} is longer than ${MAX_WINDOW_DAYS} days, the longest period one audit reads (one request per session in it); audit a longer span as several runs`,
    );
  }
  return { amount, unit };
}

/** The period of `--last` at `now` (see the header: it ends at the start of the current day or hour). */
export function lastPeriod(text: string, now: Date): Period {
  const { amount, unit } = parseLast(text);
  const step = unit === "d" ? DAY_MS : HOUR_MS;
  const to = Math.floor(now.getTime() / step) * step;
  return { from: to - amount * step, to };
}

/**
 * The period of the days `from` to `to`, inclusive. `names` says what to call them in messages
 * (the flags, or the file's keys).
 */
export function datesPeriod(from: string, to: string, names: { from: string; to: string } = { from: "--from", to: "--to" }): Period {
  const start = parseDay(from);
  const end = parseDay(to);
  const bad = [
    start === null ? `${names.from} takes a day as YYYY-MM-DD (UTC), got ${JSON.stringify(from)}` : undefined,
    end === null ? `${names.to} takes a day as YYYY-MM-DD (UTC), got ${JSON.stringify(to)}` : undefined,
  ].filter((x): x is string => x !== undefined);
  if (bad.length > 0) throw new AuditWindowError(bad.join("; "));
  if (start! > end!) throw new AuditWindowError(`${names.to} ${to} is before ${names.from} ${from}: the period would be empty`);
  const days = (end! - start!) / DAY_MS + 1;
  if (days > MAX_WINDOW_DAYS) {
    throw new AuditWindowError(
      `${names.from} ${from} ${names.to} ${to} spans ${days} days, more than ${MAX_WINDOW_DAYS}, the longest period one audit reads (one request per session in it); audit a longer span as several runs`,
    );
  }
  return { from: start!, to: end! + DAY_MS };
}

/** The flags of a run that give its window. */
export interface WindowFlags {
  /** `--last 30d` */
  last?: string;
  /** `--from YYYY-MM-DD` */
  from?: string;
  /** `--to YYYY-MM-DD` */
  to?: string;
}

/**
 * The run's window from its flags, or undefined when they give none. Conflicting or half-given flags
 * and bad values throw {@link AuditWindowError}.
 */
export function runWindow(flags: WindowFlags, now: Date): RunWindow | undefined {
  const { last, from, to } = flags;
  if (last !== undefined && (from !== undefined || to !== undefined)) {
    throw new AuditWindowError("--last and --from/--to both give the period: use one of them");
  }
  if (last !== undefined) return { label: `last ${last.trim().toLowerCase()}`, period: lastPeriod(last, now) };
  if (from !== undefined && to === undefined) throw new AuditWindowError(`--from ${from} needs --to (the last day of the period, inclusive)`);
  if (to !== undefined && from === undefined) throw new AuditWindowError(`--to ${to} needs --from (the first day of the period)`);
  if (from !== undefined && to !== undefined) return { label: `${from} to ${to}`, period: datesPeriod(from, to) };
  return undefined;
}

/** The span of the same length right before `p`. */
export function previousPeriod(p: Period): Period {
  return { from: p.from - (p.to - p.from), to: p.from };
}

/** Every UTC day `p` touches, ascending (`YYYY-MM-DD`): the days the sessions listing is asked for. */
export function daysOf(p: Period): string[] {
  const days: string[] = [];
  for (let t = Math.floor(p.from / DAY_MS) * DAY_MS; t < p.to; t += DAY_MS) days.push(utcDay(t));
  return days;
}

/**
 * The days the sessions listing is asked for to cover `p`: its first UTC day minus one to its last
 * plus one (inclusive). The official document does not say in which time zone the listing's
 * `from`/`to` dates are (the profile carries one): a day more on each side covers any zone from
 * −24 h to +24 h, and the sessions are then kept by their `created_at` (src/audit/collect.ts).
 */
export function listingDays(p: Period): { from: string; to: string } {
  return { from: utcDay(Math.floor(p.from / DAY_MS) * DAY_MS - DAY_MS), to: utcDay(Math.floor((p.to - 1) / DAY_MS) * DAY_MS + DAY_MS) };
}

/** The smallest period holding all of `periods` (undefined for none). */
export function spanOf(periods: readonly Period[]): Period | undefined {
  if (periods.length === 0) return undefined;
  return { from: Math.min(...periods.map((p) => p.from)), to: Math.max(...periods.map((p) => p.to)) };
}

/** A service and the period its sessions are audited over. */
export interface ServicePeriod {
  service: TwoFaServiceWindow;
  period: Period;
}

/**
 * Each service's period: the run's window when it gives one, else the service's own `from`/`to`.
 * Services with neither are returned in `unwindowed` (the caller refuses, naming them).
 */
export function servicePeriods(services: readonly TwoFaServiceWindow[], run: RunWindow | undefined): { periods: ServicePeriod[]; unwindowed: TwoFaServiceWindow[] } {
  const periods: ServicePeriod[] = [];
  const unwindowed: TwoFaServiceWindow[] = [];
  services.forEach((service, i) => {
    if (run) periods.push({ service, period: run.period });
    else if (service.from !== undefined && service.to !== undefined) {
      const at = `audit.two_fa.services[${i}]`;
      periods.push({ service, period: datesPeriod(service.from, service.to, { from: `${at}.from`, to: `${at}.to` }) });
    } else unwindowed.push(service);
  });
  return { periods, unwindowed };
}

/** {@link servicePeriods}, refusing services without a period, all named in one {@link AuditWindowError}. */
export function requireServicePeriods(services: readonly TwoFaServiceWindow[], run: RunWindow | undefined): ServicePeriod[] {
  const { periods, unwindowed } = servicePeriods(services, run);
  if (unwindowed.length > 0) {
    throw new AuditWindowError(
      `no period for 2FA service${unwindowed.length === 1 ? "" : "s"} ${unwindowed.map((s) => s.service_id).join(", ")}: run with --last 30d (or --from DATE --to DATE), or give the service its from/to`,
    );
  }
  return periods;
}
