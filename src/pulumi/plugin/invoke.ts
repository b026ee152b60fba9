/**
 * The native provider's functions (Invoke): `wavix:index:getTwoFaEvents` and
 * `wavix:index:getBrandVettings`, the audit's own computation (src/audit, as `wavix-sync audit` and
 * the dynamic data sources run it) over the provider's client — pinned to `wavix:accountId` when
 * it is set. Arguments and results are camelCase. Reads only.
 */
import type { WavixClient } from "../../client";
import { getBrandVettingsData, getTwoFaEventsData, type AuditClient } from "../../audit";
import { parseDesiredState } from "../../config";
import { snakeToCamel, type Props } from "../../kit/provider/props";
import { token } from "../../kit/provider/schema";

/** Brands per page when listing them all: the API's maximum, so an account costs few pages. */
const BRANDS_PER_PAGE = 100;

function auditClient(client: WavixClient): AuditClient {
  return {
    listTwoFaEvents: (id) => client.listTwoFaEvents(id),
    listTwoFaSessions: (serviceId, from, to) => client.listTwoFaSessions(serviceId, from, to),
    listBrandVettings: (id) => client.listBrandVettings(id),
    iterateBrandPages: () => client.iterateBrandPages({ perPage: BRANDS_PER_PAGE }),
  };
}

/** A result with every key in camelCase (the audit's data is the file's snake_case). */
function camelDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelDeep);
  if (v !== null && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[snakeToCamel(k)] = k === "vetting_details" ? x : camelDeep(x);
    return out;
  }
  return v;
}

/**
 * The arguments run through the desired-state file's own checks (dates YYYY-MM-DD, windows in
 * order, ids), before any request: one Error naming every problem by its argument (camelCase).
 */
function validate(fn: string, audit: Props): void {
  const result = parseDesiredState(JSON.stringify({ version: 1, audit }), fn);
  if (result.ok) return;
  const lines = result.problems.map((p) => `${snakeToCamel(p.path.replace(/^audit\.[a-z_]+\.?/, ""))}: ${p.message}`);
  throw new Error(`${fn}: ${lines.length} invalid argument(s):\n${lines.join("\n")}`);
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

async function getTwoFaEvents(client: WavixClient, args: Props): Promise<Props> {
  const selection = {
    sessions: list(args.sessions) as string[],
    services: list(args.services).map((s) => {
      const w = (s ?? {}) as Props;
      return { service_id: w.serviceId as string, from: w.from as string, to: w.to as string };
    }),
  };
  validate("getTwoFaEvents", { two_fa: selection });
  return camelDeep(await getTwoFaEventsData(auditClient(client), selection)) as Props;
}

async function getBrandVettings(client: WavixClient, args: Props): Promise<Props> {
  const brands = args.brands === "all" ? "all" : (list(args.brands) as string[]);
  validate("getBrandVettings", { ten_dlc: { brands } });
  return camelDeep(await getBrandVettingsData(auditClient(client), { brands })) as Props;
}

/** The functions by token. */
export const FUNCTIONS: Readonly<Record<string, (client: WavixClient, args: Props) => Promise<Props>>> = {
  [token("getTwoFaEvents")]: getTwoFaEvents,
  [token("getBrandVettings")]: getBrandVettings,
};
