/**
 * The one write of the account callbacks: `PUT /v1/profile`. A PUT may replace the whole profile
 * (issue #27: the guard rails treat it as a full-replace write, like a trunk's; the strict server,
 * test/helpers/strict-server.ts, clears what the PUT leaves out), so it carries the whole profile:
 * the declared callbacks, and every other field of the official ProfileUpdateRequest from a fresh
 * `GET /v1/profile` (its ProfileResponse names, mapped to the request's: `timezone` is sent as
 * `time_zone`, `contact_email` as `contacts`, `company_info.address` as `billing_address`, the
 * country's name as its ISO code). A field the PUT would reset that neither the file nor the read
 * gives makes the write refused, naming it — above all the other callback: the API never shows
 * either back, so both must be declared.
 */
import type { GatedClient } from "../../kit/gate";
import type { WavixClient } from "../../client";
import type { AccountProfile, ProfileUpdate } from "../../client/types";
import { countryCodeOfName } from "../../util/countries";
import { CALLBACK_FIELDS } from "./file";
import type { DesiredAccountCallbacks } from "./types";

/** Request field ← response field, for the profile's own text fields. */
const PROFILE_FIELDS: ReadonlyArray<readonly [keyof ProfileUpdate, string]> = [
  ["first_name", "first_name"],
  ["last_name", "last_name"],
  ["phone", "phone"],
  ["additional_info", "additional_info"],
  ["contacts", "contact_email"],
  ["default_short_link_endpoint", "default_short_link_endpoint"],
  ["time_zone", "timezone"],
  ["job_title", "job_title"],
];

/** `company_info` request field ← response field. */
const COMPANY_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["name", "name"],
  ["industry", "industry"],
  ["billing_address", "address"],
  ["attn_contact_name", "attn_contact_name"],
  ["vat_number", "vat_number"],
];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The company's country as an ISO code; undefined when it has none; null when it has one no code can be given for. */
function countryCode(company: Obj): string | undefined | null {
  const country = company.country;
  if (!isObj(country) || (country.country_name === null && country.country_id === null) || country.country_name === undefined) return undefined;
  if (typeof country.country_name !== "string") return null;
  return countryCodeOfName(country.country_name) ?? null;
}

/**
 * What a PUT of the profile would reset that neither the file (`desired`) nor the read shows: the
 * undeclared callback (never shown back), a profile field the read leaves out, a company country
 * named in a way no ISO code can be given for. Empty when the PUT can carry everything.
 */
export function profileMissing(profile: AccountProfile, desired: DesiredAccountCallbacks): string[] {
  const out: string[] = [];
  for (const k of CALLBACK_FIELDS) if (desired[k] === undefined) out.push(k);
  for (const [req, resp] of PROFILE_FIELDS) if (!(resp in profile)) out.push(req);
  const company = profile.company_info;
  if (company === undefined) out.push("company_info");
  else if (isObj(company)) {
    for (const [req, resp] of COMPANY_FIELDS) if (!(resp in company)) out.push(`company_info.${req}`);
    if (countryCode(company) === null) out.push("company_info.country_code");
  }
  return out;
}

/** Why the profile cannot be written safely, or undefined. */
export function profileProblem(profile: AccountProfile, desired: DesiredAccountCallbacks): string | undefined {
  const missing = profileMissing(profile, desired);
  if (missing.length === 0) return undefined;
  const callbacks = missing.filter((m) => (CALLBACK_FIELDS as readonly string[]).includes(m));
  const rest = missing.filter((m) => !callbacks.includes(m));
  const why: string[] = [];
  if (callbacks.length > 0) {
    why.push(`declare ${callbacks.join(" and ")} too: the API never shows the callbacks back, and a PUT that replaces the profile would clear ${callbacks.length === 1 ? "it" : "them"}`);
  }
  if (rest.length > 0) why.push(`the API's profile does not show ${rest.join(", ")}, which the PUT would reset`);
  return `account callbacks are not sent (PUT /v1/profile may replace the whole profile): ${why.join("; ")}`;
}

/** The PUT body: the declared callbacks and the profile as read. Throws (nothing written) when it cannot be whole. */
export function profileBody(profile: AccountProfile, desired: DesiredAccountCallbacks): ProfileUpdate {
  const problem = profileProblem(profile, desired);
  if (problem) throw new Error(problem);
  const body: ProfileUpdate = {};
  for (const k of CALLBACK_FIELDS) if (desired[k] !== undefined) body[k] = desired[k];
  // A null field is left out: cleared, it stays null.
  for (const [req, resp] of PROFILE_FIELDS) if (typeof profile[resp] === "string") (body as Obj)[req] = profile[resp];
  const company = profile.company_info;
  if (isObj(company)) {
    const ci: Obj = {};
    for (const [req, resp] of COMPANY_FIELDS) if (typeof company[resp] === "string") ci[req] = company[resp];
    const code = countryCode(company);
    if (typeof code === "string") ci.country_code = code;
    body.company_info = ci as ProfileUpdate["company_info"];
  }
  return body;
}

/** Writes the declared callbacks with one PUT built from a fresh read of the profile. */
export async function writeCallbacks(client: GatedClient, desired: DesiredAccountCallbacks): Promise<void> {
  await client.updateProfileCallbacks(profileBody(await client.getAccountProfile(), desired));
}
