/**
 * The one identity rule of the kinds whose objects carry a Wavix id and a name a person chose
 * (sub-accounts by name, SIP trunks by label): an `id:` in the file pins one object; without it the
 * object is found by its name, and two of that name are an error asking for the pin.
 *
 * Names are compared as the service compares them: in Unicode NFC (the API stores names in NFC,
 * issue #22), so a name read back in NFC matches the one sent. A file name that is not in NFC is
 * refused at load (`nfcProblem`): it would be stored otherwise than written.
 */

/** A name in the form the service compares it in (Unicode NFC). */
export function identityForm(name: string): string {
  return name.normalize("NFC");
}

/** Two names the service holds as one. */
export function sameName(a: string, b: string): boolean {
  return a === b || identityForm(a) === identityForm(b);
}

const hex = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Where a name leaves NFC: the first character with its combining marks that NFC writes otherwise. */
export function nfcWhere(name: string): string {
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    let j = i + 1;
    while (j < chars.length && /\p{M}/u.test(chars[j])) j++;
    const run = chars.slice(i, j).join("");
    if (run.normalize("NFC") !== run) return `${[...run].map(hex).join(" ")} where NFC has ${[...run.normalize("NFC")].map(hex).join(" ")}`;
  }
  return "a sequence NFC writes otherwise";
}

/**
 * Why a name in the file cannot be matched again (it is not in NFC), or undefined. `what` names it
 * (`sub-account name "Café"`).
 */
export function nfcProblem(name: string, what: string): string | undefined {
  if (name === name.normalize("NFC")) return undefined;
  return `${what} is not in Unicode NFC form (${nfcWhere(name)}): the API stores names in NFC, so it would never match by name again; write it in NFC`;
}

/**
 * The existing object for a desired one: by pinned id, else by name (compared in NFC). `ambiguous`
 * makes the error for a name several objects share (with their ids).
 */
export function matchByIdentity<T extends { id: number }>(
  desired: { id?: number },
  name: string,
  existing: readonly T[],
  nameOf: (item: T) => string,
  ambiguous: (ids: number[]) => Error,
): T | undefined {
  if (desired.id !== undefined) return existing.find((x) => x.id === desired.id);
  const hits = existing.filter((x) => sameName(nameOf(x), name));
  if (hits.length > 1) throw ambiguous(hits.map((x) => x.id));
  return hits[0];
}
