/**
 * The native provider's functions (Invoke): `wavix:index:getTwoFaEvents` and
 * `wavix:index:getBrandVettings`, the audit's own computation (src/audit, as `wavix-sync audit` and
 * the dynamic data sources run it) over the provider's client — pinned to `wavix:accountId` when
 * it is set. Arguments and results are camelCase. Reads only.
 */
import type { WavixClient } from "../../client";
import { readBrandVettings, readTwoFaEvents, type AuditClient, type TwoFaServiceWindowArgs } from "../../audit";
import type { Props } from "../../kit/provider/props";
import { token } from "../../kit/provider/schema";

/** Brands per page when listing them all: the API's maximum, so an account costs few pages. */
const BRANDS_PER_PAGE = 100;

function auditClient(client: WavixClient): AuditClient {
  return {
    getAccountProfile: () => client.getAccountProfile(),
    listTwoFaEvents: (id) => client.listTwoFaEvents(id),
    listTwoFaSessions: (serviceId, from, to) => client.listTwoFaSessions(serviceId, from, to),
    listBrandVettings: (id) => client.listBrandVettings(id),
    iterateBrandPages: () => client.iterateBrandPages({ perPage: BRANDS_PER_PAGE }),
  };
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

// The audit's engine-agnostic data sources (src/audit/data-sources.ts) check the arguments before
// any request and answer camelCase; the client is the session's, so the account pin holds.
async function getTwoFaEvents(client: WavixClient, args: Props): Promise<Props> {
  const services = list(args.services).map((s) => {
    const w = (s ?? {}) as Props;
    return { serviceId: w.serviceId, from: w.from, to: w.to } as TwoFaServiceWindowArgs;
  });
  return (await readTwoFaEvents(auditClient(client), { sessions: list(args.sessions) as string[], services })) as unknown as Props;
}

async function getBrandVettings(client: WavixClient, args: Props): Promise<Props> {
  const brands = args.brands === "all" ? "all" : (list(args.brands) as string[]);
  return (await readBrandVettings(auditClient(client), { brands })) as unknown as Props;
}

/** The functions by token. */
export const FUNCTIONS: Readonly<Record<string, (client: WavixClient, args: Props) => Promise<Props>>> = {
  [token("getTwoFaEvents")]: getTwoFaEvents,
  [token("getBrandVettings")]: getBrandVettings,
};
