/**
 * Countries as ISO 3166-1 alpha-2 codes (the official document's "Two-letter ISO country codes"),
 * from the `country-list` package (the standard's 249 assigned codes and English short names):
 * `GB`, never `UK` (reserved, not assigned) or `XX`.
 */
import { getCode, getCodes, getName } from "country-list";

let codes: ReadonlySet<string> | undefined;

/** Whether `code` is an assigned ISO 3166-1 alpha-2 code (upper case, as the API takes it). */
export function isCountryCode(code: string): boolean {
  codes ??= new Set(getCodes());
  return codes.has(code);
}

/** A hint for a code that is not one: the code meant, where a common mistake is known. */
export function countryCodeHint(code: string): string | undefined {
  if (code.toUpperCase() === "UK") return "the United Kingdom is GB";
  if (isCountryCode(code.toUpperCase()) && code !== code.toUpperCase()) return `write it in upper case: ${code.toUpperCase()}`;
  return undefined;
}

/**
 * The code of a country named in English (the profile's `company_info.country.country_name`), or
 * undefined when the name is not one the standard or `Intl` (CLDR) gives a single code.
 */
export function countryCodeOfName(name: string): string | undefined {
  const direct = getCode(name);
  if (direct !== undefined) return direct;
  const display = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const wanted = name.trim().toLowerCase();
  const hits = getCodes().filter((c) => display.of(c)?.toLowerCase() === wanted || getName(c)?.replace(/ \(the\)$/, "").toLowerCase() === wanted);
  return hits.length === 1 ? hits[0] : undefined;
}
