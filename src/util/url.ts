/**
 * URLs as the API means them. One URL has several texts: an internationalised host in Unicode or
 * in its ASCII (punycode) form, percent-escapes in upper or lower case, an unreserved character
 * escaped or not (`%7E` or `~`, RFC 3986 section 6.2.2.2), a bare host with or without its `/`.
 * Comparison is in one form (the WHATWG URL serialisation, escapes of unreserved characters
 * decoded, the others in upper case), so a server that answers another spelling of the URL it
 * was sent never shows a diff. What is sent is the file's own (ASCII) text, not this form.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** The comparison form of a URL; a text that is not an absolute URL is returned as it is. */
export function urlComparisonForm(url: string): string {
  let href: string;
  try {
    href = new URL(url).href;
  } catch {
    return url;
  }
  return href.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
    const c = String.fromCharCode(parseInt(escape.slice(1), 16));
    return UNRESERVED.test(c) ? c : escape.toUpperCase();
  });
}

/** Two URLs that name the same resource as the API sees it; null (or absent) equals only null. */
export function sameUrl(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return a === b || urlComparisonForm(a) === urlComparisonForm(b);
}
